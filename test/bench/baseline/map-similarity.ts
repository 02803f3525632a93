// The candidate comparison as it was before 2026-11-28 (a Map of hash counts and a Set per
// candidate), kept as the bench's baseline for the typed-array version in src/pipeline/dedup.
// The weighted comparison of a new text with its LSH candidates. Shingles the organization's
// other documents share (a letterhead, a shop's address and footer) say little about whether two
// texts are copies of one document: a shingle's weight falls with the number of other candidates
// that hold it, so ten receipts of one bakery compare on their items and totals, while a re-scan
// of one receipt still shares those. Shingles with digits (amounts, dates, numbers) weigh 8 times as much.
import { hasDigit, sampleAt } from '../../../src/pipeline/dedup/minhash.js';

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
/** Shingles with digits (amounts, dates, numbers: what differs between one issuer's documents) weigh this much more. */
const DIGIT_WEIGHT = 8;

const atLevel = (s: Sampled, level: number): readonly number[] =>
  s.level === level ? s.sample : sampleAt(s.sample, level);

function weightedJaccard(a: readonly number[], b: readonly number[], weight: (h: number) => number): number {
  // Both ascending: one merge pass.
  let i = 0;
  let j = 0;
  let inter = 0;
  let union = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) union += weight(a[i++]);
    else if (i >= a.length || b[j] < a[i]) union += weight(b[j++]);
    else {
      const w = weight(a[i]);
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
  const counts = new Map<number, number>();
  for (const c of candidates) {
    if (c.flagged) continue;
    for (const h of c.sample) counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  const out: { id: string; similarity: number }[] = [];
  for (const c of candidates) {
    const level = Math.max(doc.level, c.level);
    const a = atLevel(doc, level);
    const b = atLevel(c, level);
    const own = new Set(c.flagged ? [] : b);
    const weight = (h: number) => {
      const others = (counts.get(h) ?? 0) - (own.has(h) ? 1 : 0);
      return (hasDigit(h) ? DIGIT_WEIGHT : 1) / (1 + others);
    };
    out.push({ id: c.id, similarity: weightedJaccard(a, b, weight) });
  }
  return out.sort((x, y) => y.similarity - x.similarity);
}
