// The test MIME writer must itself be right, or every mail test proves nothing.
import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import {
  attachmentPart,
  base64Lines,
  bigMessage,
  buildMessage,
  encodeHeaderText,
  encodeWindows1252,
  multipart,
  pseudoRandomBytes,
  quotedPrintable,
  textPart,
  tinyPdf,
} from '../../helpers/mail-fixtures.js';

describe('MIME builder', () => {
  it('base64 lines are at most 76 characters and round-trip', () => {
    const data = pseudoRandomBytes(10_000);
    const text = base64Lines(data);
    const lines = text.split('\r\n');
    expect(lines.every((l) => l.length <= 76)).toBe(true);
    expect(lines.slice(0, -1).every((l) => l.length === 76)).toBe(true);
    expect(Buffer.from(lines.join(''), 'base64').equals(data)).toBe(true);
  });

  it('quoted-printable keeps lines short and survives a parser round trip', async () => {
    const body = 'Grüße — ' + 'x'.repeat(200) + ' = end \r\nsecond line\t\r\n';
    expect(
      quotedPrintable(Buffer.from(body))
        .split('\r\n')
        .every((l) => l.length <= 76),
    ).toBe(true);
    const parsed = await simpleParser(buildMessage({ body: textPart(body) }));
    expect(parsed.text).toBe(body.replace(/\r\n/g, '\n'));
  });

  it('messages use CRLF only and lines stay within 998 octets', () => {
    const raw = buildMessage({
      subject: 'ü'.repeat(100),
      body: multipart('mixed', [
        textPart('a'),
        attachmentPart({ filename: 'f.pdf', contentType: 'application/pdf', content: tinyPdf() }),
      ]),
    });
    const text = raw.toString('latin1');
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text.split('\r\n').every((l) => l.length <= 998)).toBe(true);
  });

  it('long non-ASCII subjects fold into several encoded words that decode back', async () => {
    const subject = 'Rechnung für Bürobedarf — Übersicht ' + 'ä'.repeat(40);
    const header = encodeHeaderText(subject);
    expect(header.split('\r\n ').length).toBeGreaterThan(1);
    expect(header.split('\r\n ').every((w) => w.length <= 75)).toBe(true);
    expect((await simpleParser(buildMessage({ subject, body: textPart('x') }))).subject).toBe(subject);
  });

  it('RFC 2231 and RFC 2047 filenames both decode', async () => {
    for (const filenameStyle of ['rfc2231', 'rfc2047'] as const) {
      const raw = buildMessage({
        body: multipart('mixed', [
          textPart('x'),
          attachmentPart({
            filename: 'Über (1)*.pdf',
            contentType: 'application/pdf',
            content: tinyPdf(),
            filenameStyle,
          }),
        ]),
      });
      expect((await simpleParser(raw)).attachments[0].filename).toBe('Über (1)*.pdf');
    }
  });

  it('windows-1252 maps the 0x80–0x9F punctuation', () => {
    expect([...encodeWindows1252('€“”–ä')]).toEqual([0x80, 0x93, 0x94, 0x96, 0xe4]);
  });

  it('tinyPdf has a correct xref table', () => {
    const pdf = tinyPdf().toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((o, i) => expect(pdf.slice(o).startsWith(`${i + 1} 0 obj`)).toBe(true));
  });

  it('bigMessage lands within 1 KiB of the requested size and parses', async () => {
    for (const size of [200_000, 3_000_000]) {
      const raw = bigMessage(size);
      expect(Math.abs(raw.length - size)).toBeLessThan(1024);
    }
    const parsed = await simpleParser(bigMessage(300_000));
    expect(parsed.attachments[0].filename).toBe('blob.bin');
    expect(parsed.attachments[0].size).toBeGreaterThan(200_000);
  });
});
