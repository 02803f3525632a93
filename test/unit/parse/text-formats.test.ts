import { describe, expect, it } from 'vitest';
import { parseDocument, ParseError } from '../../../src/pipeline/parse/index.js';
import { htmlToText } from '../../../src/pipeline/parse/html.js';
import { csvToText } from '../../../src/pipeline/parse/csv.js';
import { guessLanguage } from '../../../src/pipeline/parse/language.js';
import { MAX_TEXT_CHARS } from '../../../src/pipeline/parse/convert.js';
import { makeDocx, writeZip } from './fixtures/zip.js';

const parse = (bytes: Buffer, filename?: string) => parseDocument({ bytes, filename, maxPages: 100 }, {});

async function parseError(bytes: Buffer, filename?: string): Promise<ParseError> {
  const err = await parse(bytes, filename).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  return err as ParseError;
}

describe('plain text', () => {
  it('decodes UTF-8 and normalises newlines and trailing spaces', async () => {
    const r = await parse(Buffer.from('Rechnung Nr. 7  \r\nBetrag: 12,50 €\r\n\r\n\r\n\r\nEnde'), 'a.txt');
    expect(r).toMatchObject({ mimeType: 'text/plain', pages: 1, ocrPages: 0 });
    expect(r.text).toBe('Rechnung Nr. 7\nBetrag: 12,50 €\n\nEnde');
  });

  it('trims a line of a million spaces that ends in a letter, in one pass over it', async () => {
    // A backtracking trailing-blank pattern needs n²/2 steps here (about half an hour for a MiB);
    // the file's other lines still lose their trailing blanks and tabs.
    const r = await parse(Buffer.from(`Total 12.00 \t\n${' '.repeat(1 << 20)}x \nend\t`), 'a.txt');
    expect(r.text).toBe(`Total 12.00\n${' '.repeat(1 << 20)}x\nend`);
  });

  it('trims blanks before a Unicode line or paragraph separator and caps runs of combining marks', async () => {
    expect((await parse(Buffer.from('Total \u2028due\t\u2029end'), 'a.txt')).text).toBe('Total\u2028due\u2029end');
    // NFC reorders a long run of marks of mixed classes in quadratic time; 32 are kept.
    const marks = '\u0316\u0301'.repeat(20_000);
    expect((await parse(Buffer.from(`x${marks} y`), 'z.txt')).text).toBe(`x${marks.slice(0, 32).normalize('NFC')} y`);
  });

  it('reads text up to MAX_TEXT_CHARS and fails a longer text as TOO_LARGE rather than cutting it', async () => {
    const line = 'Invoice 12.00\n';
    const fits = line.repeat(Math.floor(MAX_TEXT_CHARS / line.length));
    expect((await parse(Buffer.from(fits), 'a.txt')).text).toBe(fits.trimEnd());
    const err = await parseError(Buffer.from(fits + line.repeat(2)), 'a.txt');
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toMatch(/characters; the limit is 10,000,000/);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', async () => {
    const r = await parse(Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65, 0x20, 0x80, 0x35]));
    expect(r.text).toBe('Grüße €5');
  });

  it('fails an empty or whitespace-only file as EMPTY', async () => {
    expect((await parseError(Buffer.alloc(0))).code).toBe('EMPTY');
    expect((await parseError(Buffer.from(' \n\t \n'))).code).toBe('EMPTY');
  });

  it('fails binary garbage as UNSUPPORTED_TYPE (permanent)', async () => {
    const err = await parseError(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7, 8]), 'notes.txt');
    expect(err.code).toBe('UNSUPPORTED_TYPE');
    expect(err.permanent).toBe(true);
  });

  it('rejects a generic zip as UNSUPPORTED_TYPE', async () => {
    const err = await parseError(writeZip([{ name: 'a.txt', data: 'hello' }]));
    expect(err.code).toBe('UNSUPPORTED_TYPE');
  });
});

describe('CSV', () => {
  it('turns rows into lines with tab-separated cells, honouring quotes', async () => {
    const csv = 'Item,Qty,Price\nApples,3,"1,20"\n"Pears, green",12,"0,80"\n"multi\nline",1,2\n';
    const r = await parse(Buffer.from(csv), 'list.csv');
    expect(r.mimeType).toBe('text/csv');
    expect(r.text.split('\n')).toEqual([
      'Item\tQty\tPrice',
      'Apples\t3\t1,20',
      'Pears, green\t12\t0,80',
      'multi line\t1\t2',
    ]);
  });

  it("joins a cell's lines once, however many blanks surround them or stand alone", () => {
    expect(csvToText(Buffer.from('a,b\n" one \r\n \n\t two\n",3\n'))).toBe('a\tb\none two\t3');
    // A MiB of blanks with no line break after them: n²/2 steps for a backtracking pattern.
    const blanks = ' '.repeat(1 << 20);
    expect(csvToText(Buffer.from(`a,b\n"x${blanks}y",2\n`))).toBe(`a\tb\nx${blanks}y\t2`);
  });

  it('reads a field of blanks followed by quotes in one pass, as the sniffer does', async () => {
    // Trimming the field at every quote cost n² (8.5 s for 64 KiB, in the sniffer too).
    const body = `a,b\n${' '.repeat(1 << 20)}x${'"'.repeat(1 << 16)},y\n`;
    const r = await parse(Buffer.from(body), 'odd.csv');
    expect(r.mimeType).toBe('text/csv');
    expect(r.text).toBe(`a\tb\nx${'"'.repeat(1 << 16)}\ty`);
  });

  it('detects semicolon and tab delimiters', () => {
    expect(csvToText(Buffer.from('a;b;c\n1;2;3\n'))).toBe('a\tb\tc\n1\t2\t3');
    expect(csvToText(Buffer.from('a\tb\n"x ""y"""\t2\n'))).toBe('a\tb\nx "y"\t2');
  });
});

describe('HTML', () => {
  it('drops scripts, styles and comments, decodes entities, puts blocks on lines', () => {
    const html = `<!DOCTYPE html><html><head><title>Invoice &amp; receipt</title>
      <style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
      <body><h1>Invoice&nbsp;42</h1><!-- hidden <p>comment</p> -->
      <p>Total: &euro;&#160;12.50 &mdash; due&#x20;soon</p>
      <div title="a > b">Line one<br>Line two</div>
      <table><tr><th>Item</th><th>Qty</th></tr><tr><td>Apples</td><td>3</td></tr></table>
      <pre>  keep   spacing
  here</pre><p>caf&eacute; &unknown; &lt;tag&gt;</p></body></html>`;
    expect(htmlToText(html)).toBe(
      [
        'Invoice & receipt',
        '',
        'Invoice 42',
        'Total: € 12.50 — due soon',
        'Line one',
        'Line two',
        'Item\tQty',
        'Apples\t3',
        '  keep   spacing',
        '  here',
        'café &unknown; <tag>',
      ].join('\n'),
    );
  });

  it('uses the charset the page declares when the bytes are not UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>Stra'),
      Buffer.from([0xdf]),
      Buffer.from('e</p></body></html>'),
    ]);
    const r = await parse(bytes);
    expect(r).toMatchObject({ mimeType: 'text/html', text: 'Straße' });
  });

  // A quadratic scan of this input would take minutes; the test timeout is the guard.
  it('stays linear on hostile markup (unclosed quotes and tags)', { timeout: 10_000 }, () => {
    const hostile = 'x<a title="'.repeat(20_000) + "<p x='" + '<'.repeat(50_000);
    expect(htmlToText(hostile)).toBe('x');
  });
});

describe('JSON', () => {
  it('pretty-prints so keys and values read as lines', async () => {
    const r = await parse(Buffer.from('{"invoice":{"number":"INV-7","total":12.5}}'));
    expect(r.mimeType).toBe('application/json');
    expect(r.text).toContain('"number": "INV-7"');
    expect(r.text.split('\n').length).toBeGreaterThan(3);
  });

  it('keeps deeply nested JSON as written instead of indenting it into hundreds of megabytes', async () => {
    // Pretty-printed, these 64 KB would be 256 MB of text (indentation grows with the depth).
    const nest = '['.repeat(4000) + ']'.repeat(4000);
    const body = `[${Array.from({ length: 8 }, () => nest).join(',')}]`;
    const r = await parse(Buffer.from(body), 'deep.json');
    expect(r.mimeType).toBe('application/json');
    expect(r.text).toBe(body);
    // Brackets inside strings do not count; twenty levels are still pretty-printed.
    const shallow = JSON.stringify({ a: '[[[[[[[[[[[[[[[[[[[[[[[[[[', b: JSON.parse('['.repeat(19) + ']'.repeat(19)) });
    expect((await parse(Buffer.from(shallow), 'ok.json')).text).toBe(JSON.stringify(JSON.parse(shallow), null, 2));
  });
});

describe('DOCX', () => {
  it('extracts paragraphs with mammoth', async () => {
    const r = await parse(makeDocx(['Invoice 2026-001', 'Total due: 99.00 EUR'], { deflate: true }), 'x.docx');
    expect(r.mimeType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(r.text).toBe('Invoice 2026-001\n\nTotal due: 99.00 EUR');
  });

  it('fails a docx whose document part is broken as CORRUPT', async () => {
    const broken = writeZip([{ name: 'word/document.xml', data: '<w:document><w:body><w:p>' }]);
    const err = await parseError(broken);
    expect(err.code).toBe('CORRUPT');
  });
});

describe('e-mail', () => {
  it('reads headers and the plain body', async () => {
    const mail = [
      'From: Billing <billing@example.com>',
      'To: you@example.org',
      'Subject: Your invoice 42',
      'Date: Tue, 3 Mar 2026 10:00:00 +0000',
      'Message-ID: <abc@example.com>',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Please pay by Friday.',
    ].join('\r\n');
    const r = await parse(Buffer.from(mail));
    expect(r.mimeType).toBe('message/rfc822');
    expect(r.text).toContain('Subject: Your invoice 42');
    expect(r.text).toContain('From: Billing <billing@example.com>');
    expect(r.text).toContain('Please pay by Friday.');
  });
});

describe('guessLanguage', () => {
  it.each([
    ['en', 'Thank you for your order. The invoice is attached and we will ship it with the next delivery.'],
    [
      'de',
      'Vielen Dank für Ihre Bestellung. Die Rechnung ist beigefügt und wir werden sie mit der nächsten Lieferung senden.',
    ],
    ['fr', 'Merci pour votre commande. La facture est jointe et nous vous enverrons les articles dans une semaine.'],
    ['es', 'Gracias por su pedido. La factura está adjunta y los productos se envían con el próximo envío para usted.'],
    [
      'nl',
      'Bedankt voor uw bestelling. De factuur is bijgevoegd en wij zullen het met de volgende levering naar u sturen.',
    ],
  ])('%s', (lang, text) => {
    expect(guessLanguage(text)).toBe(lang);
  });

  it('returns undefined for short or language-less text', () => {
    expect(guessLanguage('INV-42 12.50')).toBeUndefined();
    expect(guessLanguage('1 2 3 4 5 6 7 8 9 10 11 12 13 14 15')).toBeUndefined();
  });
});
