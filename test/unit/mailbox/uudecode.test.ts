import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { selectParts, uudecode } from '../../../src/modules/documents/message-parts/index.js';
import { buildMessage, multipart, pseudoRandomBytes, textPart, TINY_PNG } from '../../helpers/mail-fixtures.js';

// Reference encoder (test-only) so decoding is checked against independent output.
function uuencode(data: Buffer, name: string, zero = '`'): string {
  const enc = (v: number): string => (v === 0 ? zero : String.fromCharCode(v + 32));
  const lines = [`begin 644 ${name}`];
  for (let i = 0; i < data.length; i += 45) {
    const chunk = data.subarray(i, i + 45);
    let line = enc(chunk.length);
    for (let j = 0; j < chunk.length; j += 3) {
      const [a, b, c] = [chunk[j], chunk[j + 1] ?? 0, chunk[j + 2] ?? 0];
      line += enc(a >> 2) + enc(((a << 4) | (b >> 4)) & 63) + enc(((b << 2) | (c >> 6)) & 63) + enc(c & 63);
    }
    lines.push(line);
  }
  lines.push(enc(0), 'end', '');
  return lines.join('\r\n');
}

describe('uudecode', () => {
  it.each([0, 1, 2, 3, 44, 45, 46, 1000])('round-trips %i bytes', (n) => {
    const data = pseudoRandomBytes(n, n + 1);
    expect(uudecode(Buffer.from(uuencode(data, 'f.bin')))).toEqual({ name: 'f.bin', data });
    expect(uudecode(Buffer.from(uuencode(data, 'f.bin', ' ')))?.data.equals(data)).toBe(true);
  });
  it('returns null without a begin line', () => {
    expect(uudecode(Buffer.from('hello\r\nworld'))).toBeNull();
  });
  it('selectParts decodes an x-uuencode part so the bytes are the real file', async () => {
    const raw = buildMessage({
      body: multipart('mixed', [
        textPart('old client'),
        {
          kind: 'leaf',
          headers: [
            ['Content-Type', 'image/png'],
            ['Content-Transfer-Encoding', 'x-uuencode'],
            ['Content-Disposition', 'attachment'],
          ],
          body: Buffer.from(uuencode(TINY_PNG, 'dot.png')),
        },
      ]),
    });
    const sel = selectParts(await simpleParser(raw), {});
    expect(sel.accepted).toHaveLength(1);
    expect(sel.accepted[0].filename).toBe('dot.png'); // name from the begin line when the header has none
    expect(sel.accepted[0].content.equals(TINY_PNG)).toBe(true);
    expect(sel.accepted[0].size).toBe(TINY_PNG.length);
  });
});
