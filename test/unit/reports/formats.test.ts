import { PassThrough, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvCell, csvStream, jsonStream, xlsxStream } from '../../../src/modules/reports/output/formats.js';
import { ResultWriter, readResult } from '../../../src/modules/reports/output/result-file.js';

async function collect(s: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(parts);
}

/** A stored result with two sections and awkward values. */
async function sample(rows = 3): Promise<Buffer> {
  const gzip = createGzip();
  const out = collect(gzip);
  const w = new ResultWriter(gzip);
  await w.section({
    name: 'docs',
    title: 'Documents: all/any?',
    columns: [
      { key: 'id', label: 'Id', type: 'string' },
      { key: 'when', label: 'When', type: 'datetime' },
      { key: 'amount', label: 'Amount', type: 'number' },
      { key: 'note', label: 'Note', type: 'json' },
    ],
  });
  const notes = [
    'plain',
    'comma, "quoted"\nnew line',
    '=HYPERLINK("http://x")',
    '-5',
    '+1+2',
    '@SUM(1)',
    'Grüße 😀',
    { a: [1, 2] },
    null,
  ];
  for (let i = 0; i < rows; i++)
    await w.row([`d${i}`, '2026-03-01T08:00:00.000Z', i === 1 ? -12.5 : i, notes[i % notes.length]]);
  await w.section({ name: 'totals', title: 'Totals', columns: [{ key: 'n', label: 'N', type: 'integer' }] });
  await w.rawRows(['[1]', '[2]']);
  expect(await w.finish()).toMatchObject({
    rowCount: rows + 2,
    sections: [
      { name: 'docs', rows },
      { name: 'totals', rows: 2 },
    ],
  });
  return out;
}

describe('result files and download formats', () => {
  it('neutralises spreadsheet formulas in CSV text but keeps numbers', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ x: 1 })).toBe('"{""x"":1}"');
  });

  it('CSV of one section parses back with a CSV parser', async () => {
    const stored = await sample(9);
    const csv = (await collect(csvStream(readResult(Readable.from([stored]), 'docs')))).toString('utf8');
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(9);
    expect(records[1]).toEqual({
      id: 'd1',
      when: '2026-03-01T08:00:00.000Z',
      amount: '-12.5',
      note: 'comma, "quoted"\nnew line',
    });
    expect(records.map((r) => r.note).slice(2)).toEqual([
      '\'=HYPERLINK("http://x")',
      '-5',
      "'+1+2",
      "'@SUM(1)",
      'Grüße 😀',
      '{"a":[1,2]}',
      '',
    ]);
    const totals = parse((await collect(csvStream(readResult(Readable.from([stored]), 'totals')))).toString('utf8'), {
      columns: true,
    });
    expect(totals).toEqual([{ n: '1' }, { n: '2' }]);
  });

  it('JSON carries the head and every section with rows as objects', async () => {
    const stored = await sample(3);
    const doc = JSON.parse(
      (
        await collect(jsonStream({ report: { id: 'rpt_1' }, summary: { n: 1 } }, readResult(Readable.from([stored]))))
      ).toString('utf8'),
    );
    expect(doc.report).toEqual({ id: 'rpt_1' });
    expect(doc.sections.map((s: { name: string }) => s.name)).toEqual(['docs', 'totals']);
    expect(doc.sections[0].rows[2]).toEqual({
      id: 'd2',
      when: '2026-03-01T08:00:00.000Z',
      amount: 2,
      note: '=HYPERLINK("http://x")',
    });
    expect(doc.sections[1].rows).toEqual([{ n: 1 }, { n: 2 }]);
    const empty = JSON.parse(
      (
        await collect(
          jsonStream(
            {},
            (async function* () {
              /* nothing */
            })(),
          ),
        )
      ).toString('utf8'),
    );
    expect(empty).toEqual({ sections: [] });
  });

  it('XLSX has a worksheet per section and reads back with exceljs', async () => {
    const stored = await sample(9);
    const file = await collect(
      xlsxStream(readResult(Readable.from([stored])), (err) => {
        throw err;
      }),
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Documents all any', 'Totals']);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, 'id', 'when', 'amount', 'note']);
    expect(ws.rowCount).toBe(10);
    const r2 = ws.getRow(3);
    expect(r2.getCell(1).value).toBe('d1');
    expect((r2.getCell(2).value as Date).toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(r2.getCell(3).value).toBe(-12.5);
    // text that looks like a formula stays text
    expect(ws.getRow(4).getCell(4).value).toBe('=HYPERLINK("http://x")');
    expect(ws.getRow(9).getCell(4).value).toBe('{"a":[1,2]}');
    expect(wb.worksheets[1].getRow(3).getCell(1).value).toBe(2);
  });

  it('a reader stops cleanly when the stored file is cut short', async () => {
    const stored = await sample(3);
    const cut = stored.subarray(0, stored.length - 10);
    await expect(collect(csvStream(readResult(Readable.from([cut]))))).rejects.toThrow();
    const broken = new PassThrough();
    broken.destroy(new Error('disk gone'));
    await expect(collect(csvStream(readResult(broken)))).rejects.toThrow(/disk gone/);
  });
});
