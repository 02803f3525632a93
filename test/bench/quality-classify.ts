// Classification quality on the labelled real documents of a corpus (DIR/classify): every
// document is uploaded through the API, runs through the real pipeline (queue, parse, embed,
// classify), and the type and confidence the API reports are scored: macro-F1, F1 per type,
// expected calibration error (10 bins) and a reliability table.
//
//   npm run bench -- quality-classify [DIR]     (DIR defaults to ../shared/corpora/dev)
//
// `classificationFigures` is what the full quality benchmark calls with its own server.
import { join } from 'node:path';
import {
  classificationReport,
  DEV_CORPUS,
  loadDevClassify,
  neutralName,
  reportFigures,
  type ScoredDocument,
} from '../helpers/classify-dev.js';
import { SECRETS, benchRedis, benchTmpDir, seed, startDocpipe } from './harness.js';

const TERMINAL = ['completed', 'failed', 'needs_review'];

async function call(baseUrl: string, apiKey: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${apiKey}`, ...(init.headers ?? {}) },
  });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body.error ?? body)}`);
  return body.data;
}

export async function classificationFigures(opts: {
  baseUrl: string;
  apiKey: string;
  projectId: string;
  dir: string;
}): Promise<Record<string, number | string>> {
  const docs = loadDevClassify(opts.dir);
  if (!docs) throw new Error(`no classification corpus at ${join(opts.dir, 'classify', 'manifest.json')}`);
  const ids: string[] = [];
  // Sequential uploads keep the pipeline's queue short; the figures do not depend on timing.
  for (const [i, d] of docs.entries()) {
    const form = new FormData();
    form.set('project_id', opts.projectId);
    form.set('allow_duplicate', 'true');
    form.set('file', new Blob([new Uint8Array(d.bytes)]), neutralName(d, i));
    ids.push((await call(opts.baseUrl, opts.apiKey, '/documents', { method: 'POST', body: form })).id);
  }
  const rows: ScoredDocument[] = [];
  const deadline = Date.now() + 30 * 60_000;
  for (const [i, id] of ids.entries()) {
    let doc = await call(opts.baseUrl, opts.apiKey, `/documents/${id}`);
    while (!TERMINAL.includes(doc.status)) {
      if (Date.now() > deadline) throw new Error(`document ${id} still ${doc.status} after 30 minutes`);
      await new Promise((r) => setTimeout(r, 200));
      doc = await call(opts.baseUrl, opts.apiKey, `/documents/${id}`);
    }
    // A document the pipeline could not classify counts as a miss with confidence 0.
    const missing =
      doc.status === 'failed'
        ? `(failed: ${doc.error?.code ?? 'unknown'} ${doc.error?.message ?? ''})`.trim()
        : '(none)';
    rows.push({
      file: docs[i].file,
      label: docs[i].label,
      predicted: doc.classification?.type ?? missing,
      confidence: doc.classification?.confidence ?? 0,
    });
  }
  return reportFigures(classificationReport(rows));
}

export async function main(args: string[]): Promise<void> {
  const dir = args[0] ?? DEV_CORPUS;
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
  try {
    const figures = await classificationFigures({ baseUrl: srv.url, apiKey: key, projectId, dir });
    console.log(
      `classification through the API (${dir}, ${((performance.now() - t0) / 1000).toFixed(0)} s including server start and the built-in model's training):`,
    );
    for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
  } finally {
    await srv.stop();
    await redis.stop();
  }
}
