// `npm run bench -- webhooks [--events N] [--concurrency C] [--batch B] [--paced M] [--rate R] [--noisy K] [--unfair U]`
//
// Measures the webhook path end to end: event committed → outbox relay → delivery job → signed
// POST → local receiver. The receiver runs in a child process and stamps each arrival; the
// producer stamps each event right after its transaction commits. Two runs:
//  - throughput: N events (default 10,000) written as fast as possible in transactions of B;
//    deliveries/s over the whole run, latency percentiles include queueing behind the backlog;
//  - paced: M events (default 2,000) at R events/s, one per transaction — latency below saturation;
//  - noisy neighbour: K events (default 1,000) paced the same way while another organization with
//    three subscriptions to a server that never answers writes 20 events/s; the healthy
//    organization's latency against the paced run's. With `--unfair U`, the same with the
//    per-endpoint limits off (the earlier behaviour), U events (slow: each waits for timeouts).
// The baseline is raw keep-alive POSTs from this process to the same receiver with the same
// concurrency: the ceiling for any delivery system on this machine.
// Database: PGlite in memory, or PostgreSQL when DATABASE_URL is set (a private schema).
// Redis: REDIS_URL, or a private redis-server.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parseRetryDelays } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createQueues, type Queues } from '../../src/jobs/queues.js';
import { createSecretBox } from '../../src/lib/crypto.js';
import { createLogger } from '../../src/lib/logger.js';
import { createCommandRedis } from '../../src/lib/redis.js';
import { newId } from '../../src/lib/ids.js';
import { insertEvent } from '../../src/modules/events/events.repository.js';
import { createEventsModule } from '../../src/modules/events/index.js';
import { createWebhooksModule, type WebhooksModuleOptions } from '../../src/modules/webhooks/index.js';
import { startEventsWorker } from '../../workers/events.js';
import { startWebhookWorkers } from '../../workers/webhook-delivery.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { startDeadServer, startNoise } from './webhooks-noisy.js';

const RECEIVER_ROLE = 'DOCPIPE_WEBHOOK_BENCH_RECEIVER';
const clock = (): number => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------- receiver (child process)

type ToReceiver = { cmd: 'count' } | { cmd: 'take' };
type FromReceiver = { port: number } | { count: number } | { arrivals: [string, number][] };

function runReceiver(): void {
  let arrivals: [string, number][] = [];
  const server = http.createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      const id = req.headers['x-service-event-id'] ?? req.headers['x-bench-id'];
      arrivals.push([String(id), clock()]);
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, '127.0.0.1', () =>
    process.send!({ port: (server.address() as AddressInfo).port } satisfies FromReceiver),
  );
  process.on('message', (m: ToReceiver) => {
    if (m.cmd === 'count') process.send!({ count: arrivals.length } satisfies FromReceiver);
    if (m.cmd === 'take') {
      process.send!({ arrivals } satisfies FromReceiver);
      arrivals = [];
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.env[RECEIVER_ROLE] === '1') runReceiver();

interface Receiver {
  url: string;
  count(): Promise<number>;
  take(): Promise<Map<string, number>>;
  stop(): void;
}

async function startReceiver(): Promise<Receiver> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [RECEIVER_ROLE]: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T extends FromReceiver>(msg: ToReceiver | null, pick: (m: FromReceiver) => m is T): Promise<T> =>
    new Promise((resolve) => {
      const on = (m: FromReceiver): void => {
        if (!pick(m)) return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      if (msg) child.send(msg);
    });
  const { port } = await ask(null, (m): m is { port: number } => 'port' in m);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: async () => (await ask({ cmd: 'count' }, (m): m is { count: number } => 'count' in m)).count,
    take: async () =>
      new Map((await ask({ cmd: 'take' }, (m): m is { arrivals: [string, number][] } => 'arrivals' in m)).arrivals),
    stop: () => child.kill(),
  };
}

// ---------------------------------------------------------------- helpers

function parseArgs(args: string[]) {
  const get = (name: string, def: number): number => {
    const i = args.indexOf(`--${name}`);
    const v = i === -1 ? undefined : Number(args[i + 1]);
    return v !== undefined && Number.isFinite(v) && v > 0 ? v : def;
  };
  return {
    events: get('events', 10_000),
    concurrency: get('concurrency', 50),
    batch: get('batch', 100),
    paced: get('paced', 2000),
    rate: get('rate', 250),
    noisy: get('noisy', 1000),
    unfair: get('unfair', 0),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForCount(rx: Receiver, n: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await rx.count()) < n) {
    if (Date.now() > deadline)
      throw new Error(`receiver got ${await rx.count()} of ${n} requests within ${timeoutMs} ms`);
    await sleep(20);
  }
}

async function openDb(): Promise<{ db: Db; label: string; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await createDb({});
    await migrate(db);
    return { db, label: 'PGlite (in memory)', close: () => db.close() };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = await createDb({ url, schema, poolSize: 10 });
  await migrate(db);
  return {
    db,
    label: 'PostgreSQL',
    async close() {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** Raw keep-alive POSTs with `concurrency` in flight: the receiver's and this machine's ceiling. */
async function baseline(url: string, total: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const body = JSON.stringify({
    id: 'evt_baseline',
    type: 'document.processed',
    createdAt: new Date().toISOString(),
    data: { documentId: 'doc_x', filename: 'invoice.pdf', status: 'processed' },
  });
  const target = new URL(url);
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          hostname: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-bench-id': `b${i}`,
            'x-service-signature': `sha256=${'0'.repeat(64)}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = clock();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  const rate = total / ((clock() - started) / 1000);
  agent.destroy();
  return rate;
}

interface RunResult {
  deliveriesPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  seconds: number;
}

/** Writes `total` events (`batch` per transaction, optionally paced) and measures commit → arrival. */
async function runEvents(
  db: Db,
  rx: Receiver,
  nudge: () => void,
  orgId: string,
  total: number,
  batch: number,
  ratePerSec: number | null,
): Promise<RunResult> {
  await rx.take();
  const committed = new Map<string, number>();
  const started = clock();
  for (let i = 0; i < total; i += batch) {
    if (ratePerSec) {
      const due = started + (i / ratePerSec) * 1000;
      const wait = due - clock();
      if (wait > 1) await sleep(wait);
    }
    const n = Math.min(batch, total - i);
    const data = (k: number) => ({
      documentId: `doc_${i + k}`,
      filename: `invoice-${i + k}.pdf`,
      status: 'processed',
      classification: { type: 'invoice', confidence: 0.91 },
    });
    // One event per transaction is what a pipeline stage does; the throughput run writes many
    // per statement so that the writer is not what is being measured.
    const ids =
      n === 1
        ? [
            await db.tx((q) =>
              insertEvent(q, { orgId, environment: 'live', type: 'document.processed', data: data(0) }),
            ),
          ]
        : await db.tx(async (q) => {
            const batchIds = Array.from({ length: n }, () => newId('evt'));
            await q.query(
              `INSERT INTO events (id, org_id, environment, type, data)
           SELECT u.id, $2, 'live', 'document.processed', u.data::jsonb FROM unnest($1::text[], $3::text[]) AS u(id, data)`,
              [batchIds, orgId, batchIds.map((_, k) => JSON.stringify(data(k)))],
            );
            return batchIds;
          });
    const at = clock();
    for (const id of ids) committed.set(id, at);
    nudge();
  }
  await waitForCount(rx, total, 600_000);
  const arrivals = await rx.take();
  const latencies: number[] = [];
  let last = 0;
  for (const [id, c] of committed) {
    const a = arrivals.get(id);
    if (a === undefined) throw new Error(`event ${id} never arrived`);
    latencies.push(a - c);
    last = Math.max(last, a);
  }
  latencies.sort((x, y) => x - y);
  const seconds = (last - started) / 1000;
  return {
    deliveriesPerSec: total / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    seconds,
  };
}

// ---------------------------------------------------------------- main

export async function main(args: string[]): Promise<void> {
  const o = parseArgs(args);
  const privateRedis = process.env.REDIS_URL ? undefined : await startPrivateRedis();
  const redisUrl = process.env.REDIS_URL ?? privateRedis!.url;
  const database = await openDb();
  const rx = await startReceiver();
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const redis = createCommandRedis(redisUrl);
  const queues = createQueues({ redis, redisUrl, prefix });
  const logger = createLogger({ level: 'warn', pretty: false });
  const secretBox = createSecretBox(randomBytes(32).toString('hex'));
  const webhookConfig = {
    WEBHOOK_RETRY_DELAYS: parseRetryDelays(),
    WEBHOOK_TIMEOUT_MS: 10_000,
    WEBHOOK_CONNECT_TIMEOUT_MS: 3_000,
    WEBHOOK_ALLOWED_HOSTS: ['127.0.0.1'],
  };
  // The webhooks module as a consumer of its own events module and relay (the `events` role).
  const startStack = async (q: Queues, redisPrefix: string, modOpts?: WebhooksModuleOptions) => {
    const events = createEventsModule({ db: database.db, redis, logger, config: { REDIS_PREFIX: redisPrefix } });
    const m = createWebhooksModule(
      { db: events.db, redis, queues: q, secretBox, logger, config: webhookConfig },
      modOpts,
    );
    events.addConsumer(m.fanOut);
    const relay = await startEventsWorker(events.worker);
    const delivery = await startWebhookWorkers(m.worker, { concurrency: o.concurrency });
    return {
      service: m.service,
      nudge: events.relay.nudge,
      async close(timeoutMs: number) {
        await relay.close();
        await delivery.close(timeoutMs);
      },
    };
  };
  const mod = await startStack(queues, prefix);
  let closed = false;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const { rows } = await database.db.query<{ id: string }>(
      `INSERT INTO organizations (id, name, plan) VALUES ($1, 'Bench', 'enterprise') RETURNING id`,
      [`org_bench${randomBytes(4).toString('hex')}`],
    );
    const orgId = rows[0].id;
    await mod.service.create({ orgId, environment: 'live' }, { url: rx.url, events: ['document.processed'] }, null);

    console.log(
      `webhooks bench: ${database.label}, Redis ${privateRedis ? 'private' : 'REDIS_URL'}, concurrency ${o.concurrency}, ` +
        `node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}`,
    );
    // Warm-up: connections, JIT, statement plans.
    await runEvents(database.db, rx, mod.nudge, orgId, 300, o.batch, null);
    const base = await baseline(rx.url, o.events, o.concurrency);
    console.log(
      `baseline  raw keep-alive POSTs: ${base.toFixed(0)} req/s (${o.events} requests, ${o.concurrency} in flight)`,
    );

    const thr = await runEvents(database.db, rx, mod.nudge, orgId, o.events, o.batch, null);
    console.log(
      `throughput ${o.events} events (${o.batch}/tx, as fast as possible): ${thr.deliveriesPerSec.toFixed(0)} deliveries/s in ${thr.seconds.toFixed(2)} s; ` +
        `commit→receiver p50 ${thr.p50.toFixed(1)} ms, p99 ${thr.p99.toFixed(1)} ms (includes queueing); ratio to baseline ${(thr.deliveriesPerSec / base).toFixed(2)}`,
    );

    const lat = await runEvents(database.db, rx, mod.nudge, orgId, o.paced, 1, o.rate);
    console.log(
      `paced      ${o.paced} events at ${o.rate}/s (1/tx): commit→receiver p50 ${lat.p50.toFixed(1)} ms, p95 ${lat.p95.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms`,
    );

    // Noisy neighbour: another organization, three subscriptions to a server that never answers.
    const dead = await startDeadServer();
    cleanups.push(() => dead.close());
    const { rows: nr } = await database.db.query<{ id: string }>(
      `INSERT INTO organizations (id, name, plan) VALUES ($1, 'Noisy', 'enterprise') RETURNING id`,
      [`org_noisy${randomBytes(4).toString('hex')}`],
    );
    for (const path of ['a', 'b', 'c'])
      await mod.service.create(
        { orgId: nr[0].id, environment: 'live' },
        { url: `${dead.url}/${path}`, events: ['document.processed'] },
        null,
      );
    const noisyRow = async (label: string, m: typeof mod, n: number) => {
      const noise = startNoise(database.db, nr[0].id, 20, m.nudge);
      await sleep(1000); // the dead server holds its connections before the measured events start
      const res = await runEvents(database.db, rx, m.nudge, orgId, n, 1, o.rate);
      const written = await noise.stop();
      console.log(
        `noisy      ${label}: ${n} events at ${o.rate}/s beside ${written} events to 3 dead subscriptions: commit→receiver p50 ${res.p50.toFixed(1)} ms, ` +
          `p95 ${res.p95.toFixed(1)} ms, p99 ${res.p99.toFixed(1)} ms, max ${res.max.toFixed(1)} ms; p95 ${(res.p95 / lat.p95).toFixed(2)}x the paced run's; ` +
          `dead server held at most ${dead.maxOpen()} connections`,
      );
    };
    await noisyRow('per-endpoint limits on', mod, o.noisy);
    if (o.unfair) {
      // The same with the limits off: a fresh module (own queue prefix) takes over the relay.
      await mod.close(2000);
      closed = true;
      const prefix2 = `${prefix}u`;
      const queues2 = createQueues({ redis, redisUrl, prefix: prefix2 });
      cleanups.push(async () => {
        await queues2
          .get('webhooks')
          .obliterate({ force: true })
          .catch(() => undefined);
        await queues2.close();
      });
      const mod2 = await startStack(queues2, prefix2, { fairness: false });
      cleanups.push(() => mod2.close(2000));
      await noisyRow('limits off (earlier behaviour)', mod2, o.unfair);
    }

    // The receiver can count a request before the worker has recorded it: let the records land.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows: p } = await database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND org_id = $1`,
        [orgId],
      );
      if (p[0].n === 0) break;
      await sleep(20);
    }
    const { rows: st } = await database.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status',
    );
    console.log(
      `delivery rows (all organizations; the dead subscriptions' stay pending): ${st.map((r) => `${r.status} ${r.n}`).join(', ')}`,
    );
  } finally {
    if (!closed) await mod.close(5000);
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await queues
      .get('webhooks')
      .obliterate({ force: true })
      .catch(() => undefined);
    await queues.close();
    redis.disconnect();
    rx.stop();
    await database.close();
    await privateRedis?.stop();
  }
}
