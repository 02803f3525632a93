/**
 * Temperature scaling: one scalar T so that softmax(logits / T) matches observed accuracy on
 * held-out data. NLL is convex in β = 1/T, so a golden-section search over β finds the optimum.
 */
import { softmax } from './softmax.js';

/** Temperature search bounds. */
export interface TemperatureOptions {
  /** Smallest temperature allowed (sharpest). Default 0.05. */
  minTemperature?: number;
  /** Largest temperature allowed (flattest). Default 20. */
  maxTemperature?: number;
  /**
   * Probability mass moved from the true label to the others in the fitting targets. Default
   * `1 / (n + 2)` (Laplace's rule of succession): a calibration set of n documents that are all
   * classified correctly does not justify confidences above about (n + 1) / (n + 2), and without
   * this the fit would push T to its lower bound and report certainty.
   */
  labelSmoothing?: number;
}

/**
 * Mean cross-entropy at temperature T against targets that put `1 - smoothing` on the true
 * label and spread `smoothing` over the rest; with smoothing 0 this is the plain NLL.
 */
export function nllAt(logits: number[][], labels: number[], temperature: number, smoothing = 0): number {
  if (logits.length === 0) return 0;
  let total = 0;
  for (let i = 0; i < logits.length; i++) {
    const row = logits[i];
    let max = -Infinity;
    for (const v of row) max = Math.max(max, v / temperature);
    let sum = 0;
    for (const v of row) sum += Math.exp(v / temperature - max);
    const logZ = max + Math.log(sum);
    const others = row.length > 1 ? smoothing / (row.length - 1) : 0;
    for (let c = 0; c < row.length; c++) {
      const q = c === labels[i] ? 1 - smoothing : others;
      if (q > 0) total += q * (logZ - row[c] / temperature);
    }
  }
  return total / logits.length;
}

/** Fit T by minimising NLL on a calibration set; returns 1 when the set is empty. */
export function fitTemperature(logits: number[][], labels: number[], options: TemperatureOptions = {}): number {
  if (logits.length === 0) return 1;
  const minT = options.minTemperature ?? 0.05;
  const maxT = options.maxTemperature ?? 20;
  const smoothing = options.labelSmoothing ?? 1 / (logits.length + 2);
  let lo = 1 / maxT;
  let hi = 1 / minT;
  const phi = (Math.sqrt(5) - 1) / 2;
  const f = (beta: number) => nllAt(logits, labels, 1 / beta, smoothing);
  let a = hi - phi * (hi - lo);
  let b = lo + phi * (hi - lo);
  let fa = f(a);
  let fb = f(b);
  for (let i = 0; i < 80 && hi - lo > 1e-6; i++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phi * (hi - lo);
      fa = f(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phi * (hi - lo);
      fb = f(b);
    }
  }
  return 1 / ((lo + hi) / 2);
}

/** Probabilities at temperature T. */
export function applyTemperature(logits: number[], temperature: number): number[] {
  return softmax(logits.map((v) => v / temperature));
}
