// `npm run bench -- mail [N]`: e-mail intake throughput against a private Dovecot, in one run:
//  1. end to end: N messages (one 1-page PDF each) waiting in the inbox, poller + pipeline workers
//     started together; time until every message is recorded and every document is completed;
//  2. the poller alone: N more messages in a second mailbox, no pipeline workers; messages/s from
//     poller start until all N are recorded;
//  3. IDLE pick-up latency: 20 single messages, time from APPEND until the record exists.
// PGlite by default, PostgreSQL when DATABASE_URL is set; a private redis-server unless REDIS_URL is.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import { loadConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/container.js';
import { createLogger } from '../../src/lib/logger.js';
import { startWorkers } from '../../workers/index.js';
import { startMailWorker } from '../../workers/mail.js';
import { startDovecot, type PrivateDovecot } from '../helpers/dovecot.js';
import { attachmentPart, buildMessage, multipart, textPart } from '../helpers/mail-fixtures.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { generateTinyModel } from '../helpers/tiny-model.js';
import { benchPostgres, benchRedis, table } from './harness.js';

const TARGET_RATE = 50;
const TARGET_P50_MS = 1_000;
const USERS = ['e2e', 'alone', 'idle'];

async function invoiceMail(tag: string, i: number): Promise<Buffer> {
  const pdf = await makeTextPdf({
    pages: [
      [
        `ACME Supplies GmbH`,
        `Invoice No: ${tag}-${i}`,
        `Invoice date: 05.03.2024`,
        `Total: ${(100 + i).toFixed(2)} EUR`,
      ],
    ],
  });
  return buildMessage({
    from: 'ACME Billing <billing@acme.example>',
    subject: `Invoice ${tag}-${i}`,
    messageId: `${tag}-${i}@bench.test`,
    body: multipart('mixed', [
      textPart('Invoice attached.\r\n'),
      attachmentPart({ filename: `${tag}-${i}.pdf`, contentType: 'application/pdf', content: pdf }),
    ]),
  });
}

/** One logged-in connection for many APPENDs (the helper's per-call login would dominate). */
async function appender(
  dovecot: PrivateDovecot,
  user: string,
): Promise<{ append(raw: Buffer): Promise<void>; close(): Promise<void> }> {
  const c = new ImapFlow({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    auth: { user, pass: `pw-${user}` },
    logger: false,
    disableAutoIdle: true,
  });
  c.on('error', () => undefined);
  await c.connect();
  return {
    append: async (raw) => {
      await c.append('INBOX', raw);
    },
    close: async () => {
      await c.logout().catch(() => c.close());
    },
  };
}

async function fill(dovecot: PrivateDovecot, user: string, tag: string, n: number): Promise<void> {
  const a = await appender(dovecot, user);
  for (let i = 1; i <= n; i++) await a.append(await invoiceMail(tag, i));
  await a.close();
}

const count = async (deps: Deps, sql: string, params: unknown[]): Promise<number> =>
  (await deps.db.query<{ n: number }>(sql, params)).rows[0].n;
const recorded = (deps: Deps, mailboxId: string) =>
  count(deps, `SELECT count(*) AS n FROM mail_messages WHERE mailbox_id = $1 AND status <> 'processing'`, [mailboxId]);
const terminal = (deps: Deps, projectId: string) =>
  count(
    deps,
    `SELECT count(*) AS n FROM documents WHERE project_id = $1 AND status IN ('completed', 'needs_review', 'failed')`,
    [projectId],
  );

async function until(what: string, fn: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return performance.now();
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export async function main(args: string[]): Promise<void> {
  const n = Number(args[0] ?? 500);
  const samples = Number(args[1] ?? 20);
  const redis = await benchRedis();
  const pgdb = process.env.DATABASE_URL ? await benchPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'docpipe-bench-mail-'));
  const modelRoot = join(dataDir, 'models-tiny');
  await generateTinyModel(modelRoot);
  const dovecot = await startDovecot({ users: USERS.map((user) => ({ user, pass: `pw-${user}` })) });
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `benchmail${randomBytes(3).toString('hex')}`,
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    JWT_SECRET: 'j'.repeat(40),
    ENCRYPTION_KEY: 'k'.repeat(40),
    EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
    EMBEDDING_MODEL_DIR: modelRoot,
    ALLOW_MODEL_DOWNLOAD: 'false',
    CLASSIFY_KNN: 'false',
    MAIL_ALLOWED_HOSTS: '127.0.0.1',
  });
  const logger = createLogger({ level: 'warn', pretty: false });
  const deps = await createDeps(config, { redisUrl: redis.url, logger });
  const mail = deps.mail;
  const closers: (() => Promise<void>)[] = [];
  try {
    const { orgId } = await deps.services.orgs.createUser({
      email: 'bench@example.test',
      password: 'benchmark-password',
      orgName: 'Bench',
      role: 'owner',
      plan: 'enterprise',
    });
    const scope = { orgId, environment: 'live' as const };
    const mailbox = async (user: string, projectId: string, isActive = true) =>
      (
        await mail.service.create(
          scope,
          {
            name: user,
            host: dovecot.host,
            port: dovecot.port,
            security: 'none',
            username: user,
            password: `pw-${user}`,
            project_id: projectId,
            after_processing: 'move',
            processed_folder: 'Processed',
            is_active: isActive,
          },
          null,
        )
      ).id;
    const project = async (name: string) =>
      (await deps.repos.projects.insert(scope, { name, classification_threshold: 0 })).id;

    console.log(`filling two mailboxes with ${n} messages each (one 1-page PDF per message) …`);
    await Promise.all([fill(dovecot, 'e2e', 'E2E', n), fill(dovecot, 'alone', 'SOLO', n)]);
    const e2eProject = await project('e2e');
    const soloProject = await project('poller alone');
    const e2eBox = await mailbox('e2e', e2eProject);
    const soloBox = await mailbox('alone', soloProject, false);

    // 1. End to end: poller and pipeline workers start together.
    const workers = await startWorkers(deps, {
      queues: ['parse', 'embed', 'classify', 'extract'],
      concurrency: config.WORKER_CONCURRENCY,
    });
    closers.push(() => workers.close(10_000));
    const t0 = performance.now();
    const poller = await startMailWorker(mail.worker);
    closers.push(() => poller.close(5_000));
    let tRecorded = 0;
    const watchRecorded = until('e2e messages recorded', async () => (await recorded(deps, e2eBox)) >= n, 600_000).then(
      (t) => {
        tRecorded = t;
      },
    );
    const tCompleted = await until(
      'e2e documents completed',
      async () => (await terminal(deps, e2eProject)) >= n,
      1_200_000,
      200,
    );
    await watchRecorded;
    const byStatus = (
      await deps.db.query<{ status: string; n: number }>(
        'SELECT status, count(*) AS n FROM documents WHERE project_id = $1 GROUP BY status',
        [e2eProject],
      )
    ).rows;
    await workers.close(10_000);
    closers.splice(0, 1);

    // 2. The poller alone (documents queue up for the pipeline, which is not running).
    await poller.close(5_000);
    closers.splice(0);
    await mail.service.update(scope, soloBox, { is_active: true });
    const t1 = performance.now();
    const cpu0 = process.cpuUsage();
    const solo = await startMailWorker(mail.worker);
    closers.push(() => solo.close(5_000));
    const tSolo = await until(
      'poller-alone messages recorded',
      async () => (await recorded(deps, soloBox)) >= n,
      600_000,
    );
    const cpu = process.cpuUsage(cpu0);
    const cpuMsPerMsg = (cpu.user + cpu.system) / 1000 / n;
    const soloDocs = await count(deps, 'SELECT count(*) AS n FROM documents WHERE project_id = $1', [soloProject]);

    // 3. IDLE pick-up latency, one message at a time, with the poller idle in between.
    const idleProject = await project('idle');
    const idleBox = await mailbox('idle', idleProject);
    await until('idle mailbox connected', async () => Boolean(solo.stats()[idleBox]?.connected), 30_000);
    const a = await appender(dovecot, 'idle');
    const latencies: number[] = [];
    for (let i = 1; i <= samples; i++) {
      const raw = await invoiceMail('IDLE', i);
      await new Promise((r) => setTimeout(r, 400 + Math.floor(Math.random() * 400)));
      const s = performance.now();
      await a.append(raw);
      const e = await until(
        `idle sample ${i}`,
        async () =>
          (await count(deps, 'SELECT count(*) AS n FROM mail_messages WHERE mailbox_id = $1', [idleBox])) >= i,
        30_000,
        5,
      );
      latencies.push(e - s);
    }
    await a.close();

    const e2eMs = tCompleted - t0;
    const e2eRecMs = tRecorded - t0;
    const soloMs = tSolo - t1;
    const soloRate = n / (soloMs / 1000);
    const e2eRate = n / (e2eRecMs / 1000);
    const p50 = pct(latencies, 50);
    const p95 = pct(latencies, 95);
    console.log(
      `\nMail intake benchmark: ${n} messages, database ${pgdb ? 'PostgreSQL' : 'PGlite'}, pipeline concurrency ${config.WORKER_CONCURRENCY}, poller defaults\n`,
    );
    table([
      {
        measure: `end to end: all ${n} documents completed`,
        value: `${(e2eMs / 1000).toFixed(1)} s`,
        rate: `${(n / (e2eMs / 1000)).toFixed(1)} docs/s`,
        target: '',
      },
      {
        measure: 'end to end: poller (with pipeline running)',
        value: `${(e2eRecMs / 1000).toFixed(1)} s`,
        rate: `${e2eRate.toFixed(1)} msg/s`,
        target: '',
      },
      {
        measure: 'poller alone: all messages recorded',
        value: `${(soloMs / 1000).toFixed(1)} s`,
        rate: `${soloRate.toFixed(1)} msg/s`,
        target: `>= ${TARGET_RATE} msg/s ${soloRate >= TARGET_RATE ? 'PASS' : 'FAIL'}`,
      },
      {
        measure: `IDLE pick-up latency p50 (${samples} samples)`,
        value: `${p50.toFixed(0)} ms`,
        rate: '',
        target: `<= ${TARGET_P50_MS} ms ${p50 <= TARGET_P50_MS ? 'PASS' : 'FAIL'}`,
      },
      { measure: 'IDLE pick-up latency p95', value: `${p95.toFixed(0)} ms`, rate: '', target: '' },
    ]);
    console.log(
      `\nratios: poller alone / poller with pipeline = ${(soloRate / e2eRate).toFixed(2)}; end-to-end time / poller-alone time = ${(e2eMs / soloMs).toFixed(2)}; ` +
        `poller rate / target = ${(soloRate / TARGET_RATE).toFixed(2)}; p50 / target = ${(p50 / TARGET_P50_MS).toFixed(2)}`,
    );
    // Wall-clock rates depend on what else the machine runs; CPU per message does much less.
    console.log(
      `poller alone: ${cpuMsPerMsg.toFixed(1)} ms of this process's CPU per message (database included when PGlite) = at most ${(1000 / cpuMsPerMsg).toFixed(0)} msg/s on one free core; ` +
        `load average during the run ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${cpus().length} cores`,
    );
    console.log(
      `end-to-end document statuses: ${byStatus.map((s) => `${s.status} ${s.n}`).join(', ')}; poller-alone documents created: ${soloDocs}`,
    );
    console.log(`latencies ms: ${latencies.map((l) => l.toFixed(0)).join(' ')}`);
  } finally {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await Promise.all(
      (['parse', 'embed', 'classify', 'extract'] as const).map((q) =>
        deps.queues
          .get(q)
          .obliterate({ force: true })
          .catch(() => undefined),
      ),
    );
    await deps.close();
    await dovecot.stop();
    await redis.stop();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
