// The weighted comparison of a new text with its LSH candidates. Shingles the organization's
// other documents share (a letterhead, a shop's address and footer) say little about whether two
// texts are copies of one document: a shingle's weight falls with the number of other candidates
// that hold it, so ten receipts of one bakery compare on their items and totals, while a re-scan
// of one receipt still shares those. Shingles with digits (amounts, dates, numbers) weigh 8 times as much.
import { hasDigit, resample, SLOTS } from './minhash.js';

export interface Sampled {
  sample: readonly number[];
  level: number;
}

export interface Candidate extends Sampled {
  id: string;
  /** Itself a near-duplicate of another document: compared, but not counted as "other content". */
  flagged: boolean;
}

/** Texts shorter than this many shingles are never called near-duplicates (too little to tell). */
export const MIN_SHINGLES = 30;
/** Weighted similarity from which a candidate is a near-duplicate. */
export const NEAR_DUPLICATE_THRESHOLD = 0.5;
/**
 * Candidates are compared only when one of them shares at least this many of the text's 64
 * signature slots (plain Jaccard ≥ 0.3 by the estimate). Most lookups find only chance band
 * collisions, and reading their samples was most of the check's cost; a pair this far apart is
 * found by the bands about 1 time in 7 anyway. On the dev receipts every OCR-noisy or re-encoded copy
 * shares ≥ 49 slots (0.77), and every distinct pair with a weighted similarity ≥ 0.4 shares ≥ 30.
 */
export const MIN_SHARED_SLOTS = Math.ceil(0.3 * SLOTS);

/** Shingles with digits (amounts, dates, numbers: what differs between one issuer's documents) weigh this much more. */
const DIGIT_WEIGHT = 8;

const atLevel = (s: Sampled, level: number): readonly number[] =>
  s.level === level ? s.sample : resample(s.sample, level);

/**
 * How many candidates hold each hash: open addressing over typed arrays (a Map of numbers cost a
 * third of the check's CPU at 100k documents, ~15 candidates of ~400 hashes each).
 */
class HashCounts {
  private readonly keys: Int32Array;
  private readonly counts: Int32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;
  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.keys = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.mask = size - 1;
  }
  private slot(h: number): number {
    let i = Math.imul(h, 0x9e3779b1) & this.mask;
    while (this.used[i] && this.keys[i] !== h) i = (i + 1) & this.mask;
    return i;
  }
  add(h: number): void {
    const i = this.slot(h);
    this.used[i] = 1;
    this.keys[i] = h;
    this.counts[i]++;
  }
  get(h: number): number {
    const i = this.slot(h);
    return this.used[i] ? this.counts[i] : 0;
  }
}

/**
 * Weighted Jaccard of two ascending samples in one merge pass. A hash's weight falls with the
 * number of *other* candidates holding it: `counts` includes the candidate itself when it is
 * counted (`ownCounted`), and a hash is the candidate's own exactly when it comes from `b` (both
 * samples are at one level, so a hash of `a` the candidate holds is in `b` too).
 */
function weightedJaccard(a: readonly number[], b: readonly number[], counts: HashCounts, ownCounted: boolean): number {
  const weight = (h: number, own: boolean) =>
    (hasDigit(h) ? DIGIT_WEIGHT : 1) / (1 + counts.get(h) - (own && ownCounted ? 1 : 0));
  let i = 0;
  let j = 0;
  let inter = 0;
  let union = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) union += weight(a[i++], false);
    else if (i >= a.length || b[j] < a[i]) union += weight(b[j++], true);
    else {
      const w = weight(a[i], true);
      inter += w;
      union += w;
      i++;
      j++;
    }
  }
  return union === 0 ? 0 : inter / union;
}

/**
 * Weighted similarity of `doc` with each candidate (best first). A shingle held by `n` other
 * unflagged candidates weighs 1/(1+n) (distinct
 * documents of one issuer are told apart by their identifiers as well: identifiers.ts).
 */
export function compareCandidates(
  doc: Sampled,
  candidates: readonly Candidate[],
): { id: string; similarity: number }[] {
  let total = 0;
  for (const c of candidates) if (!c.flagged) total += c.sample.length;
  const counts = new HashCounts(total);
  for (const c of candidates) {
    if (c.flagged) continue;
    for (const h of c.sample) counts.add(h);
  }
  // The new document's sample at each candidate's (higher) level, made once per level.
  const docAt = new Map<number, readonly number[]>();
  const out: { id: string; similarity: number }[] = [];
  for (const c of candidates) {
    const level = Math.max(doc.level, c.level);
    let mine = docAt.get(level);
    if (!mine) docAt.set(level, (mine = atLevel(doc, level)));
    out.push({ id: c.id, similarity: weightedJaccard(mine, atLevel(c, level), counts, !c.flagged) });
  }
  return out.sort((x, y) => y.similarity - x.similarity);
}
