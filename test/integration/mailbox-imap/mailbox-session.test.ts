// openMailbox against a real private Dovecot: listing, download, after-processing actions,
// IDLE push, UIDVALIDITY changes and server restarts. Each test uses its own user (mailbox).
import { createServer, type Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type PrivateDovecot } from '../../helpers/dovecot.js';
import { freePort } from '../../helpers/net.js';
import { bigMessage, invoiceMessage, manyAttachmentsMessage } from '../../helpers/mail-fixtures.js';
import {
  ImapConnectorError,
  MessageUnavailableError,
  openMailbox,
  type ImapMailboxConfig,
  type ImapMailboxSession,
  type NewMailEvent,
} from '../../../src/modules/integrations/mailbox/imap/index.js';
import { selectParts } from '../../../src/modules/documents/message-parts/index.js';

const USERS = ['flow', 'move', 'flags', 'since', 'age', 'gone', 'idle', 'uidv', 'restart', 'errors', 'big'];
let dovecot: PrivateDovecot;
const open: ImapMailboxSession[] = [];

beforeAll(async () => {
  const t0 = performance.now();
  dovecot = await startDovecot({ users: USERS.map((user) => ({ user, pass: `pw-${user}` })) });
  console.info(`dovecot started in ${(performance.now() - t0).toFixed(0)} ms`);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  const t0 = performance.now();
  await dovecot?.stop();
  console.info(`dovecot stopped in ${(performance.now() - t0).toFixed(0)} ms`);
});

function cfgFor(user: string, extra: Partial<ImapMailboxConfig> = {}): ImapMailboxConfig {
  return { host: dovecot.host, port: dovecot.port, security: 'none', username: user, password: `pw-${user}`, ...extra };
}

async function session(user: string, extra: Partial<ImapMailboxConfig> = {}, opts = {}): Promise<ImapMailboxSession> {
  const s = await openMailbox(cfgFor(user, extra), { autoIdleDelayMs: 50, ...opts });
  open.push(s);
  return s;
}

/** Rejects instead of hanging when an expected event never comes. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`timed out waiting for ${what}`)), ms)),
  ]);
}

describe('openMailbox', () => {
  it('lists, downloads byte-identical raw mail, and the rules select its files', async () => {
    const raw = invoiceMessage({ messageId: 'flow-1@test' });
    const uid = await dovecot.appendMessage('flow', 'INBOX', raw);
    const s = await session('flow');
    expect(s.folder).toBe('INBOX');
    expect(s.uidValidity).toBe(String(await dovecot.uidValidity('flow', 'INBOX')));
    expect(await s.listUids()).toEqual([uid]);

    const fetched = await s.fetchRaw(uid!);
    expect(fetched.equals(raw)).toBe(true);
    const parsed = await simpleParser(fetched);
    expect(parsed.messageId).toBe('<flow-1@test>');
    expect(selectParts(parsed, {}).accepted.map((a) => a.filename)).toEqual(['invoice-2024-001.pdf', 'notes.txt']);
    // Downloading must not mark the message read: that is an after-processing choice.
    expect((await dovecot.listFolder('flow', 'INBOX'))[0].flags).not.toContain('\\Seen');
  });

  it('move creates the processed folder on demand and reports the new UID', async () => {
    const a = await dovecot.appendMessage('move', 'INBOX', invoiceMessage({ subject: 'first' }));
    const b = await dovecot.appendMessage('move', 'INBOX', invoiceMessage({ subject: 'second' }));
    const s = await session('move');
    const newUid = await s.move(a!, 'Processed');
    await s.move(b!, 'Processed');
    expect(await s.listUids()).toEqual([]);
    const target = await dovecot.listFolder('move', 'Processed');
    expect(target.map((m) => m.subject)).toEqual(['first', 'second']);
    expect(target[0].uid).toBe(newUid);
    // A nested target works too (Dovecot's maildir separator is '.').
    const c = await dovecot.appendMessage('move', 'INBOX', invoiceMessage({ subject: 'third' }));
    // A session only acts on UIDs it has seen; the poller always lists before acting.
    expect(await s.listUids()).toEqual([c]);
    await s.move(c!, 'Processed.2024');
    expect((await dovecot.listFolder('move', 'Processed.2024')).map((m) => m.subject)).toEqual(['third']);
  });

  it('markSeen, flag and delete each touch exactly one UID', async () => {
    const uids: number[] = [];
    for (const subject of ['a', 'b', 'c', 'd'])
      uids.push((await dovecot.appendMessage('flags', 'INBOX', invoiceMessage({ subject })))!);
    const s = await session('flags');
    await s.markSeen(uids[0]);
    await s.flag(uids[1]);
    await s.delete(uids[2]);
    const list = await dovecot.listFolder('flags', 'INBOX');
    const bySubject = Object.fromEntries(list.map((m) => [m.subject, m.flags.filter((f) => f !== '\\Recent')]));
    expect(bySubject).toEqual({ a: ['\\Seen'], b: ['\\Flagged'], d: [] });
    expect(await s.listUids()).toEqual([uids[0], uids[1], uids[3]]);
    const meta = await s.fetchMeta(uids[0]);
    expect(meta).toMatchObject({ uid: uids[0] });
    expect(meta!.flags).toContain('\\Seen');
    expect(meta!.internalDate).toBeInstanceOf(Date);
    expect(meta!.size).toBeGreaterThan(500);
  });

  it('listUids(sinceUid) returns only newer UIDs, also when sinceUid is the highest', async () => {
    const uids: number[] = [];
    for (let i = 0; i < 3; i++) uids.push((await dovecot.appendMessage('since', 'INBOX', invoiceMessage()))!);
    const s = await session('since');
    expect(await s.listUids(uids[0])).toEqual(uids.slice(1));
    // IMAP "n:*" with n above the highest UID still matches the highest message.
    expect(await s.listUids(uids[2])).toEqual([]);
    expect(await s.listUids(uids[2] + 100)).toEqual([]);
  });

  it('maxAgeDays limits the listing by internal (arrival) date', async () => {
    const dayMs = 86_400_000;
    await dovecot.appendMessage(
      'age',
      'INBOX',
      invoiceMessage({ subject: 'old' }),
      [],
      new Date(Date.now() - 40 * dayMs),
    );
    const fresh = await dovecot.appendMessage(
      'age',
      'INBOX',
      invoiceMessage({ subject: 'new' }),
      [],
      new Date(Date.now() - 2 * dayMs),
    );
    expect(await (await session('age', { maxAgeDays: 30 })).listUids()).toEqual([fresh]);
    expect(await (await session('age')).listUids()).toHaveLength(2);
  });

  it('vanished and oversized messages raise MessageUnavailableError; actions on vanished UIDs are no-ops', async () => {
    const uid = (await dovecot.appendMessage('gone', 'INBOX', invoiceMessage()))!;
    const s = await session('gone', {}, { maxMessageBytes: 200 });
    await expect(s.fetchRaw(uid)).rejects.toMatchObject({ name: 'MessageUnavailableError', reason: 'too_large' });
    await expect(s.fetchRaw(uid + 50)).rejects.toBeInstanceOf(MessageUnavailableError);
    await expect(s.fetchRaw(uid + 50)).rejects.toMatchObject({ reason: 'not_found' });
    expect(await s.fetchMeta(uid + 50)).toBeNull();
    // Retried actions after a crash must not fail just because the first attempt succeeded.
    await s.move(uid, 'Done');
    await expect(s.move(uid, 'Done')).resolves.toBeUndefined();
    await expect(s.markSeen(uid)).resolves.toBeUndefined();
    await expect(s.delete(uid)).resolves.toBeUndefined();
    expect(await dovecot.listFolder('gone', 'Done')).toHaveLength(1);
  });

  it('onNewMail fires after an APPEND while the session idles', async () => {
    const s = await session('idle');
    await s.listUids();
    await new Promise((r) => setTimeout(r, 150)); // past autoIdleDelay: IDLE is running
    const events: NewMailEvent[] = [];
    const arrived = new Promise<number>((resolve) =>
      s.onNewMail((e) => {
        events.push(e);
        resolve(performance.now());
      }),
    );
    const t0 = performance.now();
    const uid = await dovecot.appendMessage('idle', 'INBOX', invoiceMessage({ subject: 'pushed' }));
    const t1 = performance.now();
    const at = await within(arrived, 10_000, 'IDLE EXISTS');
    console.info(
      `IDLE pick-up: ${(at - t0).toFixed(0)} ms after APPEND started, ${(at - t1).toFixed(0)} ms after it completed`,
    );
    expect(events[0]).toMatchObject({ folder: 'INBOX', count: 1, prevCount: 0 });
    expect(await s.listUids()).toEqual([uid]);
  });

  it('a UIDVALIDITY change drops the open session and a new one sees the new value', async () => {
    const uid = await dovecot.appendMessage('uidv', 'INBOX', invoiceMessage());
    const s = await session('uidv');
    const before = s.uidValidity;
    const closed = new Promise<void>((resolve) => s.onClose(resolve));
    const forced = await dovecot.setUidValidity('uidv', 'INBOX');
    await s.listUids().catch(() => undefined); // nudges the server to notice
    await within(closed, 10_000, 'session close');
    await expect(s.listUids()).rejects.toMatchObject({ name: 'ImapConnectorError', stage: 'connect' });

    const again = await session('uidv');
    expect(again.uidValidity).toBe(String(forced));
    expect(again.uidValidity).not.toBe(before);
    expect(await again.listUids()).toEqual([uid]);
  });

  it('survives a server crash and restart: old session closes, a new one works', async () => {
    await dovecot.appendMessage('restart', 'INBOX', invoiceMessage({ subject: 'before crash' }));
    const s = await session('restart');
    const closed = new Promise<void>((resolve) => s.onClose(resolve));
    const t0 = performance.now();
    await dovecot.restart();
    console.info(`dovecot kill + restart took ${(performance.now() - t0).toFixed(0)} ms`);
    await within(closed, 10_000, 'session close');
    expect(s.closed).toBe(true);
    await expect(s.markSeen(1)).rejects.toBeInstanceOf(ImapConnectorError);

    const fresh = await session('restart');
    const uids = await fresh.listUids();
    expect(uids).toHaveLength(1);
    expect((await simpleParser(await fresh.fetchRaw(uids[0]))).subject).toBe('before crash');
  });

  it('open failures carry the stage', async () => {
    await expect(openMailbox({ ...cfgFor('errors'), password: 'nope' })).rejects.toMatchObject({ stage: 'auth' });
    await expect(openMailbox(cfgFor('errors', { folder: 'Missing' }))).rejects.toMatchObject({ stage: 'folder' });
    await expect(openMailbox(cfgFor('errors', { port: await freePort() }))).rejects.toMatchObject({
      stage: 'connect',
      code: 'ECONNREFUSED',
    });
  });

  it('a server that accepts TCP but never greets fails within the open timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((sock) => sockets.push(sock.on('error', () => undefined)));
    const port = await freePort();
    await new Promise<void>((r) => silent.listen(port, '127.0.0.1', r));
    try {
      await expect(
        openMailbox(cfgFor('errors', { port }), { connectTimeoutMs: 20_000, openTimeoutMs: 300 }),
      ).rejects.toMatchObject({ name: 'ImapConnectorError', stage: 'connect' });
    } finally {
      sockets.forEach((x) => x.destroy());
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('close() is not reported as a lost connection', async () => {
    const s = await openMailbox(cfgFor('errors'), { autoIdleDelayMs: 50 });
    let lost = 0;
    s.onClose(() => lost++);
    await s.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(s.closed).toBe(true);
    expect(lost).toBe(0);
    await expect(s.listUids()).rejects.toMatchObject({ stage: 'connect' });
  });

  it('handles a 6 MB message and a 50-attachment message end to end', async () => {
    const big = bigMessage(6 * 1024 * 1024);
    const many = manyAttachmentsMessage(50);
    const u1 = (await dovecot.appendMessage('big', 'INBOX', big))!;
    const u2 = (await dovecot.appendMessage('big', 'INBOX', many))!;
    const s = await session('big');
    expect((await s.fetchRaw(u1)).equals(big)).toBe(true);
    const parsed = await simpleParser(await s.fetchRaw(u2));
    const sel = selectParts(parsed, { attachmentInclude: '*.pdf' });
    expect(sel.accepted).toHaveLength(40);
    expect(sel.skipped.filter((x) => x.reason === 'not_included_by_filter')).toHaveLength(10);
  });
});
