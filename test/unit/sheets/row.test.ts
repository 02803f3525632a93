import { describe, expect, it } from 'vitest';
import {
  buildRow,
  headerMatches,
  headerRow,
  type ColumnMapping,
} from '../../../src/modules/integrations/sheets/mapping/row.js';

const columns: ColumnMapping[] = [
  { header: 'Document ID', field: 'document.id' },
  { header: 'Type', field: 'classification.type' },
  { header: 'Confidence', field: 'classification.confidence' },
  { header: 'Created', field: 'document.created_at' },
  { header: 'Total', field: 'fields.total' },
  { header: 'Items', field: 'fields.line_items' },
  { header: 'Missing', field: 'fields.nope' },
];

describe('buildRow', () => {
  it('resolves and types every column in order', () => {
    const row = buildRow(columns, {
      document: { id: 'doc_1', created_at: '2024-05-01T10:00:00Z' },
      classification: { type: 'invoice', confidence: 0.87 },
      fields: { total: { value: 99.5, confidence: 0.9, method: 'regex' }, line_items: [{ d: 'W', a: 1 }] },
    });
    expect(row).toEqual(["'doc_1", "'invoice", 0.87, '2024-05-01', 99.5, `'[{"d":"W","a":1}]`, '']);
  });

  it('header row is literal text', () => {
    expect(
      headerRow([
        { header: '=SUM(A:A)', field: 'document.id' },
        { header: 'Total', field: 'fields.total' },
      ]),
    ).toEqual(["'=SUM(A:A)", "'Total"]);
  });
});

describe('headerMatches', () => {
  const headers = columns.map((c) => c.header);
  it('ok for an exact header, ignoring case, spacing and extra columns on the right', () => {
    expect(headerMatches(headers, columns)).toEqual({ ok: true });
    expect(
      headerMatches(
        headers.map((h) => `  ${h.toUpperCase().replace(' ', '   ')} `),
        columns,
      ),
    ).toEqual({ ok: true });
    expect(headerMatches([...headers, 'Notes', 'Reviewer'], columns)).toEqual({ ok: true });
  });

  it('reports an empty sheet separately from a mismatch', () => {
    for (const empty of [undefined, null, [], ['', '  ']]) {
      expect(headerMatches(empty, columns)).toMatchObject({ ok: false, reason: 'empty', mismatches: [] });
    }
  });

  it('lists each mismatched column with expected and actual text', () => {
    const actual = ['Document ID', 'Kind', 'Confidence', 'Created'];
    const r = headerMatches(actual, columns);
    expect(r).toEqual({
      ok: false,
      reason: 'mismatch',
      expected: headers,
      actual,
      mismatches: [
        { column: 1, expected: 'Type', actual: 'Kind' },
        { column: 4, expected: 'Total', actual: '' },
        { column: 5, expected: 'Items', actual: '' },
        { column: 6, expected: 'Missing', actual: '' },
      ],
    });
  });

  it('a reordered header is a mismatch', () => {
    const swapped = [headers[1], headers[0], ...headers.slice(2)];
    expect(headerMatches(swapped, columns)).toMatchObject({
      ok: false,
      reason: 'mismatch',
      mismatches: [{ column: 0 }, { column: 1 }],
    });
  });
});
