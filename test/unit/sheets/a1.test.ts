import { describe, expect, it } from 'vitest';
import {
  columnIndex,
  columnLetter,
  formatA1Range,
  parseA1Range,
  quoteSheetName,
  rowRange,
} from '../../../src/modules/integrations/sheets/mapping/a1.js';

describe('columnLetter / columnIndex', () => {
  it.each([
    [0, 'A'],
    [1, 'B'],
    [25, 'Z'],
    [26, 'AA'],
    [27, 'AB'],
    [51, 'AZ'],
    [52, 'BA'],
    [701, 'ZZ'],
    [702, 'AAA'],
    [18_277, 'ZZZ'],
  ])('%i ↔ %s', (i, letters) => {
    expect(columnLetter(i)).toBe(letters);
    expect(columnIndex(letters)).toBe(i);
    expect(columnIndex(letters.toLowerCase())).toBe(i);
  });

  it('rejects out-of-range input', () => {
    for (const bad of [-1, 1.5, 18_278, Number.NaN]) expect(() => columnLetter(bad)).toThrow(RangeError);
    for (const bad of ['', 'A1', 'AAAA', 'Ä']) expect(() => columnIndex(bad)).toThrow(RangeError);
  });
});

describe('parseA1Range', () => {
  it.each([
    ['Sheet1!A1:Z', { sheet: 'Sheet1', startCol: 0, startRow: 1, endCol: 25, endRow: null }],
    ["'My Sheet'!A:C", { sheet: 'My Sheet', startCol: 0, startRow: null, endCol: 2, endRow: null }],
    ["'It''s'!B3", { sheet: "It's", startCol: 1, startRow: 3, endCol: 1, endRow: 3 }],
    ['Sheet1', { sheet: 'Sheet1', startCol: null, startRow: null, endCol: null, endRow: null }],
    ["'Q1 2024'", { sheet: 'Q1 2024', startCol: null, startRow: null, endCol: null, endRow: null }],
    ['A1:B2', { sheet: null, startCol: 0, startRow: 1, endCol: 1, endRow: 2 }],
    ['Data!2:5', { sheet: 'Data', startCol: null, startRow: 2, endCol: null, endRow: 5 }],
    ['Sheet1!AA10:AB', { sheet: 'Sheet1', startCol: 26, startRow: 10, endCol: 27, endRow: null }],
    ["'a!b'!C1", { sheet: 'a!b', startCol: 2, startRow: 1, endCol: 2, endRow: 1 }],
  ])('%s', (text, expected) => {
    expect(parseA1Range(text)).toEqual(expected);
  });

  it.each(['Sheet1!', "'unterminated!A1", 'Sheet1!A0', 'Sheet1!1:C3', 'Sheet1!A1:B2:C3', "'x'A1", '!A1'])(
    'rejects %s',
    (bad) => {
      expect(() => parseA1Range(bad)).toThrow(RangeError);
    },
  );
});

describe('formatting', () => {
  it('quotes only titles that need it', () => {
    expect(quoteSheetName('Sheet1')).toBe('Sheet1');
    expect(quoteSheetName('My Sheet')).toBe("'My Sheet'");
    expect(quoteSheetName("It's")).toBe("'It''s'");
    expect(quoteSheetName('A1')).toBe("'A1'"); // would read as a cell
    expect(quoteSheetName('R1C1')).toBe("'R1C1'");
    expect(quoteSheetName('2024')).toBe("'2024'");
  });

  it.each(['Sheet1!A1:Z', "'My Sheet'!A:C", "'It''s'!B3", 'Sheet1', 'A1:B2', 'Data!2:5', "'A1'!C3:D4"])(
    'round-trips %s',
    (text) => {
      expect(formatA1Range(parseA1Range(text))).toBe(text);
    },
  );

  it('rowRange covers one row of n columns', () => {
    expect(rowRange('My Sheet', 7, 28)).toBe("'My Sheet'!A7:AB7");
    expect(() => rowRange('S', 0, 3)).toThrow(RangeError);
    expect(() => rowRange('S', 1, 0)).toThrow(RangeError);
  });
});
