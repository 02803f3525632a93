import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { emlFilename, selectParts, type PartRules } from '../../../src/modules/documents/message-parts/index.js';
import {
  attachmentPart,
  buildMessage,
  CHARSET_EXPECTED,
  charsetMessages,
  edgeCaseMessage,
  inlineImageMessage,
  invoiceMessage,
  manyAttachmentsMessage,
  multipart,
  nestedMessage,
  textPart,
  tinyPdf,
  TINY_PNG,
} from '../../helpers/mail-fixtures.js';

async function select(raw: Buffer, cfg: PartRules = {}) {
  return selectParts(await simpleParser(raw), cfg, { raw });
}
const names = (xs: { filename: string }[]): string[] => xs.map((x) => x.filename);

describe('selectParts', () => {
  it('takes every attachment by default and passes the bytes through untouched', async () => {
    const sel = await select(invoiceMessage());
    expect(names(sel.accepted)).toEqual(['invoice-2024-001.pdf', 'notes.txt']);
    expect(sel.accepted[0]).toMatchObject({
      contentType: 'application/pdf',
      kind: 'attachment',
      size: tinyPdf().length,
    });
    expect(sel.accepted[0].content.equals(tinyPdf())).toBe(true);
    expect(sel.accepted[1].content.toString()).toBe('Payment due in 30 days.\n');
    expect(sel.skipped).toEqual([]);
  });

  it('skips images embedded in the HTML unless include_inline', async () => {
    const raw = inlineImageMessage();
    const off = await select(raw);
    expect(names(off.accepted)).toEqual(['statement.pdf']);
    expect(off.skipped).toEqual([
      { filename: 'logo.png', reason: 'inline', contentType: 'image/png', size: TINY_PNG.length },
    ]);
    const on = await select(raw, { includeInline: true });
    expect(names(on.accepted)).toEqual(['logo.png', 'statement.pdf']);
    expect(on.skipped).toEqual([]);
  });

  it('keeps a named inline image outside multipart/related (phone photo of a receipt)', async () => {
    const raw = buildMessage({
      body: multipart('mixed', [
        textPart('receipt photo'),
        attachmentPart({
          filename: 'IMG_0042.png',
          contentType: 'image/png',
          content: TINY_PNG,
          disposition: 'inline',
        }),
      ]),
    });
    expect(names((await select(raw)).accepted)).toEqual(['IMG_0042.png']);
  });

  it('walks nested multiparts; a forwarded message is one .eml file', async () => {
    const sel = await select(nestedMessage());
    expect(names(sel.accepted)).toEqual(['report.pdf', 'forwarded.eml']);
    expect(sel.accepted[1].contentType).toBe('message/rfc822');
    expect((await simpleParser(sel.accepted[1].content)).attachments.map((a) => a.filename)).toEqual(['inner.pdf']);
    expect(sel.skipped).toEqual([expect.objectContaining({ reason: 'inline', filename: 'attachment-1.png' })]);
  });

  it('names unnamed parts, records empty files and signatures, keeps inline PDFs, strips paths', async () => {
    const sel = await select(edgeCaseMessage());
    expect(names(sel.accepted)).toEqual(['attachment-1.pdf', 'scan.pdf', 'passwd', 'Überweisung €.pdf']);
    expect(sel.skipped.map((s) => [s.filename, s.reason])).toEqual([
      ['empty.pdf', 'empty'],
      ['smime.p7s', 'signature'],
    ]);
  });

  it('include and exclude globs, each with its own reason', async () => {
    const raw = invoiceMessage();
    const inc = await select(raw, { attachmentInclude: ['*.pdf'] });
    expect(names(inc.accepted)).toEqual(['invoice-2024-001.pdf']);
    expect(inc.skipped.map((s) => [s.filename, s.reason])).toEqual([['notes.txt', 'not_included_by_filter']]);
    const exc = await select(raw, { attachmentExclude: 'NOTES.*' });
    expect(names(exc.accepted)).toEqual(['invoice-2024-001.pdf']);
    expect(exc.skipped.map((s) => [s.filename, s.reason])).toEqual([['notes.txt', 'excluded_by_filter']]);
    const both = await select(raw, { attachmentInclude: '*.pdf, *.txt', attachmentExclude: 'invoice-*' });
    expect(names(both.accepted)).toEqual(['notes.txt']);
  });

  it('consume=eml yields only the raw message, named after the subject; filters do not apply to it', async () => {
    const raw = invoiceMessage({ subject: 'Invoice 2024/001: ACME' });
    const sel = await select(raw, { consume: 'eml', attachmentInclude: '*.pdf' });
    expect(sel.accepted).toHaveLength(1);
    expect(sel.accepted[0]).toMatchObject({
      filename: 'Invoice 2024-001_ ACME.eml',
      contentType: 'message/rfc822',
      kind: 'eml',
      size: raw.length,
    });
    expect(sel.accepted[0].content).toBe(raw);
    expect(sel.skipped).toEqual([]);
  });

  it('consume=both yields the .eml first, then the attachments', async () => {
    const sel = await select(invoiceMessage({ subject: 'notes' }), { consume: 'both' });
    expect(names(sel.accepted)).toEqual(['notes.eml', 'invoice-2024-001.pdf', 'notes.txt']);
  });

  it('eml name falls back to the Message-ID, then to "message"', () => {
    expect(emlFilename({ subject: '', messageId: '<abc.123@mx.example>' })).toBe('abc.123_mx.example.eml');
    expect(emlFilename({ subject: undefined, messageId: undefined })).toBe('message.eml');
    expect(emlFilename({ subject: '../../x', messageId: undefined })).toBe('-..-x.eml');
  });

  it('consume=eml without the raw bytes is a programming error', async () => {
    const parsed = await simpleParser(invoiceMessage());
    expect(() => selectParts(parsed, { consume: 'eml' })).toThrow(/raw message bytes/);
  });

  it('50 attachments: all accepted; a part limit and a size limit skip with reasons', async () => {
    const raw = manyAttachmentsMessage(50);
    const all = await select(raw);
    expect(all.accepted).toHaveLength(50);
    expect(new Set(names(all.accepted)).size).toBe(50);
    const limited = await select(raw, { maxPartsPerMessage: 10 });
    expect(limited.accepted).toHaveLength(10);
    expect(limited.skipped.filter((s) => s.reason === 'too_many')).toHaveLength(40);
    const small = await select(raw, { maxAttachmentBytes: 100 });
    expect(names(small.accepted)).toHaveLength(10); // the .txt files
    expect(small.skipped.every((s) => s.reason === 'too_large')).toBe(true);
  });

  it('duplicate filenames become unique', async () => {
    const pdf = (): ReturnType<typeof attachmentPart> =>
      attachmentPart({ filename: 'scan.pdf', contentType: 'application/pdf', content: tinyPdf() });
    const sel = await select(buildMessage({ body: multipart('mixed', [textPart('x'), pdf(), pdf(), pdf()]) }));
    expect(names(sel.accepted)).toEqual(['scan.pdf', 'scan (2).pdf', 'scan (3).pdf']);
  });

  it('decodes subjects and filenames in iso-8859-1, windows-1252 and Shift_JIS', async () => {
    const msgs = charsetMessages();
    for (const key of ['latin1', 'cp1252', 'shiftJis'] as const) {
      const parsed = await simpleParser(msgs[key]);
      expect(parsed.subject).toBe(CHARSET_EXPECTED[key].subject);
      const sel = selectParts(parsed, { consume: 'both' }, { raw: msgs[key] });
      expect(names(sel.accepted)).toEqual([
        `${CHARSET_EXPECTED[key].subject.replace(/[\\/]/g, '-')}.eml`,
        CHARSET_EXPECTED[key].filename,
      ]);
    }
  });
});
