// A pipeline worker in its own OS process, for crash tests: it opens the same PostgreSQL schema,
// Redis prefix and data dir as the test, runs the four stage workers with the given lock tuning,
// and talks to the parent over IPC (ready, which job became active, stop). Start it with
// `forkWorkerProcess()`; the child side is `run()`.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/container.js';
import { createDb } from '../../src/db/client.js';
import { createLogger } from '../../src/lib/logger.js';
import { STAGES, type Stage } from '../../src/modules/documents/documents.types.js';
import { startStageWorker, type PipelineWorkerOptions } from '../../workers/pipeline.js';

/** What the child needs to join the test's installation. */
export interface WorkerProcessOptions {
  /** Environment for loadConfig (DATA_DIR, REDIS_PREFIX, secrets, model settings, …). */
  env: Record<string, string>;
  /** PostgreSQL (a schema shared with the test), or a PGlite data dir the test has let go of. */
  db: { url: string; schema: string } | { pgliteDir: string };
  redisUrl: string;
  lock: PipelineWorkerOptions;
  /** Per-stage concurrency multiplier. Default 1. */
  concurrency?: number;
}

export type WorkerProcessMessage =
  | { type: 'ready' }
  | { type: 'active'; stage: Stage; jobId: string }
  | { type: 'completed'; stage: Stage; jobId: string; result: unknown }
  | { type: 'stopped' };

/** Child side: start the workers, report job activity, stop cleanly on a `stop` message. */
export async function run(o: WorkerProcessOptions): Promise<void> {
  const send = (m: WorkerProcessMessage) => {
    process.send?.(m);
  };
  const config = loadConfig(o.env, { persistSecrets: false });
  const db = await createDb('pgliteDir' in o.db ? { pgliteDir: o.db.pgliteDir } : { ...o.db, poolSize: 3 });
  const deps = await createDeps(config, {
    db,
    redisUrl: o.redisUrl,
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
  });
  // The stage workers themselves (not through the worker table), to report their jobs' activity.
  const workers = STAGES.map((stage) => startStageWorker(stage, deps, o.concurrency ?? 1, o.lock));
  workers.forEach((w, i) => {
    w.on('active', (job) => send({ type: 'active', stage: STAGES[i], jobId: job.id ?? '' }));
    w.on('completed', (job, result) => send({ type: 'completed', stage: STAGES[i], jobId: job.id ?? '', result }));
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  process.on('message', (m: { type?: string }) => {
    if (m?.type !== 'stop') return;
    void (async () => {
      await Promise.all(workers.map((w) => w.close()));
      await deps.close();
      await db.close();
      send({ type: 'stopped' });
      process.exit(0);
    })();
  });
  send({ type: 'ready' });
}

/** The config values a worker process must share with the test's app. */
export function workerEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: config.dataDir,
    REDIS_PREFIX: config.REDIS_PREFIX,
    JWT_SECRET: config.JWT_SECRET,
    ENCRYPTION_KEY: config.ENCRYPTION_KEY,
    EMBEDDING_MODEL: config.EMBEDDING_MODEL,
    ALLOW_MODEL_DOWNLOAD: String(config.ALLOW_MODEL_DOWNLOAD),
    CLASSIFY_KNN: String(config.CLASSIFY_KNN),
    MAX_PAGES: String(config.MAX_PAGES),
    MAX_UPLOAD_MB: String(config.MAX_UPLOAD_MB),
  };
  if (config.EMBEDDING_MODEL_DIR) env.EMBEDDING_MODEL_DIR = config.EMBEDDING_MODEL_DIR;
  // The trained built-in classifier, so a worker process does not train its own.
  if (config.CLASSIFIER_CACHE_DIR) env.CLASSIFIER_CACHE_DIR = config.CLASSIFIER_CACHE_DIR;
  return env;
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Messages received so far. */
  messages: WorkerProcessMessage[];
  /** Resolves with the first message (past or future) matching `pred`. */
  waitFor(pred: (m: WorkerProcessMessage) => boolean, timeoutMs?: number): Promise<WorkerProcessMessage>;
  /** SIGKILL, resolving once the process is gone. */
  kill(): Promise<void>;
  /** Asks the workers to finish and exit; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  stderr(): string;
}

const ENTRY = fileURLToPath(new URL('./run-ts.mjs', import.meta.url));
const MODULE = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/**
 * Forks the worker process. The child loads this TypeScript file through run-ts.mjs (the
 * project's loader strips types), so no build step is needed; resolves once its workers listen.
 */
export async function forkWorkerProcess(o: WorkerProcessOptions, readyTimeoutMs = 60_000): Promise<WorkerProcess> {
  const child = fork(ENTRY, [MODULE, JSON.stringify(o)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err = (err + c.toString()).slice(-20_000);
  });
  const messages: WorkerProcessMessage[] = [];
  const listeners = new Set<() => void>();
  child.on('message', (m: WorkerProcessMessage) => {
    messages.push(m);
    for (const l of [...listeners]) l();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const waitFor = (pred: (m: WorkerProcessMessage) => boolean, timeoutMs = 30_000) =>
    new Promise<WorkerProcessMessage>((resolve, reject) => {
      const check = () => {
        const hit = messages.find(pred);
        if (hit) {
          done();
          resolve(hit);
          return true;
        }
        if (gone()) {
          done();
          reject(new Error(`worker process exited (${child.exitCode ?? child.signalCode}); stderr: ${err}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`worker process: no matching message after ${timeoutMs} ms; stderr: ${err}`));
      }, timeoutMs);
      const onExit = () => {
        check();
      };
      const done = () => {
        clearTimeout(timer);
        listeners.delete(listener);
        child.off('exit', onExit);
      };
      const listener = () => {
        check();
      };
      if (check()) return;
      listeners.add(listener);
      child.once('exit', onExit);
    });
  const proc: WorkerProcess = {
    child,
    messages,
    waitFor,
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 10_000) {
      if (gone()) return;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
    stderr: () => err,
  };
  try {
    await waitFor((m) => m.type === 'ready', readyTimeoutMs);
  } catch (e) {
    await proc.kill();
    throw e;
  }
  return proc;
}
