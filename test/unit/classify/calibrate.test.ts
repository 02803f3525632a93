import { describe, expect, it } from 'vitest';
import { applyTemperature, fitTemperature, nllAt } from '../../../src/pipeline/classify/calibrate.js';
import { minimizeLbfgs } from '../../../src/pipeline/classify/lbfgs.js';
import { seededRandom } from '../../../src/pipeline/classify/random.js';
import { linearLogits, softmax, trainSoftmax } from '../../../src/pipeline/classify/softmax.js';

/** Logits drawn at random and labels sampled from softmax(logits / trueT). */
function synthetic(trueT: number, n: number, seed: number) {
  const rand = seededRandom(seed);
  const logits: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const z = [0, 1, 2, 3].map(() => rand() * 6 - 3);
    const p = softmax(z.map((v) => v / trueT));
    let r = rand();
    let c = 0;
    while (c < p.length - 1 && r > p[c]) r -= p[c++];
    logits.push(z);
    labels.push(c);
  }
  return { logits, labels };
}

describe('fitTemperature', () => {
  it.each([0.5, 1, 2.5])('recovers the temperature that generated the labels (T=%s)', (trueT) => {
    const { logits, labels } = synthetic(trueT, 4000, 17);
    const t = fitTemperature(logits, labels, { labelSmoothing: 0 });
    expect(Math.abs(t - trueT) / trueT).toBeLessThan(0.12);
    expect(nllAt(logits, labels, t)).toBeLessThanOrEqual(nllAt(logits, labels, 1) + 1e-12);
  });

  it('does not report certainty when every calibration example is right', () => {
    const logits = [
      [5, 0, 0],
      [0, 6, 0],
      [0, 0, 4],
      [7, 1, 0],
    ];
    const t = fitTemperature(logits, [0, 1, 2, 0]);
    const top = logits.map((z) => Math.max(...applyTemperature(z, t)));
    // Laplace: with 4 correct examples, confidence should sit near 5/6, not at 1.
    expect(Math.max(...top)).toBeLessThan(0.99);
    expect(Math.min(...top)).toBeGreaterThan(0.6);
    expect(fitTemperature([], [])).toBe(1);
  });
});

describe('softmax regression', () => {
  it('softmax is stable for large logits and sums to 1', () => {
    const p = softmax([1000, 1001, 999]);
    expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(p[1]).toBeGreaterThan(p[0]);
  });

  it('L-BFGS finds the minimum of a shifted quadratic', () => {
    const target = Float64Array.from([3, -2, 0.5, 10]);
    const res = minimizeLbfgs((x, g) => {
      let f = 0;
      for (let i = 0; i < x.length; i++) {
        const d = x[i] - target[i];
        f += (i + 1) * d * d;
        g[i] = 2 * (i + 1) * d;
      }
      return f;
    }, new Float64Array(4));
    res.x.forEach((v, i) => expect(v).toBeCloseTo(target[i], 4));
  });

  it('learns a separable sparse problem, and stronger L2 gives smaller weights', () => {
    const xs = [
      { indices: [0], values: [1] },
      { indices: [0, 2], values: [0.8, 0.6] },
      { indices: [1], values: [1] },
      { indices: [1, 2], values: [0.8, 0.6] },
    ];
    const labels = [0, 0, 1, 1];
    const weak = trainSoftmax(xs, labels, 2, 3, { l2: 1e-3 });
    const strong = trainSoftmax(xs, labels, 2, 3, { l2: 1 });
    xs.forEach((x, i) => {
      const p = softmax(linearLogits(weak, x));
      expect(p[labels[i]]).toBeGreaterThan(0.9);
    });
    expect(Math.abs(strong.weights[0][0])).toBeLessThan(Math.abs(weak.weights[0][0]));
  });

  it('sample weights and offsets change the solution', () => {
    const xs = [
      { indices: [0], values: [1] },
      { indices: [0], values: [1] },
    ];
    const even = trainSoftmax(xs, [0, 1], 2, 1, { l2: 0.01 });
    const skewed = trainSoftmax(xs, [0, 1], 2, 1, { l2: 0.01, sampleWeights: [1, 4] });
    const pe = softmax(linearLogits(even, xs[0]));
    const ps = softmax(linearLogits(skewed, xs[0]));
    expect(pe[1]).toBeCloseTo(0.5, 3);
    expect(ps[1]).toBeCloseTo(0.8, 2);
    const shifted = trainSoftmax(xs, [0, 1], 2, 1, {
      l2: 0.01,
      offsets: [
        [2, 0],
        [2, 0],
      ],
    });
    // The model compensates for a fixed offset so that, with the offset, the fit is still 50/50.
    const withOffset = softmax(linearLogits(shifted, xs[0]).map((v, c) => v + (c === 0 ? 2 : 0)));
    expect(withOffset[0]).toBeCloseTo(0.5, 2);
  });
});
