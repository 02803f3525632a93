// An app plus the real pipeline workers (real Redis, real database, the generated tiny
// embedding model), for end-to-end document tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { STAGES, TERMINAL_STATUSES, type Stage } from '../../src/pipeline/stages.js';
import { stageJobId } from '../../src/modules/documents/flow.js';
import { startWorkers, type WorkerHandle } from '../../workers/index.js';
import { createTestApp, type Actor, type TestApp } from './app.js';
import type { DbKind } from './db.js';
import { multipart } from './multipart.js';
import { generateTinyModel } from './tiny-model.js';

export { multipart };

/** The worker roles of document processing: the four stages and maintenance (no mail, export or webhooks). */
export const PIPELINE_QUEUES: readonly string[] = [...STAGES, 'maintenance'];

let modelRoot: Promise<string> | undefined;

/** Generates the tiny model once per test process. */
export function tinyModelDir(): Promise<string> {
  modelRoot ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-model-'));
    await generateTinyModel(dir);
    return dir;
  })();
  return modelRoot;
}

export interface PipelineApp extends TestApp {
  workers: WorkerHandle;
}

export async function createPipelineApp(
  kind: DbKind = 'pglite',
  overrides: Record<string, string> = {},
  opts: { workers?: boolean } = {},
): Promise<PipelineApp> {
  const t = await createTestApp(kind, { EMBEDDING_MODEL_DIR: await tinyModelDir(), ...overrides });
  const workers =
    opts.workers === false
      ? { close: async () => undefined }
      : await startWorkers(t.deps, { queues: PIPELINE_QUEUES, concurrency: 2, schedulers: false });
  return {
    ...t,
    workers,
    async close() {
      await workers.close(5_000);
      await t.close();
    },
  };
}

export async function upload(
  t: TestApp,
  actor: Actor | { auth: Record<string, string> },
  projectId: string,
  name: string,
  data: Buffer,
  extra: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const mp = multipart({ project_id: projectId, ...extra }, { name, data });
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/documents',
    headers: { ...actor.auth, ...mp.headers },
    payload: mp.payload,
  });
}

const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_STATUSES);

/** Polls the database until the document reaches a terminal status (or the deadline passes). */
export async function waitForDocument(
  t: TestApp,
  id: string,
  timeoutMs = 30_000,
  statuses = TERMINAL,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await t.deps.db.query<Record<string, any>>('SELECT * FROM documents WHERE id = $1', [id]);
    if (rows[0] && statuses.has(rows[0].status)) return rows[0];
    if (Date.now() > deadline)
      throw new Error(
        `document ${id} still ${rows[0]?.status} after ${timeoutMs} ms (pipeline ${JSON.stringify(rows[0]?.pipeline)}; ${await stageJobReport(t, rows[0])})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Where the document's current stage job is, for a timeout's message: the queue knows why a document waits. */
async function stageJobReport(t: TestApp, row: Record<string, any> | undefined): Promise<string> {
  const stage = row?.pipeline?.current as Stage | undefined;
  if (!row || !stage) return 'no current stage';
  try {
    const queue = t.deps.queues.get(stage);
    const jobId = stageJobId(stage, row.id as string, row.version as number);
    const state = await queue.getJobState(jobId);
    const job = await queue.getJob(jobId);
    const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'failed');
    return `job ${jobId} ${state}, attempts ${job?.attemptsMade ?? '-'}, reason ${job?.failedReason ?? '-'}, queue ${JSON.stringify(counts)}`;
  } catch (err) {
    return `job state unknown: ${(err as Error).message}`;
  }
}

export async function createProject(
  t: TestApp,
  actor: Actor | { auth: Record<string, string> },
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/projects',
    headers: actor.auth,
    payload: { name: 'Docs', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`project creation failed: ${res.body}`);
  return res.json().data.id;
}
