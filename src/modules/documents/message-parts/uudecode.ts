// mailparser leaves Content-Transfer-Encoding x-uuencode parts (old Netscape/Eudora/PINE mail)
// undecoded, so the "PNG" would reach type sniffing as uuencoded text. This decodes them.

const UU_ENCODINGS = new Set(['x-uuencode', 'uuencode', 'x-uue', 'uue']);

/** True for the transfer encodings that mean uuencode. */
export function isUuencodedTransfer(cte: unknown): boolean {
  return typeof cte === 'string' && UU_ENCODINGS.has(cte.trim().toLowerCase());
}

/**
 * Decodes a uuencoded block (`begin <mode> <name>` … `end`). Returns null when the text has
 * no `begin` line, so callers can keep the original bytes. Tolerates CRLF, trailing spaces
 * and the `` ` `` / space variants for zero.
 */
export function uudecode(input: Buffer): { name: string; data: Buffer } | null {
  const lines = input.toString('latin1').split(/\r?\n/);
  const start = lines.findIndex((l) => /^begin [0-7]{3,4} /.test(l));
  if (start === -1) return null;
  const name = lines[start].replace(/^begin [0-7]{3,4} /, '').trim();
  const out: number[] = [];
  const val = (ch: string): number => (ch.charCodeAt(0) - 32) & 0x3f;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i].replace(/\s+$/, '');
    if (line === 'end') break;
    if (line.length === 0) continue;
    const n = val(line[0]);
    if (n === 0) continue;
    const chars = line.slice(1).padEnd(Math.ceil(n / 3) * 4, '`');
    const bytes: number[] = [];
    for (let j = 0; j + 3 < chars.length && bytes.length < n; j += 4) {
      const [a, b, c, d] = [val(chars[j]), val(chars[j + 1]), val(chars[j + 2]), val(chars[j + 3])];
      bytes.push(((a << 2) | (b >> 4)) & 0xff, ((b << 4) | (c >> 2)) & 0xff, ((c << 6) | d) & 0xff);
    }
    out.push(...bytes.slice(0, n));
  }
  return { name, data: Buffer.from(out) };
}
