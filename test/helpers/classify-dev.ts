// The labelled real-document classification set in ../shared/corpora/dev/classify (evaluation
// data kept outside the repository), and the figures the quality measurement reports on it.
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { expectedCalibrationError, type ReliabilityBin } from '../../src/pipeline/classify/evaluate.js';
import { packageRoot } from '../../src/lib/package-root.js';
import { createPdfEngine, parseDocument } from '../../src/pipeline/parse/index.js';

/** `<repo>/../shared/corpora/dev`, from sources and from dist/ alike, whatever the working directory. */
export const DEV_CORPUS = join(packageRoot(), '..', 'shared', 'corpora', 'dev');

export interface DevDocument {
  /** Path under `classify/`, e.g. `invoice/x.pdf`. */
  file: string;
  /** The corpus label: invoice, receipt, resume, contract, scientific_paper, email. */
  label: string;
  bytes: Buffer;
}

/** The documents listed in `<dir>/classify/manifest.json`, or null when the folder is absent. */
export function loadDevClassify(dir = DEV_CORPUS): DevDocument[] | null {
  const manifest = join(dir, 'classify', 'manifest.json');
  if (!existsSync(manifest)) return null;
  const entries = JSON.parse(readFileSync(manifest, 'utf8')) as Array<{ file: string; label: string }>;
  return entries.map((e) => ({ file: e.file, label: e.label, bytes: readFileSync(join(dir, 'classify', e.file)) }));
}

/**
 * A name carrying only the extension, for uploads and parsing: the corpus's file names say what
 * a document is, and no figure should depend on them (the classifier never reads names, and
 * this keeps it that way).
 */
export function neutralName(doc: DevDocument, index: number): string {
  return `doc-${String(index + 1).padStart(3, '0')}${extname(basename(doc.file)).toLowerCase()}`;
}

/** Parsed text of every document, as the parse stage produces it. */
export async function parseDev(docs: DevDocument[]): Promise<Array<DevDocument & { text: string }>> {
  const pdf = createPdfEngine();
  try {
    const out: Array<DevDocument & { text: string }> = [];
    for (const [i, d] of docs.entries()) {
      const r = await parseDocument({ bytes: d.bytes, filename: neutralName(d, i), maxPages: 500 }, { pdf });
      out.push({ ...d, text: r.text });
    }
    return out;
  } finally {
    await pdf.close();
  }
}

/**
 * The service's type for a corpus label. The service has no paper or e-mail type: a paper is
 * `other`, an e-mail is right as `letter` or `other` (whichever was predicted), and anything
 * else counts against `other`.
 */
export function expectedType(label: string, predicted: string): string {
  if (label === 'scientific_paper') return 'other';
  if (label === 'email') return predicted === 'letter' || predicted === 'other' ? predicted : 'other';
  return label;
}

export interface ScoredDocument {
  file: string;
  label: string;
  predicted: string;
  confidence: number;
}

export interface ClassMetrics {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface ClassificationReport {
  n: number;
  accuracy: number;
  /** Mean F1 over every type that is expected or predicted at least once (a stray type counts as 0). */
  macroF1: number;
  perClass: Record<string, ClassMetrics>;
  /** Expected calibration error of the top confidence, 10 equal-width bins. */
  ece: number;
  bins: ReliabilityBin[];
  errors: Array<ScoredDocument & { expected: string }>;
}

export function classificationReport(rows: ScoredDocument[]): ClassificationReport {
  const scored = rows.map((r) => ({ ...r, expected: expectedType(r.label, r.predicted) }));
  const types = [...new Set(scored.flatMap((r) => [r.expected, r.predicted]))].sort();
  const perClass: Record<string, ClassMetrics> = {};
  for (const t of types) {
    const tp = scored.filter((r) => r.expected === t && r.predicted === t).length;
    const predicted = scored.filter((r) => r.predicted === t).length;
    const support = scored.filter((r) => r.expected === t).length;
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    perClass[t] = {
      precision,
      recall,
      f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
      support,
    };
  }
  const correct = scored.map((r) => r.expected === r.predicted);
  const { ece, bins } = expectedCalibrationError(
    scored.map((r) => r.confidence),
    correct,
  );
  return {
    n: scored.length,
    accuracy: scored.length ? correct.filter(Boolean).length / scored.length : 0,
    macroF1: types.length ? types.reduce((s, t) => s + perClass[t].f1, 0) / types.length : 0,
    perClass,
    ece,
    bins,
    errors: scored.filter((r) => r.expected !== r.predicted),
  };
}

/** Reliability table: one line per non-empty bin (range, count, mean confidence, accuracy). */
export function reliabilityTable(bins: ReliabilityBin[]): string {
  const lines = ['confidence  n    mean conf  accuracy'];
  for (const b of bins) {
    if (b.count === 0) continue;
    lines.push(
      `${b.lower.toFixed(1)}-${b.upper.toFixed(1)}     ${String(b.count).padEnd(4)} ${b.meanConfidence.toFixed(3).padEnd(10)} ${b.accuracy.toFixed(3)}`,
    );
  }
  return lines.join('\n');
}

/** The report as flat figures (what the quality benchmark prints). */
export function reportFigures(r: ClassificationReport, prefix = 'classification'): Record<string, number | string> {
  const out: Record<string, number | string> = {
    [`${prefix} documents`]: r.n,
    [`${prefix} macro-F1`]: round(r.macroF1),
    [`${prefix} accuracy`]: round(r.accuracy),
    [`${prefix} ECE (10 bins)`]: round(r.ece),
  };
  for (const [t, m] of Object.entries(r.perClass)) out[`${prefix} F1 ${t}`] = round(m.f1);
  out[`${prefix} reliability`] = `\n${reliabilityTable(r.bins)}`;
  if (r.errors.length)
    out[`${prefix} errors`] =
      `\n${r.errors.map((e) => `${e.file}: ${e.expected} -> ${e.predicted} (${e.confidence.toFixed(2)})`).join('\n')}`;
  return out;
}

const round = (v: number) => Math.round(v * 1000) / 1000;
