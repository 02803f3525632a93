import { openAsBlob } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isTerminalStatus, STAGES, type Stage } from '../pipeline/stages.js';
import { createApiClient, errorText, type ApiClient } from './http-client.js';
import { createProgress } from './progress.js';
import { parseCommand, usageLines } from './usage.js';

async function collectFiles(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const s = await stat(p);
    if (s.isDirectory()) {
      const entries = (await readdir(p, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
      out.push(...(await collectFiles(entries.map((e) => join(p, e.name)))));
    } else if (s.isFile()) out.push(p);
  }
  return out;
}

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

type Progress = ReturnType<typeof createProgress>;

/** The client shows rate-limit waits on whichever progress line is current. */
function connection(values: { url?: string; key?: string }, progress: () => Progress | undefined): ApiClient {
  const url = values.url ?? process.env.DOCPIPE_URL ?? 'http://localhost:8000';
  const key = values.key ?? process.env.DOCPIPE_API_KEY;
  if (!key) throw new Error('An API key is needed: --key svc_… or DOCPIPE_API_KEY');
  return createApiClient(url, key, {
    onRateLimitWait: (s) => progress()?.note(s > 0 ? `waiting for rate limit (${s} s)` : ''),
  });
}

/** Ids per status request: the list's page size, and well under any URL length limit. */
const FOLLOW_BATCH = 100;
const FOLLOW_INTERVAL_MS = 2000;

/**
 * Follows uploaded documents to a terminal status with one list request per interval (the
 * oldest still-pending ids first), so that waiting costs a few requests a minute whatever the
 * number of files, instead of one per document per second.
 */
async function follow(api: ApiClient, ids: string[], bar: Progress, intervalMs: number) {
  const docs = new Map<string, { status: string; embedNote?: string }>();
  let pending = ids;
  while (pending.length > 0) {
    const chunk = pending.slice(0, FOLLOW_BATCH);
    const res = await api.call('GET', '/documents', { query: { ids: chunk.join(','), per_page: FOLLOW_BATCH } });
    if (res.status >= 400 && res.status < 500) throw new Error(`following the uploads failed: ${errorText(res)}`);
    if (res.status === 200) {
      const seen = new Set<string>();
      for (const d of res.body.data) {
        seen.add(d.id);
        if (isTerminalStatus(d.status)) docs.set(d.id, { status: d.status, embedNote: d.pipeline.notes.embed });
      }
      // Asked for and not listed: deleted meanwhile.
      for (const id of chunk) if (!seen.has(id)) docs.set(id, { status: 'deleted' });
      pending = pending.filter((id) => !docs.has(id));
      bar.set(docs.size);
    }
    // A 5xx or an unreadable answer: ask again next interval.
    if (pending.length > 0) await new Promise((r) => setTimeout(r, intervalMs));
  }
  return docs;
}

/** `docpipe ingest PATH… --project ID`: uploads files and folders, optionally waits for processing. */
async function ingest(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('ingest', args);
  if (!values.project) throw new Error('--project ID is required');
  if (positionals.length === 0) throw new Error('Give at least one file or folder');
  let bar: Progress | undefined;
  const api = connection(values, () => bar);
  const files = await collectFiles(positionals);
  bar = createProgress('uploading', files.length);
  const created: string[] = [];
  const failures: { file: string; reason: string }[] = [];
  let duplicates = 0;
  await pool(files, Number(values.concurrency ?? 4), async (file) => {
    const form = new FormData();
    form.set('project_id', values.project!);
    if (values['allow-duplicate']) form.set('allow_duplicate', 'true');
    form.set('file', await openAsBlob(file), basename(file));
    try {
      const res = await api.call('POST', '/documents', { form });
      if (res.status === 201) created.push(res.body.data.id);
      else if (res.status === 200 && res.body.data.duplicate) duplicates++;
      else failures.push({ file, reason: errorText(res) });
    } catch (err) {
      failures.push({ file, reason: (err as Error).message });
    }
    bar!.tick();
  });
  bar.finish();
  console.log(
    `uploaded ${created.length}, duplicates ${duplicates}, failed ${failures.length} (of ${files.length} files)`,
  );
  for (const f of failures.slice(0, 50)) console.log(`  failed: ${f.file}: ${f.reason}`);
  if (values.wait && created.length) {
    bar = createProgress('processing', created.length);
    const docs = await follow(api, created, bar, FOLLOW_INTERVAL_MS);
    bar.finish();
    const counts: Record<string, number> = {};
    const skippedEmbedding = new Map<string, number>();
    for (const d of docs.values()) {
      counts[d.status] = (counts[d.status] ?? 0) + 1;
      if (d.embedNote?.startsWith('embedding skipped'))
        skippedEmbedding.set(d.embedNote, (skippedEmbedding.get(d.embedNote) ?? 0) + 1);
    }
    console.log(
      `processed: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    for (const [note, n] of skippedEmbedding) console.log(`  ${n} without embeddings (${note})`);
    if (counts.failed) return 1;
  }
  return failures.length ? 1 : 0;
}

/** A --stage name, checked here so that a typo is named before anything is sent. */
function stageName(s: string): Stage {
  const found = STAGES.find((x) => x === s);
  if (!found) throw new Error(`Unknown stage "${s}" (stages: ${STAGES.join(', ')})`);
  return found;
}

/** `docpipe reprocess --project ID --stage S`: starts a batch and follows it to the end. */
async function reprocess(args: string[]): Promise<number> {
  const { values } = parseCommand('reprocess', args);
  if (!values.project && !values.documents) throw new Error('--project ID or --documents id,id is required');
  if (values.missing && values.all) throw new Error('Give --missing or --all, not both');
  // Set once following starts; the client's rate-limit notes go to it from then on.
  let bar: Progress | undefined = undefined;
  const api = connection(values, () => bar);
  const body = {
    ...(values.project
      ? { project_id: values.project }
      : { document_ids: values.documents!.split(',').map((s) => s.trim()) }),
    ...(values.stage ? { stages: values.stage.split(',').map((s) => stageName(s.trim())) } : {}),
    mode: values.all ? ('all' as const) : ('missing' as const),
  };
  const res = await api.call('POST', '/documents/reprocess', { body });
  if (res.status !== 202) {
    console.error(`reprocess failed: ${errorText(res)}`);
    return 1;
  }
  let batch = res.body.data;
  console.log(`batch ${batch.id}: ${batch.total} documents (${body.mode})`);
  if (values['no-wait']) return 0;
  bar = createProgress('reprocessing', batch.total);
  while (batch.status !== 'completed') {
    await new Promise((r) => setTimeout(r, FOLLOW_INTERVAL_MS));
    const res = await api.call('GET', '/batches/{id}', { path: { id: batch.id } });
    if (res.status >= 400 && res.status < 500) throw new Error(`following the batch failed: ${errorText(res)}`);
    if (res.status !== 200) continue; // a 5xx: ask again next interval
    batch = res.body.data;
    bar.set(batch.completed + batch.skipped + batch.failed, batch.total);
    // While the batch is still being walked, total is the count made when it started.
    bar.note(batch.walking ? `${batch.queued} queued so far` : '');
  }
  bar.finish();
  console.log(`completed ${batch.completed}, skipped ${batch.skipped}, failed ${batch.failed}`);
  // Skips share their cause (one missing model): one line per distinct reason, not per document.
  const reasons = new Map<string, number>();
  for (const s of batch.skips) {
    const r = `${s.reason?.stage ?? ''}: ${s.reason?.code ?? ''} ${s.reason?.message ?? ''}`.trim();
    reasons.set(r, (reasons.get(r) ?? 0) + 1);
  }
  for (const [r, n] of reasons) console.log(`  skipped ${n}: ${r}`);
  for (const f of batch.failures)
    console.log(`  failed: ${f.document_id}: ${f.error?.code ?? ''} ${f.error?.message ?? ''}`);
  return batch.failed || batch.skipped ? 1 : 0;
}

export async function runClientCommand(cmd: string, args: string[]): Promise<number> {
  try {
    return cmd === 'ingest' ? await ingest(args) : await reprocess(args);
  } catch (err) {
    const usage = ((err as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS')
      ? `\n\nUsage:\n${usageLines(cmd)}`
      : '';
    console.error((err as Error).message + usage);
    return 2;
  }
}
