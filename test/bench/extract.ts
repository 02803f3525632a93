// In-process extraction time per text document: the template-free baseline, then the same
// documents with every bundled invoice2data template to choose from (and with the golden cases'
// own templates added, so some documents are read by a template), measured interleaved in the
// same run. Prints ms per document (p50, p95, mean) and the ratio to the baseline.
//
//   npm run bench -- extract [DIR] [--rounds N] [--limit N]
//
// DIR (default ../shared/corpora/dev) gives SROIE receipts, invoice2data's golden invoices and
// its bundled templates; without it the repository's own sample invoices, receipts and
// templates are used.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  evaluateTemplates,
  extractFields,
  parseTemplateYaml,
  rankMatches,
  type TemplateDef,
} from '../../src/pipeline/extract/index.js';
import { packageRoot } from '../../src/lib/package-root.js';
import { loadGoldenInvoices, loadSroie } from '../helpers/extraction-dev.js';
import { bundledTemplateFiles, loadGolden } from '../helpers/invoice2data-golden.js';
import { table } from './harness.js';

interface Doc {
  name: string;
  text: string;
  type: string;
}

function parseAll(files: Array<{ name: string; content: string }>): TemplateDef[] {
  return files.flatMap((f) => {
    const r = parseTemplateYaml(f.content, { name: f.name });
    return r.ok ? r.templates : [];
  });
}

function samples(): { docs: Doc[]; templates: TemplateDef[]; extra: TemplateDef[] } {
  const root = join(packageRoot(), 'samples');
  const docs = ['invoice', 'receipt'].flatMap((type) => {
    const dir = join(root, 'classifier', type);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .sort()
      .map((f) => ({ name: `${type}/${f}`, text: readFileSync(join(dir, f), 'utf8'), type }));
  });
  const tdir = join(root, 'templates');
  const templates = parseAll(
    readdirSync(tdir)
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => ({ name: f.replace(/\.ya?ml$/, ''), content: readFileSync(join(tdir, f), 'utf8') })),
  );
  return { docs, templates, extra: [] };
}

function corpus(dir: string): { docs: Doc[]; templates: TemplateDef[]; extra: TemplateDef[] } {
  const docs = [
    ...loadSroie(dir).map((d) => ({ name: d.name, text: d.text, type: 'receipt' })),
    ...loadGoldenInvoices(dir).map((d) => ({ name: d.name, text: d.text, type: 'invoice' })),
  ];
  const golden = loadGolden(dir);
  const seen = new Set<string>();
  const extra = parseAll(
    [...golden.custom, ...golden.extra]
      .flatMap((c) => c.templates)
      .filter((t) => !seen.has(t.name) && seen.add(t.name)),
  );
  return { docs, templates: parseAll(bundledTemplateFiles(dir)), extra };
}

const quantile = (xs: number[], q: number): number => xs[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? 0;

export async function main(args: string[]): Promise<void> {
  const opt = (name: string, dflt: number): number =>
    args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt;
  const rounds = opt('--rounds', 5);
  const limit = opt('--limit', Infinity);
  const dir =
    args.find((a, i) => !a.startsWith('--') && !['--rounds', '--limit'].includes(args[i - 1] ?? '')) ??
    join(process.cwd(), '..', 'shared', 'corpora', 'dev');
  const fromCorpus = existsSync(join(dir, 'invoice2data'));
  const set = fromCorpus ? corpus(dir) : samples();
  const docs = set.docs.slice(0, limit);

  const modes: Array<{ name: string; run: (d: Doc) => unknown }> = [
    { name: 'no templates (baseline)', run: (d) => extractFields({ text: d.text, type: d.type }) },
    {
      name: `${set.templates.length} ${fromCorpus ? 'bundled' : 'sample'} templates`,
      run: (d) => extractFields({ text: d.text, type: d.type, templates: set.templates }),
    },
  ];
  if (set.extra.length > 0) {
    const withExtra = [...set.templates, ...set.extra];
    modes.push({
      name: `  + the golden cases' ${set.extra.length} templates`,
      run: (d) => extractFields({ text: d.text, type: d.type, templates: withExtra }),
    });
  }
  // What the template trace does: every keyword of every template on its fully prepared text.
  modes.push({
    name: `  trace: every keyword of the ${set.templates.length}`,
    run: (d) => rankMatches(evaluateTemplates(set.templates, d.text, { full: true })),
  });

  // Warm-up (compiles patterns, builds each template's plan), then rounds with the modes
  // interleaved per document so that load on the machine hits every mode alike.
  for (const d of docs) for (const m of modes) m.run(d);
  const times = modes.map(() => [] as number[]);
  // CPU time as well: on a loaded machine wall time includes waiting for a core.
  const cpu = modes.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    for (const d of docs) {
      modes.forEach((m, i) => {
        const c = process.cpuUsage();
        const t = performance.now();
        m.run(d);
        times[i].push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpu[i] += (used.user + used.system) / 1000;
      });
    }
  }
  const matched =
    set.extra.length > 0
      ? docs.filter(
          (d) =>
            extractFields({ text: d.text, type: d.type, templates: [...set.templates, ...set.extra] }).method ===
            'template',
        ).length
      : 0;

  const stats = times.map((xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return {
      p50: quantile(s, 0.5),
      p95: quantile(s, 0.95),
      mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length),
    };
  });
  const base = stats[0];
  console.log(
    `extraction per text document in-process: ${docs.length} documents (${fromCorpus ? dir : 'repository samples'}), ${rounds} rounds after a warm-up; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  table(
    modes.map((m, i) => ({
      templates: m.name,
      'p50 ms': stats[i].p50.toFixed(2),
      'p95 ms': stats[i].p95.toFixed(2),
      'mean ms': stats[i].mean.toFixed(2),
      'CPU ms/doc': (cpu[i] / Math.max(1, times[i].length)).toFixed(2),
      'p50 × baseline': (stats[i].p50 / Math.max(1e-6, base.p50)).toFixed(2),
      'mean × baseline': (stats[i].mean / Math.max(1e-6, base.mean)).toFixed(2),
    })),
  );
  if (set.extra.length > 0)
    console.log(`documents read by a template with the golden templates added: ${matched} of ${docs.length}`);
}
