// Damage that real inputs carry: OCR confusions, lost header lines, collapsed layout, stray
// page furniture. Applied to a fraction of documents so the classifier cannot rely on clean text.

const OCR_SUBS = [
  ['l', '1'], ['I', 'l'], ['O', '0'], ['o', '0'], ['rn', 'm'], ['m', 'rn'], ['e', 'c'], ['c', 'e'],
  ['S', '5'], ['B', '8'], ['a', 'o'], ['i', 'í'], ['u', 'v'], ['h', 'b'], ['t', 'f'], ['.', ','],
  ['n', 'ri'], ['d', 'cl'], ['g', 'q'], ['E', 'F'],
];

/** Character-level OCR confusions at the given per-word rate. */
export function ocrTypos(rng, text, rate) {
  return text.replace(/[A-Za-z.]{3,}/g, (w) => {
    if (!rng.chance(rate)) return w;
    const kind = rng.int(0, 3);
    if (kind === 0) {
      const [from, to] = rng.pick(OCR_SUBS);
      const i = w.indexOf(from);
      return i < 0 ? w : w.slice(0, i) + to + w.slice(i + from.length);
    }
    if (kind === 1) {
      const i = rng.int(1, w.length - 1);
      return w.slice(0, i) + w.slice(i + 1);
    }
    if (kind === 2) {
      const i = rng.int(1, w.length - 1);
      return `${w.slice(0, i)} ${w.slice(i)}`;
    }
    return w.toUpperCase() === w ? w.toLowerCase() : w;
  });
}

/** Drop the first lines (a cropped scan, a missing letterhead or title). */
export function dropHeader(rng, text) {
  const lines = text.split('\n');
  const n = rng.int(2, Math.max(2, Math.min(8, Math.floor(lines.length / 4))));
  return lines.slice(n).join('\n');
}

/** Keep only a window of lines: page 2 of a longer document, or a badly cropped scan. */
export function fragment(rng, text) {
  const lines = text.split('\n');
  if (lines.length < 10) return text;
  const len = Math.ceil(lines.length * rng.float(0.35, 0.7));
  const start = rng.int(0, lines.length - len);
  return lines.slice(start, start + len).join('\n');
}

/** Collapse runs of spaces and sometimes join lines, as naive PDF extraction does. */
export function flatten(rng, text) {
  const lines = text.replace(/[ \t]{2,}/g, ' ').split('\n');
  const out = [];
  for (const line of lines) {
    if (out.length && rng.chance(0.3)) out[out.length - 1] += ` ${line}`;
    else out.push(line);
  }
  return out.join('\n');
}

const FURNITURE = ['Page 1 of 2', 'Page 1/1', '- 1 -', 'CONFIDENTIAL', 'Scanned with MobileScan', 'Printed on {d}', 'Seite 1 von 1', 'Page 2', 'www.example-docs.test', 'Continued overleaf'];

export function furniture(rng, text) {
  const f = rng.pick(FURNITURE).replace('{d}', `${rng.int(1, 28)}/${rng.int(1, 12)}/20${rng.int(21, 25)}`);
  return rng.chance(0.5) ? `${f}\n${text}` : `${text}\n${f}`;
}

/**
 * Apply a random mix of damage. About a third of documents stay clean; the rest get one or more
 * kinds of noise at varying strength.
 */
export function applyNoise(rng, text) {
  let t = text;
  const r = rng.next();
  if (r < 0.35) return t;
  if (rng.chance(0.45)) t = ocrTypos(rng, t, rng.chance(0.25) ? rng.float(0.15, 0.35) : rng.float(0.03, 0.12));
  if (rng.chance(0.18)) t = fragment(rng, t);
  else if (rng.chance(0.25)) t = dropHeader(rng, t);
  if (rng.chance(0.3)) t = flatten(rng, t);
  if (rng.chance(0.25)) t = furniture(rng, t);
  if (rng.chance(0.08)) t = t.toUpperCase();
  return t;
}
