// In-process classification figures on the labelled real documents (DIR/classify):
//  1. the built-in model (trained from samples/classifier only; the documents are never trained
//     on), with the time its training takes and the time classify() takes per document;
//  2. five-fold cross-validation of the organisation path: the built-in samples plus the other
//     folds' documents as confirmed documents (weight 3, as a retrain does), scored on the fold
//     held out. Every figure in (2) is on documents its model never saw.
//
//   npm run bench -- classify-cv [DIR]     (DIR defaults to ../shared/corpora/dev)
import { join } from 'node:path';
import {
  classify,
  loadSampleSet,
  stratifiedFolds,
  trainClassifier,
  type ClassifierModel,
} from '../../src/pipeline/classify/index.js';
import { packageRoot } from '../../src/lib/package-root.js';
import {
  classificationReport,
  DEV_CORPUS,
  loadDevClassify,
  parseDev,
  reportFigures,
  type ScoredDocument,
} from '../helpers/classify-dev.js';

const FOLDS = 5;
const CONFIRMED_WEIGHT = 3;

function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}

function print(title: string, figures: Record<string, number | string>): void {
  console.log(`\n${title}`);
  for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
}

export async function main(args: string[]): Promise<void> {
  const dir = args[0] ?? DEV_CORPUS;
  const docs = loadDevClassify(dir);
  if (!docs) throw new Error(`no classification corpus at ${join(dir, 'classify', 'manifest.json')}`);
  console.log(`parsing ${docs.length} documents…`);
  const parsed = await parseDev(docs);

  const samples = await loadSampleSet(join(packageRoot(), 'samples', 'classifier'));
  let c0 = process.cpuUsage();
  let t0 = performance.now();
  const builtin = trainClassifier(samples);
  console.log(
    `built-in model: ${samples.length} samples, trained in ${((performance.now() - t0) / 1000).toFixed(1)} s (${(cpuMs(c0) / 1000).toFixed(1)} s CPU), temperature ${builtin.temperature}, out-of-fold accuracy ${builtin.calibration.accuracy}`,
  );

  const score = (model: ClassifierModel, list: typeof parsed): ScoredDocument[] =>
    list.map((d) => {
      const r = classify(model, d.text);
      return { file: d.file, label: d.label, predicted: r.type, confidence: r.confidence };
    });
  print(
    'built-in model on the documents (none of them trained on):',
    reportFigures(classificationReport(score(builtin, parsed)), 'built-in'),
  );

  // classify() time per document, warm, median of 5 runs each.
  const times = parsed
    .map((d) => {
      const ts: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        classify(builtin, d.text);
        ts.push(performance.now() - t);
      }
      return ts.sort((a, b) => a - b)[2];
    })
    .sort((a, b) => a - b);
  console.log(
    `classify(): p50 ${times[Math.floor(times.length / 2)].toFixed(2)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms per document (text lengths ${Math.min(...parsed.map((d) => d.text.length))}–${Math.max(...parsed.map((d) => d.text.length))} characters)`,
  );

  // The type an organisation would confirm for each document.
  const confirmedType = (label: string) => (label === 'scientific_paper' || label === 'email' ? 'other' : label);
  const folds = stratifiedFolds(
    parsed.map((d) => ({ type: d.label })),
    FOLDS,
    7,
  );
  const rows: ScoredDocument[] = [];
  c0 = process.cpuUsage();
  t0 = performance.now();
  for (const held of folds) {
    const out = new Set(held);
    const confirmed = parsed.filter((_, i) => !out.has(i)).map((d) => ({ text: d.text, type: confirmedType(d.label) }));
    const model = trainClassifier([...samples, ...confirmed], {
      weights: [...samples.map(() => 1), ...confirmed.map(() => CONFIRMED_WEIGHT)],
    });
    rows.push(
      ...score(
        model,
        held.map((i) => parsed[i]),
      ),
    );
  }
  print(
    `${FOLDS}-fold cross-validation, built-in samples + the other folds as confirmed documents (${((performance.now() - t0) / 1000).toFixed(0)} s, ${(cpuMs(c0) / 1000).toFixed(0)} s CPU for ${FOLDS} trainings):`,
    reportFigures(classificationReport(rows), 'cross-validated'),
  );
}
