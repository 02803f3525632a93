// A long PDF whose every page carries a few lines of real text, written directly (pdf-lib needs
// seconds for hundreds of pages). Unlike a page holding only "Page N", these pages have enough
// text that the parser never sends them to OCR: reading it costs a few milliseconds per page,
// which makes a parse stage that lasts seconds, for crash tests.

/** A valid PDF of `pages` pages, each with `linesPerPage` lines of text (default 4). */
export function makeLongTextPdf(pages: number, linesPerPage = 4): Buffer {
  const chunks: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = chunks[0].length;
  const add = (num: number, body: string): void => {
    offsets[num] = length;
    const s = `${num} 0 obj\n${body}\nendobj\n`;
    chunks.push(s);
    length += Buffer.byteLength(s, 'latin1');
  };
  const first = 4; // page i is object first + 2i, its content stream the next one
  add(1, '<< /Type /Catalog /Pages 2 0 R >>');
  add(
    2,
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${first + 2 * i} 0 R`).join(' ')}] /Count ${pages} >>`,
  );
  add(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const obj = first + 2 * i;
    add(
      obj,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Resources << /Font << /F1 3 0 R >> >> /Contents ${obj + 1} 0 R >>`,
    );
    const lines = Array.from(
      { length: linesPerPage },
      (_, l) => `(Archive listing page ${i + 1} line ${l + 1} of the quarterly ledger) Tj`,
    );
    const content = `BT /F1 10 Tf 20 260 Td 14 TL ${lines.join(' T* ')} ET`;
    add(obj + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  const size = first + 2 * pages;
  chunks.push(`xref\n0 ${size}\n`, '0000000000 65535 f \n');
  for (let i = 1; i < size; i++) chunks.push(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  chunks.push(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(chunks.join(''), 'latin1');
}
