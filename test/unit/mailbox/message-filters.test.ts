import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import {
  checkMessage,
  compileSubjectFilter,
  extractAddress,
  InvalidSubjectFilterError,
  matchesSender,
  matchesSubject,
  messageTooOld,
  sinceDate,
} from '../../../src/modules/integrations/mailbox/rules/index.js';
import { senderOf } from '../../../src/modules/documents/message-parts/index.js';
import { invoiceMessage } from '../../helpers/mail-fixtures.js';

describe('matchesSender', () => {
  const allowed = ['billing@vendor.example', '@partner.example'];
  it.each([
    ['billing@vendor.example', true],
    ['BILLING@Vendor.Example', true],
    ['"Billing Dept" <billing@vendor.example>', true],
    ['other@vendor.example', false],
    ['anyone@partner.example', true],
    ['x@sub.partner.example', false],
    ['x@notpartner.example', false],
    ['partner.example@evil.example', false],
    ['', false],
    ['not an address', false],
  ])('%j -> %j', (from, expected) => {
    expect(matchesSender(from, allowed)).toBe(expected);
  });
  it('an empty or missing list allows everyone, blank entries are ignored', () => {
    expect(matchesSender('x@y.z', [])).toBe(true);
    expect(matchesSender('x@y.z', null)).toBe(true);
    expect(matchesSender('x@y.z', ['  '])).toBe(true);
    expect(matchesSender('x@y.z', [' X@Y.Z '])).toBe(true);
  });
  it('extractAddress', () => {
    expect(extractAddress('Name <A@B.C>')).toBe('a@b.c');
    expect(extractAddress(' a@b.c ')).toBe('a@b.c');
    expect(extractAddress('Name')).toBe('');
  });
});

describe('subject filter', () => {
  it('plain text is a case-insensitive substring', () => {
    expect(matchesSubject('Your INVOICE 42', 'invoice')).toBe(true);
    expect(matchesSubject('Your receipt', 'invoice')).toBe(false);
    expect(matchesSubject(undefined, 'invoice')).toBe(false);
    expect(matchesSubject('anything', '')).toBe(true);
    expect(matchesSubject(undefined, null)).toBe(true);
  });
  it('/regex/flags is a regular expression with its own flags', () => {
    expect(matchesSubject('Invoice 2024-001', '/^Invoice \\d{4}-\\d{3}$/')).toBe(true);
    expect(matchesSubject('invoice 2024-001', '/^Invoice \\d{4}-\\d{3}$/')).toBe(false);
    expect(matchesSubject('invoice 2024-001', '/^Invoice \\d{4}-\\d{3}$/i')).toBe(true);
    // a single slash or "//" is just text
    expect(matchesSubject('a/b', '/')).toBe(true);
    expect(matchesSubject('http://x', '//')).toBe(true);
  });
  it('a compiled /g regex gives the same answer every time', () => {
    const f = compileSubjectFilter('/inv/g');
    expect([f('inv'), f('inv'), f('inv')]).toEqual([true, true, true]);
  });
  it('a broken regex throws a typed error at compile time', () => {
    expect(() => compileSubjectFilter('/(unclosed/')).toThrow(InvalidSubjectFilterError);
  });
  it('runs on the linear-time engine: catastrophic shapes finish, lookaheads and backreferences are refused', () => {
    const subject = `${'a'.repeat(40)}!`;
    for (const p of ['(?:a|a)+$', '(a|aa)+$', '(\\w|\\d)+$', '(.|\\s)*x'])
      expect(matchesSubject(subject, `/${p}/`)).toBe(false);
    expect(matchesSubject('a'.repeat(40), '/^(a|aa)+$/')).toBe(true);
    expect(() => compileSubjectFilter('/^(?!Re:)Invoice/')).toThrow(/lookahead/);
    expect(() => compileSubjectFilter('/(inv)\\1/')).toThrow(/backreference/);
    expect(matchesSubject('Invoice 7', '/(?<!Re: )Invoice/')).toBe(true);
  });
  it('a saved filter that can no longer run matches nothing instead of failing the poll', () => {
    expect(checkMessage({ subject: 'Invoice 7' } as never, { subjectFilter: '/^(?!Re:)Invoice/' }, new Date())).toEqual(
      { ok: false, reason: 'subject_not_matched' },
    );
  });
});

describe('message age', () => {
  const now = new Date('2026-06-30T12:00:00Z');
  it('messageTooOld', () => {
    expect(messageTooOld(new Date('2026-06-01T12:00:00Z'), 30, now)).toBe(false);
    expect(messageTooOld(new Date('2026-05-31T11:59:59Z'), 30, now)).toBe(true);
    expect(messageTooOld(new Date('2000-01-01'), null, now)).toBe(false);
    expect(messageTooOld(new Date('2000-01-01'), 0, now)).toBe(false);
    expect(messageTooOld(undefined, 30, now)).toBe(false);
    expect(messageTooOld(new Date('garbage'), 30, now)).toBe(false);
  });
  it('sinceDate', () => {
    expect(sinceDate(10, now)?.toISOString()).toBe('2026-06-20T12:00:00.000Z');
    expect(sinceDate(undefined, now)).toBeUndefined();
  });
});

describe('checkMessage on a parsed message', () => {
  const now = new Date();
  it('applies sender, subject and age in order', async () => {
    const parsed = await simpleParser(
      invoiceMessage({
        from: 'Billing <billing@vendor.example>',
        subject: 'Invoice 7',
        date: new Date(now.getTime() - 5 * 86_400_000),
      }),
    );
    expect(senderOf(parsed)).toBe('billing@vendor.example');
    expect(checkMessage(parsed, {}, now)).toEqual({ ok: true });
    expect(
      checkMessage(parsed, { allowedSenders: ['@vendor.example'], subjectFilter: 'invoice', maxAgeDays: 10 }, now),
    ).toEqual({ ok: true });
    expect(checkMessage(parsed, { allowedSenders: ['@other.example'] }, now)).toEqual({
      ok: false,
      reason: 'sender_not_allowed',
    });
    expect(checkMessage(parsed, { subjectFilter: 'receipt' }, now)).toEqual({
      ok: false,
      reason: 'subject_not_matched',
    });
    expect(checkMessage(parsed, { maxAgeDays: 3 }, now)).toEqual({ ok: false, reason: 'too_old' });
    // The IMAP internal date can stand in for a missing/forged Date header.
    expect(checkMessage(parsed, { maxAgeDays: 3 }, now, now)).toEqual({ ok: true });
  });
});
