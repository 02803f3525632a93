/**
 * Multinomial logistic (softmax) regression over sparse vectors with L2 regularisation,
 * per-example weights and optional fixed per-example logit offsets (the rule evidence), trained
 * full-batch with L-BFGS.
 */
import { minimizeLbfgs, type LbfgsOptions } from './lbfgs.js';
import type { SparseVector } from './tfidf.js';

/** Softmax-regression training options. */
export interface SoftmaxOptions extends LbfgsOptions {
  /** L2 penalty on the weights (not the biases). Default 1e-3. */
  l2?: number;
  /** Per-example weights (default 1 each). Confirmed user documents get more. */
  sampleWeights?: number[];
  /** Fixed logit offsets per example (N × classes), added before the softmax. */
  offsets?: number[][];
  /** Starting point (warm start); default all zeros. The optimum does not depend on it. */
  initial?: SoftmaxParams;
}

export interface SoftmaxParams {
  /** weights[c][j]: weight of feature j for class c. */
  weights: Float64Array[];
  bias: Float64Array;
}

/** Numerically stable softmax; returns a new array summing to 1. */
export function softmax(logits: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  const out = new Array<number>(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp(logits[i] - max);
    sum += out[i];
  }
  for (let i = 0; i < out.length; i++) out[i] /= sum;
  return out;
}

/** Raw class scores W·x + b for one sparse vector. */
export function linearLogits(params: SoftmaxParams, x: SparseVector): number[] {
  const out = Array.from(params.bias);
  for (let c = 0; c < out.length; c++) {
    const w = params.weights[c];
    let s = 0;
    for (let k = 0; k < x.indices.length; k++) s += w[x.indices[k]] * x.values[k];
    out[c] += s;
  }
  return out;
}

export function trainSoftmax(
  xs: SparseVector[],
  labels: number[],
  numClasses: number,
  numFeatures: number,
  options: SoftmaxOptions = {},
): SoftmaxParams {
  const l2 = options.l2 ?? 1e-3;
  const weights = options.sampleWeights ?? xs.map(() => 1);
  const totalWeight = weights.reduce((s, w) => s + w, 0) || 1;
  const C = numClasses;
  const F = numFeatures;
  const biasAt = C * F;
  const z = new Float64Array(C);
  const r = new Float64Array(C);
  // Typed copies with each feature's offset into the parameter vector precomputed: the inner
  // loops below are the whole cost of training.
  const bases = xs.map((x) => Int32Array.from(x.indices, (j) => j * C));
  const vals = xs.map((x) => Float64Array.from(x.values));

  // Parameter layout: [W feature-major (F×C) | bias (C)]. The C weights of one feature sit
  // next to each other, so a document's sparse features touch one cache line each instead of
  // one per class (about three times faster on a 20k-feature vocabulary).
  const objective = (theta: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < xs.length; i++) {
      const xb = bases[i];
      const xv = vals[i];
      const off = options.offsets?.[i];
      for (let c = 0; c < C; c++) z[c] = theta[biasAt + c] + (off ? off[c] : 0);
      for (let k = 0; k < xb.length; k++) {
        const base = xb[k];
        const v = xv[k];
        for (let c = 0; c < C; c++) z[c] += theta[base + c] * v;
      }
      let max = -Infinity;
      for (let c = 0; c < C; c++) if (z[c] > max) max = z[c];
      let sum = 0;
      for (let c = 0; c < C; c++) sum += Math.exp(z[c] - max);
      const logSum = max + Math.log(sum);
      const w = weights[i] / totalWeight;
      loss += w * (logSum - z[labels[i]]);
      for (let c = 0; c < C; c++) {
        r[c] = w * (Math.exp(z[c] - logSum) - (c === labels[i] ? 1 : 0));
        grad[biasAt + c] += r[c];
      }
      for (let k = 0; k < xb.length; k++) {
        const base = xb[k];
        const v = xv[k];
        for (let c = 0; c < C; c++) grad[base + c] += r[c] * v;
      }
    }
    let reg = 0;
    for (let j = 0; j < biasAt; j++) {
      reg += theta[j] * theta[j];
      grad[j] += l2 * theta[j];
    }
    return loss + 0.5 * l2 * reg;
  };

  const x0 = new Float64Array(C * F + C);
  if (options.initial) {
    for (let c = 0; c < C; c++) {
      const row = options.initial.weights[c];
      for (let j = 0; j < F; j++) x0[j * C + c] = row[j];
      x0[biasAt + c] = options.initial.bias[c];
    }
  }
  const result = minimizeLbfgs(objective, x0, options);
  return {
    weights: Array.from({ length: C }, (_, c) => {
      const row = new Float64Array(F);
      for (let j = 0; j < F; j++) row[j] = result.x[j * C + c];
      return row;
    }),
    bias: result.x.slice(biasAt, biasAt + C),
  };
}
