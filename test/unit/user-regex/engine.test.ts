import { describe, expect, it } from 'vitest';
import { compileUserRegex, RegexBudget, type UserRegex } from '../../../src/lib/user-regex/index.js';

function re(pattern: string, flags = '', dialect: 'python' | 'javascript' = 'python'): UserRegex {
  const r = compileUserRegex(pattern, { flags, dialect });
  if (!r.ok) throw new Error(`${pattern}: ${r.message}`);
  return r.regex;
}
const refusal = (pattern: string, dialect: 'python' | 'javascript' = 'python'): string => {
  const r = compileUserRegex(pattern, { dialect });
  if (r.ok) throw new Error(`${pattern} compiled`);
  return r.message;
};

describe('user regexes on the linear-time engine', () => {
  it('runs the classic catastrophic patterns on 40-character inputs to completion', () => {
    const input = `${'a'.repeat(40)}!`;
    for (const p of ['(?:a|a)+$', '(a|aa)+$', '(\\w|\\d)+$', '(.|\\s)*x', '(a+)+$', '^(\\w+\\s?)*$']) {
      const r = re(p);
      expect(r.test(input), p).toBe(false);
      if (!p.endsWith('x')) expect(r.exec('a'.repeat(40)), p).not.toBeNull();
    }
    // The same shapes stay linear on long input too (a backtracking engine would never return).
    expect(re('(a|aa)+$').test(`${'a'.repeat(20_000)}!`)).toBe(false);
  });

  it('refuses what RE2 cannot run, saying why', () => {
    expect(refusal('Total(?= EUR)')).toMatch(/lookahead .* not supported/);
    expect(refusal('^(?!Sub)Total')).toMatch(/lookahead/);
    expect(refusal('(a)\\1')).toMatch(/backreference \\1 is not supported/);
    expect(refusal('(?P<x>a)(?P=x)')).toMatch(/backreference \(\?P=name\)/);
    expect(refusal('(?<x>a)\\k<x>', 'javascript')).toMatch(/backreference \\k<…>/);
    expect(refusal('(?>ab)')).toMatch(/atomic groups/);
    expect(refusal('a*+')).toMatch(/possessive or doubled quantifiers/);
    expect(refusal('(?(1)a|b)')).toMatch(/conditional/);
    expect(refusal('a{2000}')).toMatch(/above 1000/);
    expect(refusal('(BTW type')).toMatch(/missing \)/);
    expect(refusal('(?<=(a))b')).toMatch(/lookbehind .* capturing group/);
    expect(refusal('\\N{EURO SIGN}')).toMatch(/named Unicode escapes/);
    expect(refusal('x'.repeat(2001))).toMatch(/longer than 2000/);
    expect(refusal('')).toMatch(/empty/);
  });

  it('reads Python syntax as Python does', () => {
    expect(re('(?P<num>\\d+)').exec('No 42')?.named.num).toBe('42');
    expect(re('(?i)total').test('TOTAL')).toBe(true);
    // A global flag written mid-pattern still applies to the whole pattern (Python).
    expect(re('total(?i)').test('TOTAL')).toBe(true);
    expect(re('(?i:t)otal').test('Total')).toBe(true);
    expect(re('(?i:t)otal').test('TOTAL')).toBe(false);
    expect(re('^b', '', 'python').test('a\nb')).toBe(false);
    expect(re('(?m)^b').test('a\nb')).toBe(true);
    expect(re('(?s)a.b').test('a\nb')).toBe(true);
    expect(re('a.b').test('a\nb')).toBe(false);
    expect(re('end\\Z').test('the end')).toBe(true);
    expect(re('\\Aend').test('the end')).toBe(false);
    expect(re('\\u002B').test('+')).toBe(true);
    expect(re('\\x41').test('A')).toBe(true);
    expect(re('\\101').test('A')).toBe(true);
    expect(re('a{,2}b').exec('aaab')?.text).toBe('aab');
    expect(re('(?#a comment)x').test('x')).toBe(true);
    expect(re('(?x) a b  # spaced\n c').test('abc')).toBe(true);
    expect(re('[]a]+').exec('x]a]')?.text).toBe(']a]');
    // No POSIX classes in Python: a set of `[:alph` followed by a literal `]`.
    expect(re('[[:alpha:]]').test('b]')).toBe(false);
    expect(re('[[:alpha:]]').test(':]')).toBe(true);
    // Lookbehinds run on the linear engine.
    expect(re('(?<=Total: )\\d+').exec('Sub: 3 Total: 42')?.text).toBe('42');
    expect(re('(?<!Sub)Total').exec('SubTotal Total')?.index).toBe(9);
  });

  it("keeps Python's Unicode character classes", () => {
    expect(re('\\w+').exec('Müller')?.text).toBe('Müller');
    expect(re('[\\w.]+').exec('Straße.1')?.text).toBe('Straße.1');
    expect(re('\\d+').exec('٣4')?.text).toBe('٣4');
    expect(re('a\\sb').test('a\u00a0b')).toBe(true);
    expect(re('a\\Sb').test('a\u00a0b')).toBe(false);
    expect(re('\\W').test('é')).toBe(false);
    // Complements inside a set keep the Unicode meaning: no-break space is a space.
    expect(re('[\\S ]+').exec('\u00a0ab c')?.text).toBe('ab c');
    expect(re('[\\W_]+').exec('é_,')?.text).toBe('_,');
    // (?a) restores ASCII classes.
    expect(re('(?a)\\w+').exec('Müller')?.text).toBe('M');
  });

  it('reads JavaScript syntax for /regex/ settings', () => {
    expect(re('^invoice\\s+\\d+$', 'i', 'javascript').test('INVOICE 12')).toBe(true);
    expect(re('\\u{1F600}', '', 'javascript').test('😀')).toBe(true);
    expect(re('[^]', '', 'javascript').test('\n')).toBe(true);
    expect(re('[]', '', 'javascript').test('x')).toBe(false);
    expect(refusal('(?i)x', 'javascript')).toMatch(/not JavaScript syntax/);
  });

  it('reports positions in UTF-16 units and unmatched groups as undefined', () => {
    const m = re('(é+)(b)?').exec('ü😀éé c');
    expect(m).toMatchObject({ index: 3, end: 5, text: 'éé', groups: ['éé', undefined] });
    expect([...re('\\d').matchAll('a1b2c3')].map((x) => x.text)).toEqual(['1', '2', '3']);
    expect(re('b').exec('abcb', undefined, 2)?.index).toBe(3);
  });

  it('replaces like Python re.sub', () => {
    expect(re('(\\d+),(\\d\\d)').replace('12,50 and 3,00', '\\1.\\2')).toBe('12.50 and 3.00');
    expect(re('(?P<a>x)').replace('axb', '[\\g<a>\\g<0>]')).toBe('a[xx]b');
    expect(re('x*').replace('abxd', '-')).toBe('-a-b--d-');
    expect(re('(a)|(b)').replace('ab', '<\\2>')).toBe('<><b>');
    expect(re(' +').replace('a  b', '\\n')).toBe('a\nb');
    expect(re('EUR').replace('1 EUR, 2 EUR', '€')).toBe('1 €, 2 €');
  });

  it('matches plain strings without the engine, with the same results', () => {
    const lit = re('Invoice No.');
    expect(lit.test('Invoice No: 3')).toBe(true); // `.` is a pattern, not a literal
    const plain = re('Basic Test');
    expect(plain.test('Issuer: Basic Test')).toBe(true);
    expect([...plain.matchAll('Basic Test Basic Test')].map((m) => m.index)).toEqual([0, 11]);
  });

  it('refuses a call whose input × program exceeds the per-call ceiling, and stops when time is spent', () => {
    const r = re('(a|aa)+$');
    const budget = new RegexBudget(Infinity, { maxUnitsPerCall: 1000 });
    expect(r.test('a'.repeat(10))).toBe(true);
    expect(r.test('a'.repeat(500), budget)).toBe(false);
    expect(budget.lastRefusal).toMatch(/input too long for this pattern/);
    expect(budget.exhausted).toBeNull();
    let t = 0;
    const timed = new RegexBudget(10, { now: () => t });
    expect(r.test('aa', timed)).toBe(true);
    t = 11;
    expect(r.test('aa', timed)).toBe(false);
    expect(timed.exhausted).toBe('time budget spent');
  });
});
