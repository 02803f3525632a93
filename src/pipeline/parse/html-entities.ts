import { CP1252_C1 } from './text.js';

// Named character references that real-world mail and web pages use. The full HTML list has
// over two thousand names; unknown names are left as written, which keeps the text readable.

/** Latin-1 names, in code-point order from U+00A0 to U+00FF. */
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
  'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde ' +
  'Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc ' +
  'Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml ' +
  'aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc ' +
  'otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const OTHERS: Record<string, number> = {
  amp: 0x26,
  lt: 0x3c,
  gt: 0x3e,
  quot: 0x22,
  apos: 0x27,
  euro: 0x20ac,
  ndash: 0x2013,
  mdash: 0x2014,
  lsquo: 0x2018,
  rsquo: 0x2019,
  sbquo: 0x201a,
  ldquo: 0x201c,
  rdquo: 0x201d,
  bdquo: 0x201e,
  hellip: 0x2026,
  bull: 0x2022,
  trade: 0x2122,
  dagger: 0x2020,
  Dagger: 0x2021,
  permil: 0x2030,
  lsaquo: 0x2039,
  rsaquo: 0x203a,
  OElig: 0x152,
  oelig: 0x153,
  Scaron: 0x160,
  scaron: 0x161,
  Yuml: 0x178,
  Zcaron: 0x17d,
  zcaron: 0x17e,
  fnof: 0x192,
  circ: 0x2c6,
  tilde: 0x2dc,
  ensp: 0x2002,
  emsp: 0x2003,
  thinsp: 0x2009,
  zwnj: 0x200c,
  zwj: 0x200d,
  lrm: 0x200e,
  rlm: 0x200f,
  minus: 0x2212,
  larr: 0x2190,
  rarr: 0x2192,
  uarr: 0x2191,
  darr: 0x2193,
  le: 0x2264,
  ge: 0x2265,
  ne: 0x2260,
  infin: 0x221e,
  check: 0x2713,
  prime: 0x2032,
  Prime: 0x2033,
  oline: 0x203e,
  frasl: 0x2044,
  alpha: 0x3b1,
  beta: 0x3b2,
  gamma: 0x3b3,
  delta: 0x3b4,
  mu: 0x3bc,
  pi: 0x3c0,
  sigma: 0x3c3,
  Omega: 0x3a9,
  tab: 0x09,
  newline: 0x0a,
};

function buildTable(): Map<string, string> {
  const table = new Map<string, string>();
  LATIN1.split(' ').forEach((name, i) => table.set(name, String.fromCodePoint(0xa0 + i)));
  for (const [name, cp] of Object.entries(OTHERS)) table.set(name, String.fromCodePoint(cp));
  return table;
}

const NAMED = buildTable();

function fromCodePoint(cp: number): string {
  if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(CP1252_C1[cp] ?? cp);
}

/** Replaces `&name;`, `&#123;` and `&#x1F600;` (the semicolon may be missing, as browsers allow). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,9}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      return fromCodePoint(parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return NAMED.get(ref) ?? whole;
  });
}
