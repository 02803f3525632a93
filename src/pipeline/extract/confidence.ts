/**
 * Calibrated confidence for the template-free fields that matter most (total, document date,
 * issuer, invoice number): each is a small logistic map from the evidence of its pick
 * (evidence.ts) to the probability that the value is right.
 */
import { amountsAgree } from './amounts.js';
import { evidenceOf, type Evidence, type EvidenceKind } from './evidence.js';
import { clampConfidence, type ExtractedField, type ExtractedFields } from './types.js';

/** Fields whose confidence comes from a calibration model, by the model that calibrates them. */
export const CALIBRATED_FIELDS: Readonly<Record<string, EvidenceKind>> = {
  total: 'total',
  date: 'date',
  issue_date: 'date',
  merchant: 'party',
  vendor: 'party',
  invoice_number: 'id',
};

function num(f: ExtractedField | undefined): number | null {
  return f && typeof f.value === 'number' ? f.value : null;
}

/** 1 when other fields confirm the total by arithmetic, −1 when they contradict it, else 0. */
function crossCheck(fields: ExtractedFields): { sum: number; items: number } {
  const total = num(fields.total);
  const sub = fields.subtotal?.method === 'label' ? num(fields.subtotal) : null;
  const tax = fields.tax?.method === 'label' ? num(fields.tax) : null;
  let sum = 0;
  if (total !== null && sub !== null && tax !== null) sum = amountsAgree(sub + tax, total) ? 1 : -1;
  let items = 0;
  const rows = fields.line_items?.value;
  const amounts = Array.isArray(rows) ? rows.map((r) => (r !== null && typeof r === 'object' ? r.amount : null)) : [];
  if (total !== null && amounts.length > 0 && amounts.every((a) => typeof a === 'number')) {
    const s = (amounts as number[]).reduce((acc, a) => acc + a, 0);
    items = amountsAgree(s, total) || (sub !== null && amountsAgree(s, sub)) ? 1 : -1;
  }
  return { sum, items };
}

/**
 * The document types the maps were fitted on (real receipts and invoices); other types keep
 * their extractors' estimates, which nothing has measured against real documents yet.
 */
const CALIBRATED_TYPES: ReadonlySet<string> = new Set(['receipt', 'invoice']);

/** Adds the cross-field evidence and sets each calibrated field's confidence (mutates `fields`). */
export function calibrateConfidence(fields: ExtractedFields, type: string): void {
  const total = evidenceOf(fields.total);
  if (total) Object.assign(total.features, crossCheck(fields));
  if (!CALIBRATED_TYPES.has(type)) return;
  for (const [name, kind] of Object.entries(CALIBRATED_FIELDS)) {
    const f = fields[name];
    const ev = evidenceOf(f);
    if (!f || !ev || ev.kind !== kind) continue;
    // The extractor's own estimate is one input of the map.
    ev.features.prior = f.confidence;
    const p = predict(ev);
    if (p !== null) f.confidence = clampConfidence(p);
  }
}

export interface Model {
  /** Intercept then one weight per design feature; null keeps the extractor's estimate. */
  weights: readonly number[] | null;
  /** What the weights are pulled towards when fitting (no intercept): the extractor's estimate as is. */
  prior: readonly number[];
  /** L2 penalty towards `prior` when fitting. */
  lambda: number;
}

/**
 * Fitted on the development corpus beside the repository (../shared/corpora/dev: 100 SROIE
 * train receipts, invoice2data's 9 golden text invoices and 10 ZUGFeRD/Factur-X PDF invoices
 * labelled by their embedded XML; 116 totals, 117 dates, 109 merchants/vendors and 17 invoice
 * numbers found) by `npm run bench -- quality-calibration`, which also reports the 5-fold
 * cross-validated calibration of this fit: L2-penalised logistic regression (lambda 1 towards
 * `prior`) plus one right and one wrong pseudo-observation per map, so a field that was always
 * right (every dev date, every dev invoice number) gets a Laplace-like estimate rather than
 * certainty. Refit and paste when an extractor changes (dev-corpus.test.ts checks they match).
 * - total: 110 of 116 right; strong total wording, arithmetic confirmation and a clear lead
 *   each raise the confidence.
 * - date: 117 of 117 right, so the map only lifts the extractor's estimate towards 0.95–0.99.
 * - party: a name found below the third header line is mostly the wrong company (7 of 8 wrong).
 * - id: 17 of 17 invoice numbers right; a labelled number gets about 0.94, a guess less.
 */
export const MODELS: Readonly<Record<EvidenceKind, Model>> = {
  total: { weights: [1.422, 0.816, 0.691, 0.862], prior: [0, 0, 0], lambda: 1 },
  date: { weights: [3.21, 0.83], prior: [1], lambda: 1 },
  party: { weights: [0.998, 1.239, -0.874], prior: [1, 0], lambda: 1 },
  id: { weights: [0.98, 0.836], prior: [1], lambda: 1 },
};

const logit = (p: number): number => {
  const q = Math.min(0.98, Math.max(0.02, p));
  return Math.log(q / (1 - q));
};

/** The design features of a pick (the same transformation when fitting and predicting). */
export function design(ev: Evidence): number[] {
  const f = ev.features;
  const prior = logit(f.prior ?? 0.5);
  switch (ev.kind) {
    case 'total':
      // Unmistakable total wording on the figure's own line; subtotal + tax or tendered − change
      // giving the figure (or labelled subtotal and tax confirming it); the score lead over the
      // best other value.
      return [
        (f.label ?? 0) >= 2.5 ? 1 : 0,
        (f.arith ?? 0) >= 2 || f.sum === 1 ? 1 : 0,
        Math.min(6, f.margin ?? 0) / 6,
      ];
    case 'date':
      return [prior];
    case 'party':
      return [prior, (f.seen ?? 0) > 3 ? 1 : 0];
    case 'id':
      return [prior];
  }
}

/** The calibrated probability for a pick, or null to keep the extractor's own estimate. */
export function predict(ev: Evidence): number | null {
  const w = MODELS[ev.kind].weights;
  if (!w) return null;
  const z = design(ev).reduce((s, x, i) => s + x * (w[i + 1] ?? 0), w[0]);
  return 1 / (1 + Math.exp(-z));
}
