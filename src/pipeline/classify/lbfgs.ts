/**
 * Limited-memory BFGS for smooth convex objectives (here: L2-regularised softmax regression).
 * Full-batch and free of randomness, so the same data always gives the same weights.
 */

/** Optimiser settings. */
export interface LbfgsOptions {
  /** Maximum iterations. Default 300. */
  maxIterations?: number;
  /** Number of correction pairs kept. Default 10. */
  memory?: number;
  /** Stop when the largest gradient component falls below this. Default 1e-5. */
  gradientTolerance?: number;
  /** Stop when the relative objective decrease over one step falls below this. Default 1e-10. */
  relativeTolerance?: number;
}

/** Objective: returns f(x) and writes ∇f(x) into `grad`. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export interface LbfgsResult {
  x: Float64Array;
  value: number;
  iterations: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

export function minimizeLbfgs(objective: Objective, x0: Float64Array, options: LbfgsOptions = {}): LbfgsResult {
  const maxIterations = options.maxIterations ?? 300;
  const m = options.memory ?? 10;
  const gtol = options.gradientTolerance ?? 1e-5;
  const rtol = options.relativeTolerance ?? 1e-10;
  const n = x0.length;

  let x = Float64Array.from(x0);
  let g = new Float64Array(n);
  let f = objective(x, g);
  // Correction pairs live in a preallocated ring so a 100k-parameter model does not allocate
  // two fresh vectors per iteration.
  const sRing = Array.from({ length: m }, () => new Float64Array(n));
  const yRing = Array.from({ length: m }, () => new Float64Array(n));
  const rho = new Float64Array(m);
  const alpha = new Float64Array(m);
  let stored = 0;
  let head = 0; // ring slot the next pair is written to
  const slot = (k: number) => (head - stored + k + m) % m; // k-th oldest stored pair
  const dir = new Float64Array(n);
  let xNew = new Float64Array(n);
  let gNew = new Float64Array(n);
  let iter = 0;

  for (; iter < maxIterations; iter++) {
    if (maxAbs(g) < gtol) break;

    // Two-loop recursion: dir = -H·g.
    for (let i = 0; i < n; i++) dir[i] = -g[i];
    for (let k = stored - 1; k >= 0; k--) {
      const j = slot(k);
      alpha[j] = rho[j] * dot(sRing[j], dir);
      const y = yRing[j];
      for (let i = 0; i < n; i++) dir[i] -= alpha[j] * y[i];
    }
    if (stored > 0) {
      const j = slot(stored - 1);
      const gamma = dot(sRing[j], yRing[j]) / dot(yRing[j], yRing[j]);
      for (let i = 0; i < n; i++) dir[i] *= gamma;
    } else {
      // First step: unit-length move along the negative gradient.
      const gn = Math.sqrt(dot(g, g));
      for (let i = 0; i < n; i++) dir[i] /= gn;
    }
    for (let k = 0; k < stored; k++) {
      const j = slot(k);
      const beta = rho[j] * dot(yRing[j], dir);
      const s = sRing[j];
      for (let i = 0; i < n; i++) dir[i] += (alpha[j] - beta) * s[i];
    }

    let slope = dot(g, dir);
    if (slope >= 0) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      stored = 0;
      for (let i = 0; i < n; i++) dir[i] = -g[i];
      slope = dot(g, dir);
    }

    // Backtracking line search with the Armijo condition.
    let step = 1;
    let fNew = Infinity;
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i] + step * dir[i];
      fNew = objective(xNew, gNew);
      if (fNew <= f + 1e-4 * step * slope) break;
      step *= 0.5;
    }
    if (!(fNew < f)) break;

    const s = sRing[head];
    const y = yRing[head];
    let sy = 0;
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i] - x[i];
      y[i] = gNew[i] - g[i];
      sy += s[i] * y[i];
    }
    if (sy > 1e-12) {
      rho[head] = 1 / sy;
      head = (head + 1) % m;
      stored = Math.min(stored + 1, m);
    }
    const decrease = (f - fNew) / Math.max(Math.abs(f), 1e-12);
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    f = fNew;
    if (decrease < rtol) {
      iter++;
      break;
    }
  }
  return { x, value: f, iterations: iter };
}
