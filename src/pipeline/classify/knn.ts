/**
 * Nearest-neighbour vote over embedding vectors (cosine similarity), used when a real embedding
 * model is present and the org has labelled documents with stored vectors.
 */

export interface KnnNeighbour {
  vector: number[];
  type: string;
}

/** kNN vote options. */
export interface KnnOptions {
  /**
   * Types the distribution must cover (each gets at least its share of the smoothing mass).
   * Default: the types present among the neighbours.
   */
  types?: readonly string[];
  /**
   * Pseudo-similarity spread evenly over the types so a vote of three neighbours never claims
   * certainty. Default 0.1.
   */
  smoothing?: number;
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`vector length mismatch: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Similarity-weighted vote of the k most similar neighbours. Negative similarities count as
 * zero. Returns a distribution summing to 1 (empty object when there is nothing to vote over).
 */
export function knnVote(
  query: number[],
  neighbours: readonly KnnNeighbour[],
  k: number,
  options: KnnOptions = {},
): Record<string, number> {
  const smoothing = options.smoothing ?? 0.1;
  const types = [...new Set([...(options.types ?? []), ...neighbours.map((n) => n.type)])];
  if (types.length === 0) return {};
  // Stable order on ties (original position) keeps the vote deterministic.
  const top = neighbours
    .map((n, i) => ({ type: n.type, sim: cosineSimilarity(query, n.vector), i }))
    .sort((a, b) => b.sim - a.sim || a.i - b.i)
    .slice(0, Math.max(0, Math.floor(k)));
  const votes = new Map<string, number>(types.map((t) => [t, smoothing / types.length]));
  let total = smoothing;
  for (const n of top) {
    const w = Math.max(0, n.sim);
    votes.set(n.type, (votes.get(n.type) ?? 0) + w);
    total += w;
  }
  const out: Record<string, number> = {};
  for (const t of types) out[t] = total > 0 ? (votes.get(t) ?? 0) / total : 1 / types.length;
  return out;
}
