// The real app plus the webhooks module (routes, delivery worker) and the outbox relay (the events
// role) for integration tests:
// real Redis, real database, millisecond retry schedule, no jitter.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { createDeps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import type { Environment } from '../../src/lib/scope.js';
import { insertEvent } from '../../src/modules/events/events.repository.js';
import type { EventsModule } from '../../src/modules/events/index.js';
import type { EventType } from '../../src/modules/events/events.types.js';
import type { WebhooksModule, WebhooksModuleOptions } from '../../src/modules/webhooks/index.js';
import { startEventsWorker } from '../../workers/events.js';
import { startWebhookWorkers } from '../../workers/webhook-delivery.js';
import { noJitter } from '../../src/modules/webhooks/schedule.js';
import { testConfig, type TestApp } from './app.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';

export interface WebhooksTestApp extends TestApp {
  mod: WebhooksModule;
  /** The outbox relay's controls (nudge, runOnce). */
  relay: EventsModule['relay'];
  /** Starts the delivery worker and, unless `relay: false`, the relay (stopped by close). */
  startWorkers(opts?: { concurrency?: number; relay?: boolean }): Promise<{ close(timeoutMs?: number): Promise<void> }>;
  /**
   * Inserts an event in its own transaction; its commit nudges the relay, unless `nudge: false`
   * (written past the announcing database: as if the nudge were lost).
   */
  emit(
    orgId: string,
    type: EventType,
    data?: Record<string, unknown>,
    opts?: { environment?: Environment; nudge?: boolean },
  ): Promise<string>;
}

export interface WebhooksHarnessOptions {
  kind?: DbKind;
  /** Config overrides (strings, as in the environment). */
  env?: Record<string, string>;
  module?: WebhooksModuleOptions;
  /** Relay safety-net period, ms (default 250). */
  relayIntervalMs?: number;
  /** Start workers right away with this concurrency (default: start them, concurrency 10). */
  workers?: false | { concurrency?: number };
  /** Redis to use; default the suite's shared one. */
  redisUrl?: string;
}

export const TEST_RETRY_DELAYS = '0.05,0.1,0.15,0.2,0.25';

function pgliteVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'unknown';
  }
}

let template: Promise<Blob> | undefined;

/**
 * A migrated PGlite data dir, cached on disk under a key made of the PGlite version and the
 * migrations' text: initdb + migrations cost seconds per test file (Vitest isolates files, so an
 * in-memory cache is rebuilt by each), loading the dump well under one.
 */
function cachedPgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const key = createHash('sha256')
      .update(pgliteVersion())
      .update(JSON.stringify(loadMigrations()))
      .digest('hex')
      .slice(0, 16);
    const dir = join(tmpdir(), 'docpipe-test-templates');
    const file = join(dir, `pglite-${key}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const db = await createDb({});
    await migrate(db);
    const dump = await db.dumpDataDir!();
    await db.close();
    mkdirSync(dir, { recursive: true });
    // Write then rename, so a concurrent test file never reads half a template.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
    return dump;
  })();
  return template;
}

/**
 * A fresh migrated PGlite data directory at `target` (for tests that reopen a database from disk,
 * e.g. after killing the process that had it open). Copies a cached on-disk template: far cheaper
 * than loading the dump into a new directory.
 */
export async function pgliteDataDirAt(target: string): Promise<void> {
  const blob = await cachedPgliteTemplate();
  const key = createHash('sha256')
    .update(pgliteVersion())
    .update(JSON.stringify(loadMigrations()))
    .digest('hex')
    .slice(0, 16);
  const cached = join(tmpdir(), 'docpipe-test-templates', `pglite-${key}-dir`);
  if (!existsSync(cached)) {
    const building = `${cached}.${process.pid}.tmp`;
    const db = await createDb({ pgliteDir: building, pgliteLoad: blob });
    await db.close();
    try {
      renameSync(building, cached);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another test file won the race
    }
  }
  cpSync(cached, target, { recursive: true });
}

/** A fresh migrated database: PGlite from the cached template, or a private PostgreSQL schema. */
export async function webhooksTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'postgres') return createTestDb('postgres');
  const db = await createDb({ pgliteLoad: await cachedPgliteTemplate() });
  return { db, kind, close: () => db.close() };
}

export async function createWebhooksTestApp(opts: WebhooksHarnessOptions = {}): Promise<WebhooksTestApp> {
  const config = testConfig({
    WEBHOOK_RETRY_DELAYS: TEST_RETRY_DELAYS,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...opts.env,
  });
  const testDb = await webhooksTestDb(opts.kind ?? 'pglite');
  const logger = createLogger({ level: 'silent', pretty: false });
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: opts.redisUrl ?? inject('redisUrl'),
    logger,
    migrate: false,
    events: { relayIntervalMs: opts.relayIntervalMs ?? 250 },
    webhooks: { jitter: noJitter, sweepIntervalMs: 250, sweepGraceMs: 2000, stalledIntervalMs: 500, ...opts.module },
  });
  const mod = deps.webhooks;
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  const running: { close(timeoutMs?: number): Promise<void> }[] = [];
  const startWorkers = async (w: { concurrency?: number; relay?: boolean } = {}) => {
    const delivery = await startWebhookWorkers(mod.worker, { concurrency: w.concurrency ?? 10 });
    const relay = w.relay === false ? undefined : await startEventsWorker(deps.events.worker);
    const handle = {
      async close(timeoutMs?: number) {
        await relay?.close();
        await delivery.close(timeoutMs);
      },
    };
    running.push(handle);
    return handle;
  };
  if (opts.workers !== false) await startWorkers({ concurrency: opts.workers?.concurrency });

  return {
    app,
    deps,
    config,
    testDb,
    mod,
    relay: deps.events.relay,
    startWorkers,
    async emit(orgId, type, data = {}, o = {}) {
      const db = o.nudge === false ? deps.events.worker.db : deps.db;
      return db.tx((q) => insertEvent(q, { orgId, environment: o.environment ?? 'live', type, data }));
    },
    async close() {
      for (const r of running.splice(0)) await r.close(1000);
      // Queue keys live in the shared test Redis under this app's private prefix: remove them.
      await deps.queues
        .get('webhooks')
        .obliterate({ force: true })
        .catch(() => undefined);
      await app.close();
      await deps.close();
      await testDb.close();
    },
  };
}

/** Polls `fn` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 8000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
