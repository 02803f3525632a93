// Confidence calibration of template-free fields on the shared development corpus, in process:
// collects every labelled field with the evidence of its pick, fits the per-field logistic maps
// of src/pipeline/extract/confidence.ts with K-fold cross-validation and reports the
// reliability of the confidences. The corpus is read in place, never copied.
import { evidenceOf, type Evidence } from '../../src/pipeline/extract/evidence.js';
import { MODELS, design, type Model } from '../../src/pipeline/extract/confidence.js';
import { extractFields } from '../../src/pipeline/extract/index.js';
import type { PdfEngine } from '../../src/pipeline/parse/index.js';
import { loadEInvoices } from './einvoice-dev.js';
import { answer, calibration, loadGoldenInvoices, loadSroie, score, type Outcome } from './extraction-dev.js';

export interface Sample extends Outcome {
  /** `sroie`, `invoice2data` or `einvoice`. */
  set: string;
  evidence?: Evidence;
}

/**
 * Every labelled template-free field of the dev corpus: right or wrong, its confidence and
 * evidence. SROIE receipts and invoice2data's golden invoices always; with a PDF engine (and
 * poppler's pdfdetach), the ZUGFeRD/Factur-X e-invoices too, labelled by their embedded XML.
 */
export async function collect(dir: string, pdf?: PdfEngine, dropped: string[] = []): Promise<Sample[]> {
  const docs = [
    ...loadSroie(dir).map((d) => ({ d, type: 'receipt', set: 'sroie' })),
    ...loadGoldenInvoices(dir).map((d) => ({ d, type: 'invoice', set: 'invoice2data' })),
    ...(pdf ? await loadEInvoices(dir, pdf, dropped) : []).map((d) => ({ d, type: 'invoice', set: 'einvoice' })),
  ];
  return docs.flatMap(({ d, type, set }) => {
    const fields = extractFields({ text: d.text, type }).fields;
    return score(d, fields).map((o) => ({ ...o, set, evidence: evidenceOf(answer(fields, o.field) as never) }));
  });
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/**
 * Logistic regression by Newton's method with an L2 penalty pulling the weights towards `prior`
 * (the intercept is free) and two pseudo-observations at the mean design, one right and one
 * wrong (a Beta(1, 1) prior on the rate): they keep the fit finite when every value is right and
 * keep rare features' weights near the prior.
 */
export function fitLogistic(xs: number[][], ys: number[], lambda: number, prior: readonly number[]): number[] {
  const d = (xs[0]?.length ?? prior.length) + 1;
  const mean = Array.from({ length: d - 1 }, (_, i) => xs.reduce((a, x) => a + x[i], 0) / Math.max(1, xs.length));
  const rows = [
    ...xs.map((x, n) => ({ x: [1, ...x], y: ys[n], wt: 1 })),
    { x: [1, ...mean], y: 1, wt: 1 },
    { x: [1, ...mean], y: 0, wt: 1 },
  ];
  const w = [0, ...prior];
  for (let iter = 0; iter < 100; iter++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const r of rows) {
      const p = sigmoid(r.x.reduce((s, v, i) => s + v * w[i], 0));
      for (let i = 0; i < d; i++) {
        g[i] += r.wt * (p - r.y) * r.x[i];
        for (let j = 0; j < d; j++) h[i][j] += r.wt * p * (1 - p) * r.x[i] * r.x[j];
      }
    }
    for (let i = 1; i < d; i++) {
      g[i] += lambda * (w[i] - prior[i - 1]);
      h[i][i] += lambda;
    }
    h[0][0] += 1e-9;
    const step = solve(h, g);
    let moved = 0;
    for (let i = 0; i < d; i++) {
      w[i] -= step[i];
      moved = Math.max(moved, Math.abs(step[i]));
    }
    if (moved < 1e-10) break;
  }
  return w;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const piv = m[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / piv;
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

const apply = (w: readonly number[], x: number[]): number => sigmoid(w[0] + x.reduce((s, v, i) => s + v * w[i + 1], 0));

/** Samples one model calibrates (those whose pick carries evidence of its kind). */
function ofModel(samples: Sample[], kind: string): Sample[] {
  return samples.filter((s) => s.given && s.evidence?.kind === kind);
}

/** Fits every model on all the samples (the constants committed in confidence.ts). */
export function fitAll(samples: Sample[], lambda?: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [kind, m] of Object.entries(MODELS) as Array<[string, Model]>) {
    const xs = ofModel(samples, kind);
    out[kind] = fitLogistic(
      xs.map((s) => design(s.evidence!)),
      xs.map((s) => (s.ok ? 1 : 0)),
      lambda ?? m.lambda,
      m.prior,
    );
  }
  return out;
}

/**
 * K-fold cross-validated confidences: each document's fields are predicted by models fitted on
 * the other folds only (folds by document, interleaved so each holds receipts and invoices).
 */
export function crossValidate(samples: Sample[], k = 5, lambda?: number): Sample[] {
  const docs = [...new Set(samples.map((s) => s.doc))];
  const fold = new Map(docs.map((d, i) => [d, i % k]));
  const out: Sample[] = [];
  for (let f = 0; f < k; f++) {
    const train = samples.filter((s) => fold.get(s.doc) !== f);
    const w = fitAll(train, lambda);
    for (const s of samples.filter((x) => fold.get(x.doc) === f)) {
      const kind = s.evidence?.kind;
      out.push(s.given && kind && w[kind] ? { ...s, confidence: apply(w[kind], design(s.evidence!)) } : s);
    }
  }
  return out;
}

/**
 * Maps fitted on some sets and applied to others (receipts to invoices and back): how the fit
 * carries to documents of a kind it never saw, as a held-back set may be.
 */
export function transfer(samples: Sample[], trainSets: readonly string[], testSets: readonly string[]): Sample[] {
  const w = fitAll(samples.filter((s) => trainSets.includes(s.set)));
  return samples
    .filter((s) => testSets.includes(s.set))
    .map((s) => {
      const kind = s.evidence?.kind;
      return s.given && kind && w[kind] ? { ...s, confidence: apply(w[kind], design(s.evidence!)) } : s;
    });
}

export const FIELDS = ['total', 'date', 'vendor', 'invoice_number'] as const;

/** Per field and overall: values given, accuracy of those, ECE (10 bins) and Brier score. */
export function report(
  samples: Sample[],
  sets?: readonly string[],
): Array<{ field: string; n: number; accuracy: number; ece: number; brier: number; bins: string }> {
  const rows = [];
  for (const f of [...FIELDS, 'all'] as const) {
    const xs = samples.filter(
      (s) => s.given && (f === 'all' || s.field === f) && (sets === undefined || sets.includes(s.set)),
    );
    if (xs.length === 0) continue;
    const c = calibration(xs);
    rows.push({
      field: f,
      n: xs.length,
      accuracy: xs.filter((s) => s.ok).length / xs.length,
      ece: c.ece,
      brier: xs.reduce((a, s) => a + (s.confidence - (s.ok ? 1 : 0)) ** 2, 0) / xs.length,
      bins: c.bins
        .map((b) => `${b.range}: n=${b.n} conf=${b.confidence.toFixed(2)} acc=${b.accuracy.toFixed(2)}`)
        .join(' | '),
    });
  }
  return rows;
}
