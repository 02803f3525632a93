// Random Python-syntax patterns and texts over a small alphabet (so that texts often match),
// for property tests of the literal scans and the template prefilter.

/** A small deterministic generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const ATOMS = [
  'a',
  'b',
  'A',
  'B',
  'K',
  's',
  'ſ',
  '.',
  '\\.',
  ' ',
  '\\s',
  '\\d',
  '[ab]',
  '[.]',
  '[\\-]',
  '1',
  '2',
  '\\n',
  '\\x41',
  '(a)',
  '(?:ab)',
  '(a|b)',
  '(?P<n>b1)',
  '\\b',
  '^',
  '$',
  '(?<=a)',
  '(?#note)',
  'é',
  'É',
  '€',
];
const QUANTS = ['', '', '', '?', '*', '+', '{2}', '{0,2}', '{1,}', '+?'];
export const TEXT_CHARS = [
  'a',
  'b',
  'A',
  'B',
  'K',
  'k',
  'K',
  's',
  'S',
  'ſ',
  '.',
  ' ',
  '1',
  '2',
  '-',
  '\n',
  'é',
  'É',
  '€',
  'x',
];

export function randomPattern(r: () => number, atoms: number = 1 + Math.floor(r() * 5)): string {
  let p = r() < 0.25 ? '(?i)' : '';
  for (let i = 0; i < atoms; i++) p += pick(r, ATOMS) + (r() < 0.3 ? pick(r, QUANTS) : '');
  if (r() < 0.08) p += `|${pick(r, ATOMS)}`;
  return p;
}

export const randomText = (r: () => number, len: number): string =>
  Array.from({ length: len }, () => pick(r, TEXT_CHARS)).join('');
