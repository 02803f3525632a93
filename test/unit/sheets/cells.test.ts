import { describe, expect, it } from 'vitest';
import { isoDatePart, MAX_CELL_CHARS, typedCell } from '../../../src/modules/integrations/sheets/mapping/cells.js';

describe('typedCell', () => {
  it.each<[string, unknown, unknown]>([
    ['integer', 42, 42],
    ['decimal', 1234.56, 1234.56],
    ['negative', -3.5, -3.5],
    ['zero', 0, 0],
    ['NaN → empty', Number.NaN, ''],
    ['Infinity → empty', Number.POSITIVE_INFINITY, ''],
    ['true', true, true],
    ['false', false, false],
    ['null → empty', null, ''],
    ['undefined → empty', undefined, ''],
    ['empty string stays empty', '', ''],
    ['ISO date', '2024-03-05', '2024-03-05'],
    ['ISO date-time Z', '2024-03-05T23:59:59.123Z', '2024-03-05'],
    ['ISO date-time with offset keeps its own date', '2024-03-05T23:30:00-05:00', '2024-03-05'],
    ['space-separated date-time', '2024-03-05 08:00', '2024-03-05'],
    ['Date object (UTC day)', new Date('2024-03-05T12:00:00Z'), '2024-03-05'],
    ['invalid Date → empty', new Date('nope'), ''],
    ['impossible date stays text', '2024-02-30', "'2024-02-30"],
    ['plain text', 'ACME GmbH', "'ACME GmbH"],
    ['leading zeros stay text', '00123', "'00123"],
    ['numeric-looking string stays text', '12.50', "'12.50"],
    ['US date string stays text', '1/2/2024', "'1/2/2024"],
    ['boolean-looking string stays text', 'TRUE', "'TRUE"],
    ['formula injection neutralised', '=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['plus/minus/at prefixes neutralised', '+1-555', "'+1-555"],
    ['already apostrophed text keeps its apostrophe', "'quoted", "''quoted"],
    ['safe bigint', 12n, 12],
    ['huge bigint stays exact text', 2n ** 70n, `'${(2n ** 70n).toString()}`],
    ['scalar array joined', ['a', 1, null, 'b'], "'a, 1, b"],
    ['object array as JSON', [{ sku: 'X', qty: 2 }], `'[{"sku":"X","qty":2}]`],
    ['object as JSON', { a: 1, b: [2] }, `'{"a":1,"b":[2]}`],
    ['nested bigint in JSON', { n: 5n }, `'{"n":"5"}`],
  ])('%s', (_name, input, expected) => {
    expect(typedCell(input)).toEqual(expected);
  });

  it('circular objects become an empty cell instead of throwing', () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    expect(typedCell(o)).toBe('');
  });

  it('cuts text to the cell limit without splitting a surrogate pair', () => {
    const long = 'x'.repeat(MAX_CELL_CHARS - 2) + '😀' + 'tail';
    const cell = typedCell(long) as string;
    expect(cell.startsWith("'")).toBe(true);
    const body = cell.slice(1);
    expect(body.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    expect(body.endsWith('…')).toBe(true);
    expect(body).not.toMatch(/[\uD800-\uDBFF]…$/);
  });
});

describe('isoDatePart', () => {
  it.each([
    ['2024-12-31', '2024-12-31'],
    ['2024-02-29T00:00:00Z', '2024-02-29'],
    ['2023-02-29', null],
    ['2024-13-01', null],
    ['20240101', null],
    ['2024-01-01T', null],
    ['x2024-01-01', null],
  ])('%s → %s', (text, expected) => expect(isoDatePart(text)).toBe(expected));
});
