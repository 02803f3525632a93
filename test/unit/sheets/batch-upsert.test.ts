import { describe, expect, it } from 'vitest';
import {
  planAppendBatch,
  rowNumbersFor,
  type PendingRow,
} from '../../../src/modules/integrations/sheets/mapping/batch.js';
import { findRowByDocumentId, indexRowsByDocumentId } from '../../../src/modules/integrations/sheets/mapping/upsert.js';

const rows = (n: number, width = 3): PendingRow[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `doc_${i}`,
    cells: Array.from({ length: width }, (_, j) => (j === 0 ? `doc_${i}` : j)),
  }));

describe('planAppendBatch', () => {
  it('keeps everything in one chunk under the limits, in order', () => {
    const chunks = planAppendBatch(rows(100));
    expect(chunks).toHaveLength(1);
    expect(chunks[0].keys).toEqual(rows(100).map((r) => r.key));
    expect(chunks[0].rows[42]).toEqual(['doc_42', 1, 2]);
  });

  it('splits by row count', () => {
    const chunks = planAppendBatch(rows(2500));
    expect(chunks.map((c) => c.rows.length)).toEqual([1000, 1000, 500]);
    expect(chunks[1].keys[0]).toBe('doc_1000');
  });

  it('splits by payload size, and an oversized row still gets its own chunk', () => {
    const big = (key: string, chars: number): PendingRow => ({ key, cells: [key, 'x'.repeat(chars)] });
    const chunks = planAppendBatch([big('a', 600), big('b', 600), big('c', 5000), big('d', 10)], { maxBytes: 1500 });
    expect(chunks.map((c) => c.keys)).toEqual([['a', 'b'], ['c'], ['d']]);
  });

  it('drops repeated keys (first wins) and rejects a silly maxRows', () => {
    const chunks = planAppendBatch([
      { key: 'a', cells: [1] },
      { key: 'b', cells: [2] },
      { key: 'a', cells: [3] },
    ]);
    expect(chunks).toEqual([{ keys: ['a', 'b'], rows: [[1], [2]] }]);
    expect(planAppendBatch([])).toEqual([]);
    expect(() => planAppendBatch(rows(1), { maxRows: 0 })).toThrow(RangeError);
  });

  it('maps an append result back to row numbers and refuses a mismatched span', () => {
    const [chunk] = planAppendBatch(rows(3));
    expect([...rowNumbersFor(chunk, { firstRow: 10, lastRow: 12 })]).toEqual([
      ['doc_0', 10],
      ['doc_1', 11],
      ['doc_2', 12],
    ]);
    expect(() => rowNumbersFor(chunk, { firstRow: 10, lastRow: 11 })).toThrow(/2 rows for a chunk of 3/);
  });
});

describe('upsert row lookup', () => {
  const values = [['Document ID', 'Total'], ['doc_a', '10'], [], [' doc_b ', '20'], ['doc_a', '30'], ['', 'orphan']];

  it('indexes data rows by id with sheet row numbers; first duplicate wins; header skipped', () => {
    expect([...indexRowsByDocumentId(values, 0)]).toEqual([
      ['doc_a', 2],
      ['doc_b', 4],
    ]);
    expect(findRowByDocumentId(values, 0, 'doc_b')).toBe(4);
    expect(findRowByDocumentId(values, 0, 'Document ID')).toBeNull();
    expect(findRowByDocumentId(values, 0, 'doc_zzz')).toBeNull();
  });

  it('honours where the values started and a different id column', () => {
    const slice = [
      ['x', 'doc_q'],
      ['y', 'doc_r'],
    ];
    expect(findRowByDocumentId(slice, 1, 'doc_r', { firstRow: 50, headerRows: 0 })).toBe(51);
    expect(() => indexRowsByDocumentId(slice, -1)).toThrow(RangeError);
  });
});
