// Extraction and classification quality on a corpus of real documents, through the real
// pipeline (a `docpipe start` server with its queue and stages, reached over HTTP), plus the
// in-process extraction time. Prints every figure of the quality table and the calibration of
// each field's confidence.
//
//   npm run bench -- quality [DIR] [--limit N] [--skip-classification] [--baseline REF] [--rounds N]
//
// DIR (default ../shared/corpora/dev) holds sroie/, invoice2data/ and classify/ as described in
// its README. --limit caps every document set (a quick sanity run). --baseline names the commit
// whose extraction code the extraction time is compared with in the same run (default: the last
// commit before positions and learned templates); --rounds the timed rounds (default 5). Template-free extraction runs
// in the live environment, which has no templates; invoice2data's templates are imported into
// the test environment of the same organisation.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  attachPositions,
  extractFields,
  parseTemplateYaml,
  type TemplateDef,
} from '../../src/pipeline/extract/index.js';
import {
  createPdfEngine,
  layoutText,
  packLayout,
  parseDocument,
  positionIndex,
  type StoredLayout,
} from '../../src/pipeline/parse/index.js';
import { loadEInvoices } from '../helpers/einvoice-dev.js';
import {
  accuracy,
  calibration,
  correct,
  loadGoldenInvoices,
  loadSroie,
  score,
  type Outcome,
} from '../helpers/extraction-dev.js';
import { bundledTemplateFiles, compareGolden, loadGolden, type GoldenCase } from '../helpers/invoice2data-golden.js';
import { SECRETS, benchRedis, benchTmpDir, seed, startDocpipe, table } from './harness.js';
import { loadBaselineExtraction, type BaselineExtraction } from './extract-baseline.js';
import { classificationFigures } from './quality-classify.js';

const TERMINAL = ['completed', 'failed', 'needs_review'];

type Api = (path: string, init?: RequestInit) => Promise<any>;

function client(baseUrl: string, key: string): Api {
  return async (path, init = {}) => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
        ...(init.headers ?? {}),
      },
    });
    const body = (await res.json()) as any;
    if (!res.ok)
      throw Object.assign(
        new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body.error ?? body).slice(0, 300)}`),
        { status: res.status, body },
      );
    return body.data;
  };
}

/** Uploads texts and waits until each is processed; returns the documents as the API shows them. */
async function runDocs(
  api: Api,
  projectId: string,
  docs: Array<{ filename: string; text: string; bytes?: Buffer }>,
): Promise<any[]> {
  const ids: string[] = [];
  for (const d of docs) {
    const form = new FormData();
    form.set('project_id', projectId);
    form.set('allow_duplicate', 'true');
    form.set(
      'file',
      d.bytes
        ? new Blob([new Uint8Array(d.bytes)], { type: 'application/pdf' })
        : new Blob([d.text], { type: 'text/plain' }),
      d.filename,
    );
    ids.push((await api('/documents', { method: 'POST', body: form })).id);
  }
  const out: any[] = [];
  const deadline = Date.now() + 30 * 60_000;
  for (const id of ids) {
    let doc = await api(`/documents/${id}`);
    while (!TERMINAL.includes(doc.status)) {
      if (Date.now() > deadline) throw new Error(`document ${id} still ${doc.status} after 30 minutes`);
      await new Promise((r) => setTimeout(r, 150));
      doc = await api(`/documents/${id}`);
    }
    out.push(doc);
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function fieldValues(doc: any): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc.fields ?? {}).map(([k, f]: [string, any]) => [k, f.value]));
}

/** Every expected field of each golden case, against what the API extracted. */
function goldenScore(cases: GoldenCase[], docs: any[]): { right: number; total: number; misses: string[] } {
  let right = 0;
  let total = 0;
  const misses: string[] = [];
  cases.forEach((c, i) => {
    for (const d of compareGolden(c.expected, fieldValues(docs[i]))) {
      total++;
      if (d.ok) right++;
      else misses.push(`${c.name}.${d.field}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.got)}`);
    }
  });
  return { right, total, misses };
}

/**
 * Share of field values read from the document that carry a position (a box on a page or
 * offsets into the text). Values the API marks `computed` (a template's static fields, sums,
 * figures worked out from others) have none by design and are not counted; the names of the
 * values without one are counted for the notes.
 */
function positionShare(docs: any[]): { n: number; placed: number; without: Map<string, number> } {
  let n = 0;
  let placed = 0;
  const without = new Map<string, number>();
  for (const d of docs)
    for (const [k, f] of Object.entries(d.fields ?? {}) as Array<[string, any]>) {
      if (f.value === null || f.value === undefined || f.method === 'manual') continue;
      if (f.computed) continue;
      n++;
      if (f.position || f.cells) placed++;
      else without.set(k, (without.get(k) ?? 0) + 1);
    }
  return { n, placed, without };
}

/** Precision (right among values given) and recall (right among labelled) per field. */
function precisionRecall(outcomes: Outcome[], field: Outcome['field']): string {
  const xs = outcomes.filter((o) => o.field === field);
  const given = xs.filter((o) => o.given).length;
  const right = xs.filter((o) => o.ok).length;
  return `precision ${pct(right / Math.max(1, given))} (${right}/${given}), recall ${pct(right / Math.max(1, xs.length))} (${right}/${xs.length})`;
}

const issuerKey = (s: string | undefined) => (s ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** A document as the extract stage gets it: text, and for PDFs the layout the parser stored. */
interface TimedDoc {
  text: string;
  type: string;
  /** The parser's positioned words (PDFs). */
  layout?: StoredLayout | null;
  /** The parser's pages, for the baseline to pack in its own stored form. */
  pages?: unknown[];
  baseLayout?: unknown;
}

interface Timed {
  name: string;
  run: (d: TimedDoc) => unknown;
}

/**
 * Extraction time per document in this process: the modes run one after another on each
 * document, round after round, so the machine's drift hits every mode alike. Returns the mean
 * and the 95th percentile of each mode (ms), after one untimed round (patterns compiled,
 * template plans built).
 */
function timeModes(docs: TimedDoc[], modes: Timed[], rounds: number): Array<{ mean: number; p95: number }> {
  for (const d of docs) for (const m of modes) m.run(d);
  const ms = modes.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++)
    for (const d of docs)
      modes.forEach((m, i) => {
        const t = performance.now();
        m.run(d);
        ms[i].push(performance.now() - t);
      });
  return ms.map((xs) => {
    const sorted = xs.sort((a, b) => a - b);
    return {
      mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
      p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    };
  });
}

/** What the extract stage does now for one document: template choice, extraction, positions. */
function currentStage(d: TimedDoc, templates: TemplateDef[]): unknown {
  const r = extractFields({
    text: d.text,
    type: d.type,
    templates,
    ...(d.layout ? { templateText: layoutText(d.layout, d.text) } : {}),
  });
  return attachPositions(r.fields, positionIndex(d.text, d.layout ?? null));
}

/**
 * The commit the extraction time is compared with by default: the last one before the work of
 * issue 24 (positions, template mechanisms, learned templates). `--baseline REF` names another.
 */
const DEFAULT_BASELINE = '1593ac7';

export async function main(args: string[]): Promise<void> {
  const limitAt = args.indexOf('--limit');
  const limit = limitAt >= 0 ? Number(args[limitAt + 1]) : Infinity;
  const skipClassification = args.includes('--skip-classification');
  const baselineAt = args.indexOf('--baseline');
  const baselineRef = baselineAt >= 0 ? args[baselineAt + 1] : DEFAULT_BASELINE;
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
  const dir =
    args.find((a, i) => !a.startsWith('--') && !['--limit', '--baseline', '--rounds'].includes(args[i - 1] ?? '')) ??
    join(process.cwd(), '..', 'shared', 'corpora', 'dev');
  if (!existsSync(dir)) throw new Error(`no corpus at ${dir}`);
  const cap = <T>(xs: T[]): T[] => xs.slice(0, limit);
  const sroie = cap(loadSroie(dir));
  const goldenFree = cap(loadGoldenInvoices(dir));
  const golden = loadGolden(dir);
  const bundled = bundledTemplateFiles(dir);

  const redis = await benchRedis();
  const env: Record<string, string> = {
    ...SECRETS,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `benchquality${Date.now()}`,
    LOG_LEVEL: 'warn',
    DATA_DIR: benchTmpDir('docpipe-bench-quality-'),
    ...(process.env.EMBEDDING_MODEL_DIR ? { EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR } : {}),
  };
  const { key, projectId } = await seed(env, { projects: 1 });
  const t0 = performance.now();
  const srv = await startDocpipe('start', env);
  const rows: Array<Record<string, string | number>> = [];
  const notes: string[] = [];
  try {
    const live = client(srv.url, key);
    // A key makes keys of its own mode only: the test-mode key comes from a session.
    const login = await fetch(`${srv.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.test', password: 'benchmark-password' }),
    });
    const session = client(srv.url, ((await login.json()) as any).data.accessToken as string);
    const testKey = (
      await session('/api-keys', {
        method: 'POST',
        body: JSON.stringify({ name: 'quality-test', environment: 'test' }),
      })
    ).key as string;
    const test = client(srv.url, testKey);

    if (!skipClassification && existsSync(join(dir, 'classify'))) {
      const f = await classificationFigures({ baseUrl: srv.url, apiKey: key, projectId, dir });
      for (const [k, v] of Object.entries(f)) {
        const text = typeof v === 'number' ? String(Number(v.toFixed(3))) : v;
        // Multi-line figures (the reliability table, the list of errors) follow the table.
        if (text.includes('\n')) notes.push(`${k}:\n${text}`);
        else rows.push({ figure: k.startsWith('classification') ? k : `classification ${k}`, value: text });
      }
    }

    // Template-free extraction (live environment: no templates).
    const freeProject = (
      await live('/projects', {
        method: 'POST',
        body: JSON.stringify({ name: 'quality template-free', classification_threshold: 0 }),
      })
    ).id;
    const outcomes: Outcome[] = [];
    const sroieDocs = await runDocs(live, freeProject, sroie);
    const sroieOut = sroie.flatMap((d, i) => score(d, sroieDocs[i].fields ?? {}));
    outcomes.push(...sroieOut);
    for (const f of ['total', 'date', 'vendor'] as const) {
      const a = accuracy(sroieOut, f);
      rows.push({
        figure: `SROIE receipts, template-free: ${f === 'vendor' ? 'company' : f} exact`,
        value: `${pct(a.rate)} (${a.right}/${a.n})`,
      });
    }
    const freeDocs = await runDocs(live, freeProject, goldenFree);
    const freeOut = goldenFree.flatMap((d, i) => score(d, freeDocs[i].fields ?? {}));
    outcomes.push(...freeOut);
    const triple = freeOut.filter((o) => o.field !== 'vendor');
    const rate = (xs: Outcome[]) =>
      `${pct(xs.filter((o) => o.ok).length / Math.max(1, xs.length))} (${xs.filter((o) => o.ok).length}/${xs.length})`;
    const customTriple = triple.filter((o) => o.doc.startsWith('custom/'));
    rows.push({
      figure: "invoice2data's golden invoices (tests/custom), template-free: invoice number, date, amount",
      value: rate(customTriple),
    });
    rows.push({
      figure: '  with the unmerged pull requests #415 and #478 (extra/) as well',
      value: `${rate(triple)}; pr478's expected values are static in its templates and absent from its text`,
    });
    notes.push(
      ...triple
        .filter((o) => !o.ok)
        .map(
          (o) =>
            `template-free miss: ${o.doc}.${o.field}: expected ${JSON.stringify(o.expected)}, got ${JSON.stringify(o.found)}`,
        ),
    );

    // Each set of documents whose values' positions are counted, and whether it was a PDF.
    const positioned: Array<[string, any[], 'pdf' | 'text']> = [
      ['SROIE receipts (text)', sroieDocs, 'text'],
      ["invoice2data's golden invoices (text)", freeDocs, 'text'],
    ];

    // ZUGFeRD/Factur-X e-invoices, uploaded as PDFs, labelled by their embedded XML. Every
    // invoice PDF is also parsed here (text and layout) for the extraction time below.
    const pdf = createPdfEngine();
    const dropped: string[] = [];
    const invoiceDir = join(dir, 'classify', 'invoice');
    const invoicePdfs = existsSync(invoiceDir)
      ? cap(
          readdirSync(invoiceDir)
            .filter((f) => f.toLowerCase().endsWith('.pdf'))
            .sort(),
        )
      : [];
    const parsedPdfs: TimedDoc[] = [];
    const einvoices = cap(
      await loadEInvoices(dir, pdf, dropped)
        .then(async (e) => {
          for (const f of invoicePdfs) {
            const r = await parseDocument(
              { bytes: readFileSync(join(invoiceDir, f)), filename: f, maxPages: 50 },
              { pdf },
            );
            const layout = r.layout || r.ocrWords ? packLayout(r.layout ?? [], r.ocrWords) : null;
            parsedPdfs.push({ text: r.text, type: 'invoice', layout, pages: r.layout ?? [] });
          }
          return e;
        })
        .finally(() => pdf.close()),
    );
    // The invoice PDFs without an embedded XML count for positions only.
    const plainPdfs = invoicePdfs.filter((f) => !einvoices.some((e) => e.filename === f));
    if (plainPdfs.length > 0) {
      const docs = await runDocs(
        live,
        freeProject,
        plainPdfs.map((f) => ({ filename: f, text: '', bytes: readFileSync(join(invoiceDir, f)) })),
      );
      positioned.push(['other invoice PDFs (no labels)', docs, 'pdf']);
    }
    if (einvoices.length > 0) {
      const eDocs = await runDocs(
        live,
        freeProject,
        einvoices.map((d) => ({ ...d, bytes: readFileSync(join(dir, 'classify', 'invoice', d.filename)) })),
      );
      positioned.push(['ZUGFeRD/Factur-X invoices (PDF)', eDocs, 'pdf']);
      const eOut = einvoices.flatMap((d, i) => score(d, eDocs[i].fields ?? {}));
      outcomes.push(...eOut);
      for (const f of ['total', 'date', 'invoice_number', 'vendor'] as const) {
        const a = accuracy(eOut, f);
        rows.push({
          figure: `ZUGFeRD/Factur-X PDF invoices, template-free: ${f} exact (labels from the embedded XML)`,
          value: `${pct(a.rate)} (${a.right}/${a.n})`,
        });
      }
      notes.push(...dropped.map((d) => `e-invoice label left out: ${d}`));
      notes.push(
        ...eOut
          .filter((o) => !o.ok)
          .map(
            (o) =>
              `e-invoice miss: ${o.doc}.${o.field}: expected ${JSON.stringify(o.expected)}, got ${JSON.stringify(o.found)}`,
          ),
      );
    }

    // Golden cases with their own templates (tests/custom and the two pull requests' templates).
    // As in invoice2data's own tests, these cases run with their own templates only; the bundled
    // ones are imported afterwards.
    const seen = new Set<string>();
    for (const c of [...golden.custom, ...golden.extra]) {
      for (const t of c.templates) {
        if (seen.has(t.name)) continue;
        seen.add(t.name);
        await test('/templates/import', {
          method: 'POST',
          body: JSON.stringify({ yaml: t.content, name: t.name }),
        }).catch((e: Error) => notes.push(`template ${t.name}: ${e.message}`));
      }
    }
    const goldenProject = (
      await test('/projects', {
        method: 'POST',
        body: JSON.stringify({ name: 'quality golden', classification_threshold: 0 }),
      })
    ).id;
    const customDocs = await runDocs(
      test,
      goldenProject,
      golden.custom.map((c) => ({ filename: `${c.name.replace('/', '-')}.txt`, text: c.text })),
    );
    const customScore = goldenScore(golden.custom, customDocs);
    rows.push({
      figure: "invoice2data's golden invoices with its templates imported (tests/custom): every golden field",
      value: `${pct(customScore.right / Math.max(1, customScore.total))} (${customScore.right}/${customScore.total})`,
    });
    const extraDocs = await runDocs(
      test,
      goldenProject,
      golden.extra.map((c) => ({ filename: `${c.name.replace('/', '-')}.txt`, text: c.text })),
    );
    const extraScore = goldenScore(golden.extra, extraDocs);
    rows.push({
      figure: '  the unmerged pull requests #415 and #478 (extra/)',
      value: `${pct(extraScore.right / Math.max(1, extraScore.total))} (${extraScore.right}/${extraScore.total})`,
    });
    notes.push(...[...customScore.misses, ...extraScore.misses].map((m) => `golden miss: ${m}`));
    positioned.push([
      "invoice2data's golden invoices with their templates (text)",
      [...customDocs, ...extraDocs],
      'text',
    ]);

    for (const f of ['total', 'date', 'vendor', 'invoice_number'] as const)
      rows.push({ figure: `template-free ${f}, all labelled documents`, value: precisionRecall(outcomes, f) });
    for (const [kind, target, ok] of [
      ['PDFs', '≥ 95%', (r: number) => r >= 0.95],
      ['text', 'every value', (r: number) => r === 1],
    ] as const) {
      const sets = positioned.filter((p) => p[2] === (kind === 'PDFs' ? 'pdf' : 'text'));
      const all = positionShare(sets.flatMap((p) => p[1]));
      const r = all.placed / Math.max(1, all.n);
      rows.push({
        figure: `values read from ${kind} with a position (target ${target})`,
        value: `${pct(r)} (${all.placed}/${all.n}) ${all.n > 0 && ok(r) ? '✓' : '✗'}`,
      });
      for (const [set, docs] of sets) {
        const p = positionShare(docs);
        rows.push({ figure: `  ${set}`, value: `${pct(p.placed / Math.max(1, p.n))} (${p.placed}/${p.n})` });
        if (p.without.size > 0)
          notes.push(`values without a position in ${set}: ${[...p.without].map(([k, c]) => `${k} ${c}`).join(', ')}`);
      }
    }

    // invoice2data's bundled templates, imported one file at a time into the test environment.
    let imported = 0;
    const refused: string[] = [];
    for (const f of bundled) {
      try {
        imported += (
          (await test('/templates/import', {
            method: 'POST',
            body: JSON.stringify({ yaml: f.content, name: f.name }),
          })) as unknown[]
        ).length;
      } catch (e) {
        const details = ((e as { body?: any }).body?.error?.details ?? []) as Array<{ field: string; message: string }>;
        refused.push(`${f.path}: ${details.map((d) => `${d.field} ${d.message}`).join('; ') || (e as Error).message}`);
      }
    }
    rows.push({
      figure: "invoice2data's bundled templates imported",
      value: `${bundled.length - refused.length} / ${bundled.length} files (${imported} templates), each refusal with its reason below`,
    });
    notes.push(...refused.map((r) => `refused: ${r}`));

    // Learn-then-apply: for each SROIE issuer with at least three receipts, the first one is
    // corrected to its labels and a template is learned from it; the issuer's other receipts are
    // then read (in the live environment, after the template-free figures above were taken).
    const byIssuer = new Map<string, number[]>();
    sroie.forEach((d, i) => {
      const k = issuerKey(d.expected.vendor);
      if (k) byIssuer.set(k, [...(byIssuer.get(k) ?? []), i]);
    });
    const eligible = [...byIssuer.values()].filter((ix) => ix.length >= 3);
    const learnProject = (
      await live('/projects', {
        method: 'POST',
        body: JSON.stringify({ name: 'quality learn-then-apply', classification_threshold: 0 }),
      })
    ).id;
    const applied: Outcome[] = [];
    let byLearned = 0;
    let learnedCount = 0;
    const learnFailures: string[] = [];
    for (const ix of eligible) {
      const [first, ...rest] = ix;
      const doc = sroieDocs[first];
      const exp = sroie[first].expected;
      const found = doc.fields?.merchant?.value ?? doc.fields?.vendor?.value;
      // The person types the label's values; the name as the receipt prints it when the machine had it right.
      const merchant = found && correct('vendor', exp.vendor, found) ? found : exp.vendor;
      await live(`/documents/${doc.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ fields: { merchant, total: exp.total, date: exp.date } }),
      });
      let tplId: string;
      try {
        tplId = (await live('/templates/learn', { method: 'POST', body: JSON.stringify({ document_id: doc.id }) })).id;
        learnedCount++;
      } catch (e) {
        learnFailures.push(`${sroie[first].name}: ${(e as Error).message}`);
        continue;
      }
      const out = await runDocs(
        live,
        learnProject,
        rest.map((i) => sroie[i]),
      );
      out.forEach((d, j) => {
        if (d.models?.template_id === tplId) byLearned++;
        applied.push(...score(sroie[rest[j]], d.fields ?? {}));
      });
    }
    const appliedDocs = eligible.reduce((n, ix) => n + ix.length - 1, 0);
    rows.push({
      figure: 'learn-then-apply (SROIE issuers with ≥ 3 receipts): templates learned',
      value: `${learnedCount} / ${eligible.length} issuers; ${byLearned}/${appliedDocs} later receipts read by the learned template`,
    });
    for (const [f, target] of [
      ['total', 0.98],
      ['date', 0.98],
      ['vendor', 0.97],
    ] as const) {
      const a = accuracy(applied, f);
      rows.push({
        figure: `  later receipts: ${f === 'vendor' ? 'merchant' : f} exact (target ≥ ${target * 100}%)`,
        value: `${pct(a.rate)} (${a.right}/${a.n}) ${a.n > 0 && a.rate >= target ? '✓' : '✗'}`,
      });
    }
    notes.push(...learnFailures.map((m) => `learn failed: ${m}`));
    notes.push(
      ...applied
        .filter((o) => !o.ok)
        .map(
          (o) =>
            `learn-then-apply miss: ${o.doc}.${o.field}: expected ${JSON.stringify(o.expected)}, got ${JSON.stringify(o.found)}`,
        ),
    );

    // Extraction time per document in this process, the extract stage's work as it is now
    // (template choice among the bundled templates, extraction, each value's position; PDFs from
    // their layout) against the same work by the baseline commit's code, interleaved per document.
    const local = bundled.flatMap((f) => {
      const r = parseTemplateYaml(f.content, { name: f.name });
      return r.ok ? r.templates : [];
    });
    const timedText: TimedDoc[] = [...sroie, ...goldenFree].map((d) => ({
      text: d.text,
      type: d.name.startsWith('sroie') ? 'receipt' : 'invoice',
    }));
    const modes: Timed[] = [
      {
        name: 'now: no templates, no positions (features off)',
        run: (d) => extractFields({ text: d.text, type: d.type }),
      },
      {
        name: `now: ${local.length} bundled templates, no positions`,
        run: (d) =>
          extractFields({
            text: d.text,
            type: d.type,
            templates: local,
            ...(d.layout ? { templateText: layoutText(d.layout, d.text) } : {}),
          }),
      },
      {
        name: `now: ${local.length} bundled templates + positions (the extract stage)`,
        run: (d) => currentStage(d, local),
      },
    ];
    let base: BaselineExtraction | null = null;
    try {
      base = await loadBaselineExtraction(baselineRef);
      const b = base;
      const baseTemplates = bundled.flatMap((f) => {
        const r = b.parseTemplateYaml(f.content, { name: f.name });
        return r.ok ? r.templates : [];
      });
      for (const d of parsedPdfs) d.baseLayout = b.packLayout(d.pages ?? []);
      modes.push({
        name: `baseline ${b.commit}: ${baseTemplates.length} bundled templates (its extract stage)`,
        run: (d) =>
          b.extractFields({
            text: d.text,
            type: d.type,
            templates: baseTemplates,
            ...(d.baseLayout ? { templateText: b.layoutText(d.baseLayout, d.text) } : {}),
          }),
      });
    } catch (e) {
      notes.push(`extraction time baseline ${baselineRef} not measured: ${(e as Error).message}`);
    }
    for (const [set, docs] of [
      ['text document', timedText],
      ['PDF (layout text for templates)', parsedPdfs],
    ] as const) {
      if (docs.length === 0) continue;
      const t = timeModes(docs, modes, rounds);
      const stage = t[2];
      const baseT = base ? t[3] : null;
      modes.forEach((m, i) => {
        const ratio = baseT && i !== 3 ? ` (${(t[i].mean / Math.max(0.001, baseT.mean)).toFixed(2)}× baseline)` : '';
        rows.push({
          figure: `extraction per ${set} in process, ${docs.length} docs × ${rounds} rounds: ${m.name}`,
          value: `${t[i].mean.toFixed(2)} ms mean, ${t[i].p95.toFixed(2)} ms p95${ratio}`,
        });
      });
      if (baseT)
        rows.push({
          figure: `  ${set}: the extract stage now vs baseline (target within 20%)`,
          value: `${((stage.mean / Math.max(0.001, baseT.mean) - 1) * 100).toFixed(1)}% ${stage.mean <= baseT.mean * 1.2 ? '✓' : '✗'}`,
        });
    }
    base?.dispose();

    console.log(
      `quality through the API (${dir}; ${((performance.now() - t0) / 1000).toFixed(0)} s)${Number.isFinite(limit) ? `, at most ${limit} documents per set` : ''}:`,
    );
    table(rows);
    console.log(
      '\nconfidence calibration of template-free fields (10 bins; value = accuracy of the values given in the bin; the maps were fitted on this dev set, so in sample — `npm run bench -- quality-calibration` gives the cross-validated figures):',
    );
    const cal: Array<Record<string, string | number>> = [];
    const sets: Array<[string, (o: Outcome) => boolean]> = [
      ['all', () => true],
      ['SROIE receipts', (o) => o.doc.startsWith('sroie/')],
      ['invoices', (o) => !o.doc.startsWith('sroie/')],
    ];
    for (const [set, inSet] of sets) {
      for (const f of ['total', 'date', 'vendor', 'invoice_number', 'all'] as const) {
        const c = calibration(outcomes.filter((o) => inSet(o) && (f === 'all' || o.field === f)));
        if (c.n === 0) continue;
        cal.push({
          set,
          field: f,
          given: c.n,
          ece: Number(c.ece.toFixed(3)),
          bins: c.bins
            .map((b) => `${b.range}: n=${b.n} conf=${b.confidence.toFixed(2)} acc=${b.accuracy.toFixed(2)}`)
            .join(' | '),
        });
      }
    }
    table(cal);
    if (notes.length) console.log(`\n${notes.join('\n')}`);
  } finally {
    await srv.stop();
    await redis.stop();
  }
}
