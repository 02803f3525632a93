// The real app plus the e-mail intake module (routes and poller) against a private Dovecot, for
// integration tests: real Redis, real database, optional real pipeline workers, and poller
// timings in milliseconds instead of minutes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { createDeps } from '../../src/container.js';
import { createDb } from '../../src/db/client.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import {
  type MailModule,
  type MailPoller,
  type MailPollerOptions,
} from '../../src/modules/integrations/mailbox/index.js';
import type { MailMessageRow } from '../../src/modules/integrations/mailbox/mailbox.types.js';
import { startWorkers, type WorkerHandle } from '../../workers/index.js';
import { startMailWorker } from '../../workers/mail.js';
import { createActor, testConfig, type Actor, type TestApp } from './app.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';
import { startDovecot, type PrivateDovecot } from './dovecot.js';
import { tinyModelDir } from './pipeline.js';

/** Poller timings for tests: every wait is short, nothing depends on the production minutes. */
export const TEST_POLLER_OPTIONS: MailPollerOptions = {
  refreshIntervalMs: 200,
  leaseTtlMs: 1_500,
  // Long on purpose: new mail must arrive through IDLE (tests wait far less than this).
  pollIntervalMs: 30_000,
  autoIdleDelayMs: 100,
  reconnectBaseMs: 100,
  reconnectMaxMs: 400,
  errorRetryMs: 60_000,
  transientErrorThreshold: 3,
  retryDelaysMs: [100, 200],
  claimTtlMs: 1_500,
  connect: { connectTimeoutMs: 2_000, openTimeoutMs: 5_000 },
};

let template: Promise<Blob> | undefined;

function pgliteVersion(): string {
  try {
    const pkg = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * A migrated PGlite data dir kept on disk between test files (Vitest runs each file in a fresh
 * process, and initdb + migrations cost seconds there), keyed by the PGlite version and the
 * migrations' text so any schema change makes a new one.
 */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const version = pgliteVersion();
    const key = createHash('sha256')
      .update(version)
      .update(JSON.stringify(loadMigrations()))
      .digest('hex')
      .slice(0, 16);
    const dir = join(tmpdir(), 'docpipe-test-templates');
    const file = join(dir, `mail-pglite-${key}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const db = await createDb({});
    await migrate(db);
    const dump = await db.dumpDataDir!();
    await db.close();
    mkdirSync(dir, { recursive: true });
    // Written under a temporary name first: a file running in parallel never reads half of it.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
    return dump;
  })();
  return template;
}

async function testDatabase(kind: DbKind): Promise<TestDb> {
  if (kind === 'postgres') return createTestDb('postgres');
  const db = await createDb({ pgliteLoad: await pgliteTemplate() });
  return { db, kind, close: () => db.close() };
}

export interface MailHarness extends TestApp {
  mail: MailModule;
  dovecot: PrivateDovecot;
  actor: Actor;
  /** Starts a poller (another "worker") directly; closed by close(). */
  startPoller(opts?: MailPollerOptions): Promise<MailPoller>;
  /** Starts pipeline workers and/or the mail role through startWorkers, as `docpipe worker` does. */
  startWorkers(queues: string[], opts?: MailPollerOptions): Promise<WorkerHandle>;
  /** POST /integrations/mailboxes for a Dovecot user (password `pw-<user>`); returns the created mailbox. */
  createMailbox(user: string, body?: Record<string, unknown>): Promise<Record<string, any>>;
  /** POST /projects. */
  createProject(body?: Record<string, unknown>): Promise<string>;
  api(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    actor?: Actor,
  ): Promise<{ status: number; body: any }>;
  messages(mailboxId: string): Promise<MailMessageRow[]>;
  documents(projectId: string): Promise<Record<string, any>[]>;
}

export interface MailHarnessOptions {
  kind?: DbKind;
  /** Dovecot users (password `pw-<user>`). */
  users: string[];
  env?: Record<string, string>;
  /** Needed when pipeline workers will run (the tiny embedding model). Default false. */
  pipeline?: boolean;
}

export async function createMailHarness(opts: MailHarnessOptions): Promise<MailHarness> {
  const [dovecot, modelDir] = await Promise.all([
    startDovecot({ users: opts.users.map((user) => ({ user, pass: `pw-${user}` })) }),
    opts.pipeline ? tinyModelDir() : Promise.resolve(undefined),
  ]);
  const config = testConfig({
    MAIL_ALLOWED_HOSTS: '127.0.0.1',
    ...(modelDir ? { EMBEDDING_MODEL_DIR: modelDir } : {}),
    ...opts.env,
  });
  const testDb = await testDatabase(opts.kind ?? 'pglite');
  const logger = createLogger({ level: 'silent', pretty: false });
  // The container wires the mail module (routes included); tests only shorten its intervals.
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: inject('redisUrl'),
    logger,
    migrate: false,
    mail: { poller: TEST_POLLER_OPTIONS },
  });
  const mail = deps.mail;
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  const running: { close(timeoutMs?: number): Promise<void> }[] = [];
  const t: TestApp = { app, deps, config, testDb, close: async () => undefined };
  const actor = await createActor(t);

  const api: MailHarness['api'] = async (method, url, payload, who = actor) => {
    const res = await app.inject({
      method,
      url: `/api/v1${url}`,
      headers: who.auth,
      payload: payload as Record<string, unknown> | undefined,
    });
    return { status: res.statusCode, body: res.json() };
  };

  return {
    ...t,
    mail,
    dovecot,
    actor,
    api,
    async startPoller(o) {
      const p = await startMailWorker(mail.worker, o);
      running.push(p);
      return p;
    },
    async startWorkers(queues, o) {
      const h = await startWorkers(deps, { queues, concurrency: 2, schedulers: false, mail: o });
      running.push(h);
      return h;
    },
    async createProject(body = {}) {
      const res = await api('POST', '/projects', { name: 'Mail intake', ...body });
      if (res.status !== 201) throw new Error(`project creation failed: ${JSON.stringify(res.body)}`);
      return res.body.data.id;
    },
    async createMailbox(user, body = {}) {
      const res = await api('POST', '/integrations/mailboxes', {
        name: `mailbox ${user}`,
        host: dovecot.host,
        port: dovecot.port,
        security: 'none',
        username: user,
        password: `pw-${user}`,
        ...body,
      });
      if (res.status !== 201) throw new Error(`mailbox creation failed: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async messages(mailboxId) {
      const { rows } = await deps.db.query<MailMessageRow>(
        'SELECT * FROM mail_messages WHERE mailbox_id = $1 ORDER BY uid, created_at',
        [mailboxId],
      );
      return rows;
    },
    async documents(projectId) {
      const { rows } = await deps.db.query<Record<string, any>>(
        'SELECT id, filename, status, sha256, source, source_metadata FROM documents WHERE project_id = $1 ORDER BY created_at',
        [projectId],
      );
      return rows;
    },
    async close() {
      for (const r of running.splice(0)) await r.close(2_000);
      await Promise.all(
        ['parse', 'embed', 'classify', 'extract'].map((q) =>
          deps.queues
            .get(q as 'parse')
            .obliterate({ force: true })
            .catch(() => undefined),
        ),
      );
      await app.close();
      await deps.close();
      await testDb.close();
      await dovecot.stop();
    },
  };
}

/** Polls `fn` until it returns a truthy value; throws with `what` (and the last value) after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
