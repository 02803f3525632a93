// The built-in classifier on real documents nobody here wrote (../shared/corpora/dev/classify,
// evaluation data kept outside the repository; none of it is trained on): the product targets
// are macro-F1 >= 0.95 and an expected calibration error <= 0.05. Parsed by the real parser, so
// long PDFs are read as the pipeline reads them. `npm run bench -- quality-classify` measures
// the same through the API.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { classify, parseModel, type ClassifierModel } from '../../../src/pipeline/classify/index.js';
import {
  classificationReport,
  DEV_CORPUS,
  loadDevClassify,
  parseDev,
  reliabilityTable,
  type ClassificationReport,
} from '../../helpers/classify-dev.js';
import { builtinClassifierFile } from '../../helpers/docs-app.js';

const docs = loadDevClassify();
if (!docs) console.warn(`dev-set classification test skipped: ${DEV_CORPUS}/classify is not present`);

describe.skipIf(!docs)('built-in classifier on the real-document dev set', () => {
  let model: ClassifierModel;
  let report: ClassificationReport;

  beforeAll(async () => {
    model = parseModel(readFileSync(await builtinClassifierFile(), 'utf8'));
    const parsed = await parseDev(docs!);
    report = classificationReport(
      parsed.map((d) => {
        const r = classify(model, d.text);
        return { file: d.file, label: d.label, predicted: r.type, confidence: r.confidence };
      }),
    );
    console.log(
      `dev set: macro-F1 ${report.macroF1.toFixed(3)}, ECE ${report.ece.toFixed(3)}, ${report.errors.length} errors\n${reliabilityTable(report.bins)}`,
    );
  }, 300_000);

  it('covers every kind of the set', () => {
    expect(report.n).toBe(docs!.length);
    expect(new Set(docs!.map((d) => d.label))).toEqual(
      new Set(['invoice', 'receipt', 'resume', 'contract', 'scientific_paper', 'email']),
    );
  });

  it('reaches macro-F1 >= 0.95 over the types it is scored on', () => {
    expect(report.macroF1).toBeGreaterThanOrEqual(0.95);
    for (const t of ['invoice', 'receipt', 'resume', 'contract', 'other'])
      expect(report.perClass[t].f1).toBeGreaterThanOrEqual(0.85);
  });

  it('says what its confidence means: ECE (10 bins) <= 0.05', () => {
    expect(report.ece).toBeLessThanOrEqual(0.05);
  });
});
