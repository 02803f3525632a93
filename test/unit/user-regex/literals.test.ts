import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import {
  compileUserRegex,
  fixedString,
  foldCase,
  matchUniverse,
  requiredLiterals,
  topLevelItems,
  universeHas,
} from '../../../src/lib/user-regex/index.js';
import { pick, randomPattern, randomText, rng } from '../../helpers/random-patterns.js';

describe('literals a pattern requires', () => {
  it('reads the runs every match must contain', () => {
    expect(requiredLiterals('support@github.com')).toEqual({ parts: ['support@github', 'com'], caseless: false });
    expect(requiredLiterals('NL8152[.]54[.]295[.]B01')).toEqual({ parts: ['NL8152.54.295.B01'], caseless: false });
    expect(requiredLiterals('(?i)Doe\\sHet\\s')).toEqual({ parts: ['doe', 'het'], caseless: true });
    expect(requiredLiterals('(NEDERLAND)')?.parts).toEqual(['NEDERLAND']);
    expect(requiredLiterals('Express\\s+\\w+')?.parts).toEqual(['Express']);
    // Optional pieces are not required; a repeated one is, once.
    expect(requiredLiterals('Totaal(incl)?BTW')?.parts).toEqual(['Totaal', 'BTW']);
    expect(requiredLiterals('ab+c')?.parts).toEqual(['ab', 'c']);
    // Zero-width assertions keep their neighbours adjacent.
    expect(requiredLiterals('\\bInvoice\\b:')?.parts).toEqual(['Invoice:']);
    // A top-level alternation or a pattern that never runs requires nothing.
    expect(requiredLiterals('Factuur|Invoice')).toBeNull();
    expect(requiredLiterals('a(?=b)')).toBeNull();
    expect(requiredLiterals('$')).toBeNull();
    // Case-insensitive: cased letters outside ASCII end a run (RE2 folds them its own way).
    expect(requiredLiterals('(?i)Straße 5')?.parts).toEqual(['stra', 'e 5']);
  });

  it('never claims a literal a match lacks (random patterns and texts)', () => {
    const r = rng(7);
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const pattern = randomPattern(r);
      const req = requiredLiterals(pattern);
      const c = compileUserRegex(pattern);
      if (!req || !c.ok) continue;
      for (let k = 0; k < 6; k++) {
        const text = randomText(r, 4 + Math.floor(r() * 30));
        for (const m of c.regex.matchAll(text)) {
          const seen = req.caseless ? foldCase(m.text) : m.text;
          for (const part of req.parts)
            expect(seen.includes(part), `${pattern} on ${JSON.stringify(text)} lacks ${part}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('folds every character RE2 matches case-insensitively to the ASCII letter', () => {
    // Every code point outside the surrogates, against each letter's (?i) pattern.
    const chars: string[] = [];
    for (let cp = 0x80; cp <= 0x1ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
    const all = chars.join('\u0000');
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      const m = RE2JS.compile(`(?i)${letter}`).matcher(all);
      const found: string[] = [];
      while (m.find()) found.push(m.group() ?? '');
      for (const ch of found) expect(foldCase(ch), `U+${ch.codePointAt(0)?.toString(16)} for ${letter}`).toBe(letter);
    }
  });
});

describe('fixed-string patterns', () => {
  it('recognises patterns that match one string only', () => {
    expect(fixedString('\\n')).toBe('\n');
    expect(fixedString('L[.]P[.]G')).toBe('L.P.G');
    expect(fixedString('a\\.b\\x41\\u00e9')).toBe('a.bAé');
    expect(fixedString('0x2B')).toBe('0x2B');
    for (const p of ['L.P', 'a+', '(a)', '(?i)abc', '^a', 'a|b', '\\d', '[ab]', 'a{2}'])
      expect(fixedString(p), p).toBeNull();
  });

  it('runs them as substring searches with the same matches as the regex', () => {
    const r = rng(11);
    for (let n = 0; n < 400; n++) {
      const lit = Array.from({ length: 1 + Math.floor(r() * 3) }, () =>
        pick(r, ['a', '\\.', '[.]', '\\n', ' ', '\\-', 'b', '\\x61']),
      ).join('');
      const fixed = compileUserRegex(lit);
      const viaRegex = RE2JS.compile(lit);
      expect(fixed.ok).toBe(true);
      const text = randomText(r, 20).replace(/x/g, '\n');
      if (!fixed.ok) continue;
      const mine = [...fixed.regex.matchAll(text)].map((m) => [m.index, m.end]);
      const theirs: number[][] = [];
      const m = viaRegex.matcher(text);
      while (m.find()) theirs.push([m.start(), m.end()]);
      expect(mine, lit).toEqual(theirs);
    }
  });
});

describe('what a match can hold and how a pattern is laid out', () => {
  it('over-approximates the characters of a match', () => {
    const u = matchUniverse('(\\s)([0-9]+)\\.([0-9]{2})(\\s)');
    expect(u.any).toBe(false);
    expect(['1', ' ', '.'].every((c) => universeHas(u, c))).toBe(true);
    expect(universeHas(matchUniverse('\\d'), '٣')).toBe(true);
    expect(['a', ',', 'L'].some((c) => universeHas(u, c))).toBe(false);
    expect(matchUniverse('\\w+').any).toBe(true);
    expect(matchUniverse('[^a]').any).toBe(true);
    expect(universeHas(matchUniverse('(?i)k'), 'K')).toBe(true);
  });

  it('never misses a character a match holds (random patterns and texts)', () => {
    const r = rng(5);
    for (let n = 0; n < 2000; n++) {
      const pattern = randomPattern(r);
      const c = compileUserRegex(pattern);
      if (!c.ok) continue;
      const u = matchUniverse(pattern);
      const text = randomText(r, 24);
      for (const m of c.regex.matchAll(text))
        for (const ch of m.text) expect(universeHas(u, ch), `${pattern}: ${JSON.stringify(ch)}`).toBe(true);
    }
  });

  it('lists top-level items with their group numbers', () => {
    expect(topLevelItems('(\\s)([0-9]+)\\.([0-9]{2})(\\s)')).toEqual([
      { group: 1, quantified: false, zeroWidth: false },
      { group: 2, quantified: false, zeroWidth: false },
      { group: null, quantified: false, zeroWidth: false },
      { group: 3, quantified: false, zeroWidth: false },
      { group: 4, quantified: false, zeroWidth: false },
    ]);
    expect(topLevelItems('^(?:(a)(b))?(?P<c>x)+\\b')).toEqual([
      { group: null, quantified: false, zeroWidth: true },
      { group: null, quantified: true, zeroWidth: false },
      { group: 3, quantified: true, zeroWidth: false },
      { group: null, quantified: false, zeroWidth: true },
    ]);
    expect(topLevelItems('a|b')).toBeNull();
  });
});
