/**
 * Mean pooling over the tokens a text really has (attention mask 1), then L2 normalisation: the
 * sentence vector of a sentence-embedding model. transformers.js has its own, but it reads the
 * 64-bit mask once per (token, dimension) pair, allocating a BigInt each time: for a 384-wide
 * model and a 256-token chunk that is ~100,000 short-lived objects per text. Here the mask is read
 * once per token.
 *
 * `hidden` is the last hidden state, row-major [batch, tokens, dims]; `mask` is [batch, tokens].
 */
export function meanPoolNormalized(
  hidden: ArrayLike<number>,
  dims: readonly number[],
  mask: ArrayLike<bigint | number>,
): number[][] {
  const [batch, tokens, width] = dims;
  if (dims.length !== 3 || hidden.length !== batch * tokens * width || mask.length !== batch * tokens) {
    throw new Error(`unexpected model output shape [${dims.join(', ')}]`);
  }
  const out: number[][] = [];
  const sum = new Float64Array(width);
  for (let b = 0; b < batch; b++) {
    sum.fill(0);
    let count = 0;
    for (let t = 0; t < tokens; t++) {
      if (Number(mask[b * tokens + t]) === 0) continue;
      count++;
      const base = (b * tokens + t) * width;
      for (let k = 0; k < width; k++) sum[k] += hidden[base + k];
    }
    let norm = 0;
    for (let k = 0; k < width; k++) {
      sum[k] = count > 0 ? sum[k] / count : 0;
      norm += sum[k] * sum[k];
    }
    // A text with no tokens (or an all-zero state) stays a zero vector rather than NaN.
    const scale = 1 / Math.max(Math.sqrt(norm), 1e-12);
    const v = new Array<number>(width);
    // Rounded through float32, as the library's tensors are.
    for (let k = 0; k < width; k++) v[k] = Math.fround(Math.fround(sum[k]) * scale);
    out.push(v);
  }
  return out;
}
