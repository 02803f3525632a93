// Crash safety: events committed with no relay running, deliveries committed without their jobs,
// a relay run twice over the same events, and a delivery worker process SIGKILLed mid-request.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testConfig } from '../../helpers/app.js';
import { dbKinds, databaseUrl, type DbKind, type TestDb } from '../../helpers/db.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import {
  createWebhooksTestApp,
  eventually,
  pgliteDataDirAt,
  TEST_RETRY_DELAYS,
  webhooksTestDb,
  type WebhooksTestApp,
} from '../../helpers/webhooks-harness.js';
import { createDb, type Db } from '../../../src/db/client.js';
import { createDeps } from '../../../src/container.js';
import { createLogger } from '../../../src/lib/logger.js';
import { insertEvent } from '../../../src/modules/events/events.repository.js';
import { relayBatch } from '../../../src/modules/events/relay.js';
import { createQueueDispatcher, deliveryJobId, WEBHOOKS_QUEUE } from '../../../src/modules/webhooks/dispatcher.js';
import { createWebhookFanOut } from '../../../src/modules/webhooks/fanout.js';
import { sweepOverdueDeliveries } from '../../../src/modules/webhooks/sweep.js';
import { newId } from '../../../src/lib/ids.js';
import { noJitter } from '../../../src/modules/webhooks/schedule.js';
import { startWorkers } from '../../../workers/index.js';
import { createSub, deliveriesOf, owner, warmOwners } from './helpers.js';

const sinks: WebhookSink[] = [];
const sink = async () => {
  const s = await startWebhookSink();
  sinks.push(s);
  return s;
};
afterEach(async () => {
  for (const s of sinks.splice(0)) await s.close();
});

describe('outbox relay crash safety', () => {
  let t: WebhooksTestApp;
  beforeAll(async () => {
    t = await createWebhooksTestApp({
      workers: false,
      relayIntervalMs: 100,
      module: { sweepGraceMs: 0, sweepIntervalMs: 100 },
    });
    warmOwners(t, 3);
  });
  afterAll(async () => {
    await t?.close();
  });

  // Runs before any worker of this app exists, so no background sweep races it.
  it('the sweep re-adds only jobs that are missing', async () => {
    const a = await owner(t);
    const sub = await createSub(t, a, { url: 'http://127.0.0.1:9/never' });
    const eventId = newId('evt');
    const deliveryId = newId('dlv');
    await t.deps.db.query(
      `INSERT INTO events (id, org_id, environment, type, data, relayed_at) VALUES ($1, $2, 'live', 'report.completed', '{}', now())`,
      [eventId, a.orgId],
    );
    await t.deps.db.query(
      `INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, dispatch_seq, next_attempt_at)
       VALUES ($1, $2, 'live', $3, $4, 'report.completed', 'pending', 4, now() - interval '1 hour')`,
      [deliveryId, a.orgId, sub.id, eventId],
    );
    const dispatcher = createQueueDispatcher(t.deps.queues, t.deps.redis);
    const queue = t.deps.queues.get(WEBHOOKS_QUEUE);
    // Its job exists (delayed): nothing to do.
    await dispatcher.dispatch([{ deliveryId, seq: 4, delayMs: 3_600_000 }]);
    expect(await sweepOverdueDeliveries(t.deps.db, dispatcher, { graceMs: 0 })).toBe(0);
    // The job is gone (lost with a crashed process): re-added once, under the same id.
    await (await queue.getJob(deliveryJobId({ deliveryId, seq: 4 })))!.remove();
    expect(await sweepOverdueDeliveries(t.deps.db, dispatcher, { graceMs: 0 })).toBe(1);
    expect(await queue.getJob(deliveryJobId({ deliveryId, seq: 4 }))).toBeTruthy();
    await t.deps.db.query(`DELETE FROM webhook_deliveries WHERE id = $1`, [deliveryId]);
    await (await queue.getJob(deliveryJobId({ deliveryId, seq: 4 })))?.remove();
  });

  it('events committed while no relay ran, and deliveries committed without jobs, are all delivered', async () => {
    const a = await owner(t);
    const rx = await sink();
    const sub = await createSub(t, a, { url: rx.url });
    // (1) "Crash" between commit and enqueue: events are in the outbox, nobody was told.
    const early = [];
    for (let i = 0; i < 5; i++) early.push(await t.emit(a.orgId, 'document.uploaded', { i }, { nudge: false }));
    // (2) "Crash" after the relay committed the delivery rows but before the jobs were added.
    const lost = await t.emit(a.orgId, 'document.processed', {}, { nudge: false });
    const blackHole = createWebhookFanOut({ dispatch: async () => undefined });
    await t.deps.db.query('UPDATE events SET relayed_at = now() WHERE id = ANY($1::text[])', [early]);
    expect(await relayBatch(t.deps.db, [blackHole])).toBe(1);
    await t.deps.db.query('UPDATE events SET relayed_at = NULL WHERE id = ANY($1::text[])', [early]);
    expect((await deliveriesOf(t, sub.id)).map((d) => d.event_id)).toEqual([lost]);
    expect(rx.requests).toHaveLength(0);

    // Restart: the relay's start-up pass takes the outbox, its sweep re-adds the lost job.
    await t.startWorkers();
    await rx.waitFor(6);
    const delivered = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds.length === 6 && ds.every((d) => d.status === 'delivered') ? ds : null;
    }, 'six deliveries');
    expect(delivered.map((d) => d.event_id).sort()).toEqual([...early, lost].sort());
    expect(rx.requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...early, lost].sort());
  });

  it('relaying the same events again creates no second delivery and sends nothing twice', async () => {
    const a = await owner(t);
    const rx = await sink();
    const sub = await createSub(t, a, { url: rx.url });
    const ids = [await t.emit(a.orgId, 'report.completed', {}), await t.emit(a.orgId, 'report.completed', {})];
    await rx.waitFor(2);
    await eventually(async () => (await deliveriesOf(t, sub.id)).every((d) => d.status === 'delivered'), 'delivered');
    // At-least-once relay: pretend the relay died after fan-out but before its commit was seen.
    await t.deps.db.query('UPDATE events SET relayed_at = NULL WHERE id = ANY($1::text[])', [ids]);
    t.relay.nudge();
    await eventually(async () => {
      const { rows } = await t.deps.db.query<{ n: number }>(
        'SELECT count(*) AS n FROM events WHERE id = ANY($1::text[]) AND relayed_at IS NULL',
        [ids],
      );
      return Number(rows[0].n) === 0;
    }, 'relayed again');
    await new Promise((r) => setTimeout(r, 200));
    const ds = await deliveriesOf(t, sub.id);
    expect(ds).toHaveLength(2);
    expect(ds.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    expect(rx.requests).toHaveLength(2);
  });
});

const CHILD_ENTRY = fileURLToPath(new URL('../../helpers/run-ts.mjs', import.meta.url));
const CHILD_MODULE = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));

describe.each(dbKinds())('delivery worker killed mid-delivery (%s)', (kind: DbKind) => {
  const tmp = mkdtempSync(join(tmpdir(), 'docpipe-whk-crash-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the event is still delivered, at most once more than needed, and the row ends delivered once', async () => {
    const redisUrl = inject('redisUrl');
    const config = testConfig({ WEBHOOK_RETRY_DELAYS: TEST_RETRY_DELAYS, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const logger = createLogger({ level: 'silent', pretty: false });
    const rx = await sink();
    rx.setDelay(60_000); // the first request hangs until the worker is dead

    // Seed: an org, a subscription and one committed, unrelayed event. PGlite is one process's
    // database, so it lives on disk and is handed over, as a restarted `docpipe start` would find it.
    const pgliteDir = join(tmp, 'db');
    if (kind === 'pglite') await pgliteDataDirAt(pgliteDir);
    const seedDb: TestDb =
      kind === 'pglite'
        ? await (async () => {
            const db = await createDb({ pgliteDir });
            return { db, kind, close: () => db.close() };
          })()
        : await webhooksTestDb(kind);
    const seedDeps = await createDeps(config, { db: seedDb.db, redisUrl, logger, migrate: false });
    const { orgId } = await seedDeps.services.orgs.createUser({
      email: `crash-${Date.now()}@example.test`,
      password: 'correct horse battery',
      orgName: 'Crash',
      role: 'owner',
      plan: 'enterprise',
    });
    const sub = await seedDeps.webhooks.service.create(
      { orgId, environment: 'live' },
      { url: rx.url, events: ['*'] },
      null,
    );
    const eventId = await seedDb.db.tx((q) =>
      insertEvent(q, { orgId, environment: 'live', type: 'document.processed', data: { documentId: 'doc_crash' } }),
    );

    let childDb: Record<string, string>;
    let reopen: () => Promise<Db>;
    let closeSeed: () => Promise<void>;
    if (kind === 'pglite') {
      await seedDeps.close();
      await seedDb.close();
      childDb = { pgliteDir };
      reopen = () => createDb({ pgliteDir });
      closeSeed = async () => undefined;
    } else {
      const schema = (await seedDb.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
      childDb = { url: databaseUrl()!, schema };
      reopen = async () => seedDb.db;
      closeSeed = async () => {
        await seedDeps.close();
        await seedDb.close();
      };
    }

    const child = fork(
      CHILD_ENTRY,
      [
        CHILD_MODULE,
        JSON.stringify({
          db: childDb,
          redisUrl,
          prefix: config.REDIS_PREFIX,
          encryptionKey: config.ENCRYPTION_KEY,
          retryDelays: TEST_RETRY_DELAYS,
          allowedHosts: ['127.0.0.1'],
          lockDurationMs: 1000,
          stalledIntervalMs: 300,
        }),
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
    );
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await Promise.race([
        rx.waitFor(1, 30_000),
        exited.then(() => {
          throw new Error('the worker process exited on its own');
        }),
      ]).catch((err: Error) => {
        throw new Error(`${err.message}; child stderr: ${stderr}`);
      });
      child.kill('SIGKILL');
      await exited;
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    expect(rx.requests[0].headers['webhook-id']).toBe(eventId);
    rx.setDelay(0);

    // A new worker process (here: this one) takes over once the dead worker's job lock expires.
    const db = await reopen();
    const deps = await createDeps(config, {
      db,
      redisUrl,
      logger,
      migrate: false,
      events: { relayIntervalMs: 200 },
      webhooks: { jitter: noJitter, stalledIntervalMs: 300, sweepIntervalMs: 200 },
    });
    const workers = await startWorkers(deps, {
      queues: ['webhooks', 'events'],
      concurrency: 1,
      webhooks: { concurrency: 2 },
    });
    try {
      await rx.waitFor(2, 20_000);
      const rows = await eventually(
        async () => {
          const r = await db.query<{ id: string; status: string; event_id: string; subscription_id: string }>(
            'SELECT id, status, event_id, subscription_id FROM webhook_deliveries',
          );
          return r.rows.length === 1 && r.rows[0].status === 'delivered' ? r.rows : null;
        },
        'the delivery row delivered',
        10_000,
      );
      expect(rows[0]).toMatchObject({ event_id: eventId, subscription_id: sub.id });
      // The interrupted attempt left no log row (it never finished); the retry is the one logged.
      const log = await db.query<{ status_code: number }>(
        'SELECT status_code FROM webhook_attempts WHERE delivery_id = $1',
        [rows[0].id],
      );
      expect(log.rows.map((a) => a.status_code)).toEqual([200]);
      // At-least-once: the receiver saw the event twice (the killed request and the retry), both
      // with the same webhook-id so it can deduplicate — and not a third time.
      await new Promise((r) => setTimeout(r, 300));
      expect(rx.requests.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    } finally {
      await workers.close(1000);
      await deps.queues
        .get('webhooks')
        .obliterate({ force: true })
        .catch(() => undefined);
      await deps.close();
      if (kind === 'pglite') await db.close();
      await closeSeed();
    }
  });
});
