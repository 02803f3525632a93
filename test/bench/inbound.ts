// `npm run bench -- inbound [N]`: the two new ways in, in one run:
//  1. SMTP: N messages, each with its own 100 KB PDF, sent over 4 pooled connections (`--connections N`) to the
//     receiver (documents and message record committed before each 250); baseline: a bare
//     smtp-server that reads each message and discards it, same client, same messages.
//  2. Watched folder: files dropped one by one; time from the write to the document existing
//     (the 2 s stability wait included, production timings).
// PGlite in a temporary DATA_DIR by default, a new PostgreSQL database when DATABASE_URL is set;
// a private redis-server unless REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/container.js';
import { createLogger } from '../../src/lib/logger.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { benchPostgres, benchRedis, benchTmpDir, table } from './harness.js';

const TARGET_RATE = 100;
const TARGET_P50_MS = 3_000;
/** Client connections (`--connections N`): senders an MX would see at once. */
const DEFAULT_CONNECTIONS = 4;

/** A valid PDF padded to ~100 KB with a comment of random bytes (every message's file unique). */
function pdf100k(base: Buffer): Buffer {
  const pad = 100 * 1024 - base.length;
  return Buffer.concat([base, Buffer.from(`\n%${randomBytes(Math.floor(Math.max(0, pad) / 2)).toString('hex')}\n`)]);
}

async function sendAll(port: number, to: string, files: Buffer[], connections: number): Promise<number> {
  const tr = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    ignoreTLS: true,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
  });
  const t0 = performance.now();
  await Promise.all(
    files.map((content, i) =>
      tr.sendMail({
        from: 'billing@acme.example',
        to,
        subject: `Invoice ${i}`,
        messageId: `<bench-${i}-${randomBytes(4).toString('hex')}@acme.example>`,
        text: 'Attached.',
        attachments: [{ filename: `invoice-${i}.pdf`, content }],
      }),
    ),
  );
  const s = (performance.now() - t0) / 1000;
  tr.close();
  return files.length / s;
}

const cpuMsPer = (u: NodeJS.CpuUsage, n: number) => (u.user + u.system) / 1000 / n;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function main(args: string[]): Promise<void> {
  const ci = args.indexOf('--connections');
  const connections = ci >= 0 ? Number(args[ci + 1]) : DEFAULT_CONNECTIONS;
  const rest = ci >= 0 ? args.filter((_, i) => i !== ci && i !== ci + 1) : args;
  const n = Number(rest[0] ?? 300);
  const redis = await benchRedis();
  const dataDir = benchTmpDir('docpipe-bench-inbound-');
  const watchDir = join(dataDir, 'watch');
  const pgdb = process.env.DATABASE_URL ? await benchPostgres() : null;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      REDIS_PREFIX: `bench${randomBytes(3).toString('hex')}`,
      ALLOW_MODEL_DOWNLOAD: 'false',
      SMTP_PORT: '0',
      INBOUND_DOMAIN: 'in.bench.test',
      SMTP_CONNECTIONS_PER_IP_PER_MINUTE: '1000000',
      SMTP_MESSAGES_PER_IP_PER_MINUTE: '1000000',
      WATCH_DIR: watchDir,
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    },
    { persistSecrets: false },
  );
  const deps = await createDeps(config, {
    redisUrl: redis.url,
    logger: createLogger({ level: 'warn', pretty: false }),
  });
  const base = await makeTextPdf({ pages: [['ACME Supplies GmbH', 'Invoice', 'Total: 196.35 EUR']] });
  try {
    const { orgId } = await deps.services.orgs.createUser({
      email: 'bench@example.test',
      password: 'benchmark-password',
      orgName: 'Bench',
      role: 'owner',
      plan: 'enterprise',
    });
    const scope = { orgId, environment: 'live' as const };
    const project = await deps.services.projects.create(scope, { name: 'Bench' });

    // Baseline: the same client and messages against a receiver that discards them.
    const bare = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 50 * 1024 * 1024,
      onData(stream, _s, cb) {
        stream.on('data', () => undefined);
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const barePort = (bare.server.address() as { port: number }).port;
    const receiver = await deps.inbound.startReceiver({ port: 0 });
    const to = project.inbound_address!;
    // Warm-up (connections, JIT, first inserts) outside the measurement.
    await sendAll(
      receiver.port,
      to,
      Array.from({ length: 10 }, () => pdf100k(base)),
      connections,
    );
    await sendAll(
      barePort,
      to,
      Array.from({ length: 10 }, () => pdf100k(base)),
      connections,
    );
    const baselineFiles = Array.from({ length: n }, () => pdf100k(base));
    let cpu0 = process.cpuUsage();
    const baseline = await sendAll(barePort, to, baselineFiles, connections);
    const baselineCpuMs = cpuMsPer(process.cpuUsage(cpu0), n);
    const before = (await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n;
    const files = Array.from({ length: n }, () => pdf100k(base));
    cpu0 = process.cpuUsage();
    const rate = await sendAll(receiver.port, to, files, connections);
    const cpuMs = cpuMsPer(process.cpuUsage(cpu0), n);
    const after = (await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0].n;
    await receiver.close();
    await new Promise<void>((r) => bare.close(() => r()));
    if (after - before !== n) throw new Error(`expected ${n} new documents, found ${after - before}`);

    // Watched folder, production timings (2 s stability, 1 s poll).
    const started = new Map<string, number>();
    const latencies: number[] = [];
    let done!: () => void;
    const drops = 15;
    const all = new Promise<void>((r) => (done = r));
    const watcher = await deps.watch.start({
      onSettled: (e) => {
        const t = started.get(e.filename);
        if (t !== undefined && e.result.kind === 'created') latencies.push(performance.now() - t);
        if (latencies.length === drops) done();
      },
    });
    const dir = join(watchDir, project.id);
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < drops; i++) {
      const name = `scan-${i}.pdf`;
      started.set(name, performance.now());
      writeFileSync(join(dir, name), pdf100k(base));
      await new Promise((r) => setTimeout(r, 300));
    }
    await all;
    await watcher.close();

    console.log(
      `\ninbound bench: ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}, ${pgdb ? 'PostgreSQL' : 'PGlite'}, ${n} messages\n`,
    );
    table([
      {
        measure: `SMTP messages/s (100 KB PDF, ${connections} connections)`,
        docpipe: rate.toFixed(1),
        baseline: baseline.toFixed(1),
        ratio: (rate / baseline).toFixed(2),
        target: `>= ${TARGET_RATE}`,
      },
      {
        measure: 'CPU ms per message, this process (client + server)',
        docpipe: cpuMs.toFixed(1),
        baseline: baselineCpuMs.toFixed(1),
        ratio: (cpuMs / baselineCpuMs).toFixed(2),
        target: '',
      },
      {
        measure: 'watched folder drop → document, p50 ms',
        docpipe: p50(latencies).toFixed(0),
        baseline: 'stability wait 2000',
        ratio: (p50(latencies) / 2000).toFixed(2),
        target: `<= ${TARGET_P50_MS}`,
      },
    ]);
    console.log(
      `\nwatched folder latencies (ms): min ${Math.min(...latencies).toFixed(0)}, max ${Math.max(...latencies).toFixed(0)}`,
    );
  } finally {
    await deps.close();
    await pgdb?.drop();
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
