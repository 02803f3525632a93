// Scale-out as documented: `docpipe api` twice and `docpipe worker` three times, each its own OS
// process, on one PostgreSQL database, one Redis and one S3-compatible bucket (s3rver). Documents
// are uploaded through both APIs, mail arrives in two Dovecot mailboxes, and a webhook receives
// every document.extracted event. Midway one worker and one API process are SIGKILLed. Then every
// document has completed exactly once (one stage run and one event of each kind), every webhook
// event reached the receiver, every message was consumed once, and the two mailboxes were served
// by two different worker processes. How long the killed worker's documents waited is logged.
import { randomBytes } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STAGES } from '../../../src/modules/documents/documents.types.js';
import { databaseUrlWithSchema, startCli, type CliProcess } from '../../helpers/cli-process.js';
import { databaseUrl } from '../../helpers/db.js';
import { attachmentPart, buildMessage, multipart, textPart, tinyPdf } from '../../helpers/mail-fixtures.js';
import { createMailHarness, eventually, type MailHarness } from '../../helpers/mail-harness.js';
import { freePort } from '../../helpers/net.js';
import { find, parseScrape } from '../../helpers/prometheus.js';
import { startLocalS3, type LocalS3 } from '../../helpers/s3.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { workerEnv } from '../../helpers/worker-process.js';

const pgUrl = databaseUrl();
if (!pgUrl)
  console.warn(
    'scale/scale-out skipped: API and worker processes share one database, which needs PostgreSQL; set TEST_DATABASE_URL=postgres://…',
  );

/**
 * Uploaded documents. On a shared two-core machine five server processes take about a minute to
 * start from TypeScript and 60 documents about 45 s more, so the suite runs 60 by default;
 * SCALE_DOCS=500 runs the full count (several minutes there).
 */
const DOCS = Number(process.env.SCALE_DOCS ?? 60);
/** Messages per mailbox (one PDF attachment each), half before the kills and half after. */
const MAILS = 6;
const TOKEN = `metrics-${randomBytes(12).toString('hex')}`;

describe.skipIf(!pgUrl)('scale-out: 2 API and 3 worker processes (postgres)', () => {
  let h: MailHarness;
  let s3: LocalS3;
  let sink: WebhookSink;
  const apis: { proc: CliProcess; base: string }[] = [];
  const workers: { proc: CliProcess; metrics: string }[] = [];
  let events: QueueEvents[] = [];

  beforeAll(async () => {
    s3 = await startLocalS3();
    sink = await startWebhookSink();
    const prefix = `scale-${randomBytes(4).toString('hex')}`;
    h = await createMailHarness({
      kind: 'postgres',
      users: ['scale-a', 'scale-b'],
      pipeline: true,
      env: { ...s3.env(prefix), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ENTERPRISE_RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    const schema = (await h.deps.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...workerEnv(h.config),
      ...s3.env(prefix),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DATABASE_URL: databaseUrlWithSchema(pgUrl!, schema),
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: inject('redisUrl'),
      WORKER_CONCURRENCY: '1',
      MAIL_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_DELAYS: '0.5,1,2,4,8',
      ENTERPRISE_RATE_LIMIT_PER_MINUTE: '1000000',
      METRICS_TOKEN: TOKEN,
    };
    const starting: Promise<void>[] = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const proc = startCli(['api'], { name: `api-${i}`, from: 'ts', env: { ...env, PORT: String(port) } });
      const base = `http://127.0.0.1:${port}`;
      apis.push({ proc, base });
      starting.push(proc.ready(`${base}/api/v1/health`));
    }
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const proc = startCli(['worker'], {
        name: `worker-${i}`,
        from: 'ts',
        env: { ...env, PORT: String(await freePort()), METRICS_PORT: String(port) },
      });
      const metrics = `http://127.0.0.1:${port}/metrics`;
      workers.push({ proc, metrics });
      starting.push(proc.ready(metrics, { headers: { authorization: `Bearer ${TOKEN}` } }));
    }
    await Promise.all(starting);
  }, 400_000);

  afterAll(async () => {
    await Promise.all(events.map((e) => e.close()));
    await Promise.all([...apis, ...workers].map((p) => p.proc.stop(10_000)));
    await h?.close();
    await sink?.close();
    await s3?.close();
  }, 60_000);

  it(
    'every document completes once, every webhook and mail arrives, through two kills',
    { timeout: 240_000 + DOCS * 3_000 },
    async () => {
      const started = Date.now();
      const projectId = await h.createProject({ classification_threshold: 0 });
      const hook = await h.api('POST', '/webhooks', { url: `${sink.url}/hook`, events: ['document.extracted'] });
      expect(hook.status).toBe(201);
      const mailboxes = await Promise.all(
        ['scale-a', 'scale-b'].map((u) => h.createMailbox(u, { project_id: projectId })),
      );

      // Which stage jobs stalled (their worker died) and when each of them finished.
      const stalledAt = new Map<string, number>();
      const finishedAt = new Map<string, number>();
      events = STAGES.map((stage) => {
        const qe = new QueueEvents(stage, {
          connection: h.deps.queues.workerConnection(),
          prefix: h.deps.queues.prefix,
        });
        qe.on('stalled', ({ jobId }) => {
          if (!stalledAt.has(jobId)) stalledAt.set(jobId, Date.now());
        });
        qe.on('completed', ({ jobId }) => finishedAt.set(jobId, Date.now()));
        return qe;
      });
      await Promise.all(events.map((e) => e.waitUntilReady()));

      const mail = (user: string, n: number) =>
        buildMessage({
          subject: `${user} ${n}`,
          messageId: `${user}-${n}@scale.test`,
          body: multipart('mixed', [
            textPart(`scan ${n}`),
            attachmentPart({
              filename: `${user}-${n}.pdf`,
              contentType: 'application/pdf',
              content: tinyPdf(`Invoice ${user}-${n} Total: ${n}9.00 EUR`),
            }),
          ]),
        });
      const sendMail = async (from: number, to: number) => {
        for (const u of ['scale-a', 'scale-b'])
          for (let n = from; n <= to; n++) await h.dovecot.appendMessage(u, 'INBOX', mail(u, n));
      };
      await sendMail(1, MAILS / 2);

      // Uploads, eight at a time, spread over the API processes that are up; a request cut off by
      // the API's death is sent again to the other (the same bytes: a duplicate, never a second document).
      const auth = h.actor.auth.authorization;
      const live = () => apis.filter((a) => !a.proc.gone());
      let next = 0;
      let killedAt = 0;
      let retried = 0;
      const uploadOne = async (i: number) => {
        const text = `Invoice INV-${i}\nACME Supplies GmbH\nInvoice date: 05.03.2024\nTotal: ${i}.00 EUR\nReference ${randomBytes(4).toString('hex')}-${i}\n`;
        for (let attempt = 0; ; attempt++) {
          const api = live()[(i + attempt) % live().length];
          const form = new FormData();
          form.set('project_id', projectId);
          form.set('file', new Blob([text], { type: 'text/plain' }), `inv-${i}.txt`);
          try {
            const res = await fetch(`${api.base}/api/v1/documents`, {
              method: 'POST',
              headers: { authorization: auth },
              body: form,
            });
            if (res.status === 201 || res.status === 200) return;
            throw new Error(`upload ${i}: ${res.status} ${await res.text()}`);
          } catch (err) {
            if (attempt >= 5 || !(err instanceof TypeError)) throw err;
            retried++;
          }
        }
      };
      // The worker is killed while it runs stage jobs (its own docpipe_stage_jobs_active says so),
      // so there is something to take over.
      let inFlightAtKill = 0;
      const killMidway = async () => {
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline) {
          const s = parseScrape(
            await (await fetch(workers[0].metrics, { headers: { authorization: `Bearer ${TOKEN}` } })).text(),
          );
          inFlightAtKill = find(s, 'docpipe_stage_jobs_active').reduce((a, x) => a + x.value, 0);
          if (inFlightAtKill > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        killedAt = Date.now();
        await Promise.all([workers[0].proc.kill(), apis[0].proc.kill()]);
      };
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < DOCS) {
            const i = next++;
            if (i === Math.floor(DOCS / 2)) await killMidway();
            await uploadOne(i);
          }
        }),
      );
      const uploadedAt = Date.now();
      await sendMail(MAILS / 2 + 1, MAILS);

      const total = DOCS + 2 * MAILS;
      const counts = async () =>
        (
          await h.deps.db.query<{ status: string; n: string }>(
            'SELECT status, count(*) AS n FROM documents WHERE project_id = $1 GROUP BY status',
            [projectId],
          )
        ).rows.reduce<Record<string, number>>((a, r) => ({ ...a, [r.status]: Number(r.n) }), {});
      await eventually(
        async () => (await counts()).completed === total,
        `${total} documents completed`,
        120_000 + DOCS * 1_000,
      ).catch(async (err: Error) => {
        throw new Error(
          `${err.message}: ${JSON.stringify(await counts())}; stderr: ${workers.map((w) => w.proc.stderr().slice(-2000)).join('\n')}`,
        );
      });
      const completedAt = Date.now();

      // Exactly once: one stage run per stage and one event of each kind per document.
      const db = h.deps.db;
      expect(
        (
          await db.query(
            'SELECT document_id, stage FROM stage_runs WHERE document_id IN (SELECT id FROM documents WHERE project_id = $1) GROUP BY 1, 2 HAVING count(*) > 1',
            [projectId],
          )
        ).rows,
      ).toEqual([]);
      expect(
        Number(
          (
            await db.query<{ n: string }>(
              'SELECT count(*) AS n FROM stage_runs WHERE document_id IN (SELECT id FROM documents WHERE project_id = $1)',
              [projectId],
            )
          ).rows[0].n,
        ),
      ).toBe(total * 4);
      const perType = (
        await db.query<{ type: string; docs: string; n: string }>(
          `SELECT type, count(DISTINCT data->>'documentId') AS docs, count(*) AS n FROM events WHERE data->>'documentId' IN (SELECT id FROM documents WHERE project_id = $1) GROUP BY type`,
          [projectId],
        )
      ).rows;
      expect(Object.fromEntries(perType.map((r) => [r.type, [Number(r.docs), Number(r.n)]]))).toEqual({
        'document.uploaded': [total, total],
        'document.processed': [total, total],
        'document.classified': [total, total],
        'document.extracted': [total, total],
      });
      expect(
        new Set(
          (
            await db.query<{ sha256: string }>('SELECT sha256 FROM documents WHERE project_id = $1', [projectId])
          ).rows.map((r) => r.sha256),
        ).size,
      ).toBe(total);

      // Every document.extracted event delivered to the receiver.
      const extracted = (
        await db.query<{ id: string }>(
          `SELECT id FROM events WHERE type = 'document.extracted' AND data->>'documentId' IN (SELECT id FROM documents WHERE project_id = $1)`,
          [projectId],
        )
      ).rows.map((r) => r.id);
      await eventually(
        async () => {
          const got = new Set(sink.requests.map((r) => (JSON.parse(r.body) as { id: string }).id));
          return extracted.every((id) => got.has(id));
        },
        'every webhook at the receiver',
        60_000,
      );
      const deliveries = (
        await db.query<{ status: string; n: string }>(
          'SELECT status, count(*) AS n FROM webhook_deliveries WHERE subscription_id = $1 GROUP BY status',
          [hook.body.data.id],
        )
      ).rows;
      await eventually(
        async () => {
          const rows = (
            await db.query<{ status: string; n: string }>(
              'SELECT status, count(*) AS n FROM webhook_deliveries WHERE subscription_id = $1 GROUP BY status',
              [hook.body.data.id],
            )
          ).rows;
          return rows.length === 1 && rows[0].status === 'delivered' && Number(rows[0].n) === total;
        },
        `all ${total} deliveries recorded as delivered (${JSON.stringify(deliveries)})`,
        30_000,
      );

      // Every message consumed once, in both mailboxes.
      for (const m of mailboxes) {
        const rows = await h.messages(m.id);
        expect(rows.map((r) => r.status)).toEqual(Array(MAILS).fill('consumed'));
        expect(new Set(rows.map((r) => r.message_key)).size).toBe(MAILS);
        expect(rows.every((r) => r.document_ids.length === 1)).toBe(true);
      }
      // The two surviving workers hold one mailbox each (the share of 2 mailboxes over 2 pollers).
      const scrapes = await Promise.all(
        workers
          .filter((w) => !w.proc.gone())
          .map(async (w) =>
            parseScrape(await (await fetch(w.metrics, { headers: { authorization: `Bearer ${TOKEN}` } })).text()),
          ),
      );
      const holders = mailboxes.map((m) =>
        scrapes.findIndex((s) => find(s, 'docpipe_mail_mailbox_leased', { mailbox_id: m.id }).length === 1),
      );
      expect(holders.every((x) => x >= 0)).toBe(true);
      expect(new Set(holders).size).toBe(2);
      // The surviving API reports the queues, the workers their stages.
      const apiScrape = parseScrape(
        await (await fetch(`${apis[1].base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text(),
      );
      expect(find(apiScrape, 'docpipe_queue_jobs', { queue: 'parse', state: 'waiting' })).toHaveLength(1);
      expect(
        scrapes.reduce(
          (a, s) => a + find(s, 'docpipe_stage_duration_seconds_count').reduce((b, x) => b + x.value, 0),
          0,
        ),
      ).toBeGreaterThan(0);

      // Timing for the log only.
      const recovered = [...stalledAt.keys()].map((id) => ({
        id,
        stalledAfter: stalledAt.get(id)! - killedAt,
        doneAfter: (finishedAt.get(id) ?? NaN) - killedAt,
      }));
      const secs = (ms: number) => (ms / 1000).toFixed(1);
      console.info(
        [
          `scale-out: ${DOCS} uploads + ${2 * MAILS} mails, 2 API + 3 worker processes; uploads done in ${secs(uploadedAt - started)} s, all completed after ${secs(completedAt - started)} s`,
          `  uploads re-sent after the API kill: ${retried}; webhook requests received: ${sink.requests.length} for ${extracted.length} events`,
          `  killed worker: ${inFlightAtKill} stage jobs running at the kill, ${recovered.length} stalled; detected ${recovered.length ? secs(Math.min(...recovered.map((r) => r.stalledAfter))) : '-'}–${recovered.length ? secs(Math.max(...recovered.map((r) => r.stalledAfter))) : '-'} s after the kill, the last finished ${recovered.length ? secs(Math.max(...recovered.map((r) => r.doneAfter))) : '-'} s after it`,
        ].join('\n'),
      );
    },
  );
});
