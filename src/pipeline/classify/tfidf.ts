/**
 * TF-IDF vocabulary building and sparse vectorisation.
 *
 * Sublinear term frequency (1 + ln tf) keeps a receipt with twenty "_amount_" tokens from being
 * dominated by that one feature; vectors are L2-normalised so document length does not change
 * the logit scale (which matters for temperature calibration).
 */

/** A sparse vector: parallel arrays of feature indices (ascending) and values. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/** Vocabulary options. */
export interface VocabularyOptions {
  /** A feature must occur in at least this many training documents. Default 2. */
  minDf?: number;
  /** Keep at most this many features (highest document frequency first). Default 20000. */
  maxFeatures?: number;
}

export interface Vocabulary {
  /** Feature strings; position = feature index. Sorted for deterministic serialisation. */
  vocab: string[];
  /** Inverse document frequency per feature index. */
  idf: number[];
}

/** Count distinct features per document across a corpus and keep the frequent ones. */
export function buildVocabulary(docs: ReadonlyArray<Iterable<string>>, options: VocabularyOptions = {}): Vocabulary {
  const minDf = options.minDf ?? 2;
  const maxFeatures = options.maxFeatures ?? 20000;
  const df = new Map<string, number>();
  for (const tokens of docs) {
    for (const t of new Set(tokens)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  // Ties broken by the string so the vocabulary never depends on Map insertion order.
  const kept = [...df.entries()]
    .filter(([, n]) => n >= minDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, maxFeatures)
    .map(([t]) => t)
    .sort();
  const n = docs.length;
  const idf = kept.map((t) => Math.log((1 + n) / (1 + (df.get(t) ?? 0))) + 1);
  return { vocab: kept, idf };
}

/** Feature string → index lookup for a vocabulary. */
export function indexVocabulary(vocab: string[]): Map<string, number> {
  const index = new Map<string, number>();
  vocab.forEach((t, i) => index.set(t, i));
  return index;
}

/**
 * TF-IDF vector of one document, from its tokens or from feature counts; features outside the
 * vocabulary are ignored.
 */
export function vectorize(
  tokens: readonly string[] | ReadonlyMap<string, number>,
  index: Map<string, number>,
  idf: ArrayLike<number>,
): SparseVector {
  const counts = new Map<number, number>();
  const entries: Iterable<[string, number]> = Array.isArray(tokens)
    ? (tokens as readonly string[]).map((t): [string, number] => [t, 1])
    : (tokens as ReadonlyMap<string, number>).entries();
  for (const [t, n] of entries) {
    const i = index.get(t);
    if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + n);
  }
  return normalizeVector(counts, idf);
}

/** Sublinear tf × idf, L2-normalised, from counts keyed by feature index. */
export function normalizeVector(counts: ReadonlyMap<number, number>, idf: ArrayLike<number>): SparseVector {
  const indices = [...counts.keys()].sort((a, b) => a - b);
  const values = indices.map((i) => (1 + Math.log(counts.get(i) ?? 1)) * idf[i]);
  let norm = 0;
  for (const v of values) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < values.length; k++) values[k] /= norm;
  return { indices, values };
}
