import { describe, expect, it } from 'vitest';
import { globMatch, matchesAnyGlob, parsePatternList } from '../../../src/modules/documents/message-parts/index.js';

describe('globMatch', () => {
  it.each([
    ['invoice.pdf', '*.pdf', true],
    ['INVOICE.PDF', '*.pdf', true],
    ['invoice.pdf', '*.PDF', true],
    ['invoice.pdf.exe', '*.pdf', false],
    ['invoice.pdf', 'invoice.???', true],
    ['invoice.pd', 'invoice.???', false],
    ['rechnung-2024.pdf', 'rechnung-*.pdf', true],
    ['rechnung.pdf', 'rechnung-*.pdf', false],
    ['a', '*', true],
    ['', '*', true],
    ['', '?', false],
    ['abc', 'a*b*c', true],
    ['abc', 'a**c', true],
    ['acb', 'a*b*c', false],
    ['Übersicht.pdf', 'ü*.pdf', true],
    ['請求書.pdf', '???.pdf', true],
    ['smile😀.png', 'smile?.png', true],
  ])('%j vs %j -> %j', (name, pattern, expected) => {
    expect(globMatch(name, pattern)).toBe(expected);
  });

  it('treats regex metacharacters literally', () => {
    expect(globMatch('a.pdf', 'a.pdf')).toBe(true);
    expect(globMatch('axpdf', 'a.pdf')).toBe(false);
    expect(globMatch('(x)+[y].pdf', '(x)+[y].pdf')).toBe(true);
    expect(globMatch('xx.pdf', '(x)+.pdf')).toBe(false);
    expect(globMatch('a^b$', 'a^b$')).toBe(true);
  });

  it('stays correct on backtracking-heavy patterns', () => {
    const name = 'a'.repeat(5000);
    expect(globMatch(name, '*a*a*a*a*a*a*a*b')).toBe(false);
    expect(globMatch(name + 'b', '*a*a*a*a*a*a*a*b')).toBe(true);
  });
});

describe('parsePatternList', () => {
  it('accepts arrays and comma/newline separated strings, dropping blanks', () => {
    expect(parsePatternList('*.pdf, *.png,,\n*.jpg ')).toEqual(['*.pdf', '*.png', '*.jpg']);
    expect(parsePatternList(['*.pdf', ' ', 'a,b'])).toEqual(['*.pdf', 'a', 'b']);
    expect(parsePatternList(null)).toEqual([]);
    expect(parsePatternList(undefined)).toEqual([]);
  });
  it('matchesAnyGlob', () => {
    expect(matchesAnyGlob('x.png', ['*.pdf', '*.png'])).toBe(true);
    expect(matchesAnyGlob('x.gif', ['*.pdf', '*.png'])).toBe(false);
    expect(matchesAnyGlob('x.gif', [])).toBe(false);
  });
});
