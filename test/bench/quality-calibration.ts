// Confidence calibration of template-free fields on the development corpus, in process (no
// server, a few seconds): the reliability of the confidences the extractors give now (with the
// constants committed in src/pipeline/extract/confidence.ts), the cross-validated figures of
// the same fit (each document's fields predicted by maps fitted on the other folds only) and
// the constants a fit on the whole corpus gives, to paste into confidence.ts.
//
//   npm run bench -- quality-calibration [DIR] [--folds K]
//
// DIR (default ../shared/corpora/dev) holds sroie/ and invoice2data/ as described in its README.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { MODELS } from '../../src/pipeline/extract/confidence.js';
import { createPdfEngine } from '../../src/pipeline/parse/index.js';
import { collect, crossValidate, fitAll, report, transfer, type Sample } from '../helpers/extraction-calibration.js';
import { table } from './harness.js';

function show(title: string, samples: Sample[], bySet = true): void {
  console.log(`\n${title}`);
  const rows = (label: string, sets?: string[]) =>
    report(samples, sets).map((r) => ({
      set: label,
      field: r.field,
      given: r.n,
      accuracy: r.accuracy.toFixed(3),
      ece: r.ece.toFixed(3),
      brier: r.brier.toFixed(4),
      'reliability (confidence bin: n, mean confidence, accuracy)': r.bins,
    }));
  table(
    bySet
      ? [...rows('all'), ...rows('SROIE receipts', ['sroie']), ...rows('invoices', ['invoice2data', 'einvoice'])]
      : rows('tested'),
  );
}

export async function main(args: string[]): Promise<void> {
  const foldsAt = args.indexOf('--folds');
  const folds = foldsAt >= 0 ? Number(args[foldsAt + 1]) : 5;
  const dir =
    args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--folds') ??
    join(process.cwd(), '..', 'shared', 'corpora', 'dev');
  if (!existsSync(join(dir, 'sroie'))) throw new Error(`no corpus at ${dir}`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const pdf = createPdfEngine();
  const dropped: string[] = [];
  const samples = await collect(dir, pdf, dropped).finally(() => pdf.close());
  const missing = samples.filter((s) => !s.given).length;
  const sets = [...new Set(samples.map((s) => s.set))].map(
    (set) => `${set} ${new Set(samples.filter((s) => s.set === set).map((s) => s.doc)).size}`,
  );
  console.log(
    `template-free confidence calibration on ${dir}: ${new Set(samples.map((s) => s.doc)).size} documents (${sets.join(', ')}), ${samples.length} labelled fields (${missing} not found, left out of the calibration figures)`,
  );
  for (const d of dropped) console.log(`  label left out: ${d}`);
  show('confidences as extracted (committed constants; in-sample for the fitted maps):', samples);
  show(
    `${folds}-fold cross-validated (maps refitted without the held-out fold; folds by document):`,
    crossValidate(samples, folds),
  );
  const invoices = ['invoice2data', 'einvoice'];
  show(
    'fitted on the SROIE receipts only, applied to the invoices (a kind the fit never saw):',
    transfer(samples, ['sroie'], invoices),
    false,
  );
  show('fitted on the invoices only, applied to the SROIE receipts:', transfer(samples, invoices, ['sroie']), false);
  console.log(
    '\nconstants fitted on the whole corpus (intercept, then one weight per design feature of confidence.ts):',
  );
  const fitted = fitAll(samples);
  for (const [kind, w] of Object.entries(fitted)) {
    const committed = MODELS[kind as keyof typeof MODELS].weights;
    console.log(
      `  ${kind}: [${w.map((x) => x.toFixed(3)).join(', ')}]${committed ? `  (committed: [${committed.join(', ')}])` : '  (none committed)'}`,
    );
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `\n${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
