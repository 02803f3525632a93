// docpipe behind a real PgBouncer in transaction mode (started by this file in front of the test
// PostgreSQL). PgBouncer gives it 2 server connections for a pool of 10 clients, so consecutive
// transactions of one docpipe connection run on different server connections: any session state
// (a SET, a session lock, a temporary table, a LISTEN, a prepared statement the pooler does not
// track) would break something here. Migrations, the pipeline with its workers, the outbox relay,
// webhook deliveries, a document-triggered workflow and semantic search (SET LOCAL in its
// transaction) all run through the pooler. Before PgBouncer 1.21 named prepared statements are
// turned off (DATABASE_PREPARED_STATEMENTS=false), from 1.21 the pooler keeps them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { databaseUrl } from '../../helpers/db.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import {
  pgbouncerKeepsPreparedStatements,
  pgbouncerMissing,
  startPgBouncer,
  type PgBouncerHandle,
} from '../../helpers/pgbouncer.js';
import { createProject, PIPELINE_QUEUES, tinyModelDir, upload, waitForDocument } from '../../helpers/pipeline.js';
import { eventually } from '../../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { createDb, type Db } from '../../../src/db/client.js';
import { migrate } from '../../../src/db/migrate.js';
import { startWorkers, type WorkerHandle } from '../../../workers/index.js';

const url = databaseUrl();
const skip = !url ? 'TEST_DATABASE_URL is not set (PgBouncer needs a PostgreSQL)' : pgbouncerMissing();
if (skip) console.warn(`pgbouncer test skipped: ${skip}`);

describe.skipIf(skip !== null)('behind PgBouncer in transaction mode', () => {
  const database = `docpipe_pgb_${randomBytes(5).toString('hex')}`;
  let bouncer: PgBouncerHandle;
  let db: Db;
  let t: WorkflowStack;
  let workers: WorkerHandle;
  let sink: WebhookSink;
  let owner: Actor;
  let projectId: string;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  const api = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${path}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${database}`));
    const target = new URL(url!);
    const prepared = pgbouncerKeepsPreparedStatements();
    bouncer = await startPgBouncer({
      host: target.hostname,
      port: Number(target.port || 5432),
      user: decodeURIComponent(target.username || 'postgres'),
      serverPoolSize: 2,
      preparedStatements: prepared ? 200 : 0,
    });
    db = await createDb({ url: bouncer.url(database), poolSize: 10, prepare: prepared });
    await migrate(db); // through the pooler: its lock is transaction-scoped
    t = await createWorkflowTestApp({
      kind: 'postgres',
      db,
      env: { EMBEDDING_MODEL_DIR: await tinyModelDir(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    });
    workers = await startWorkers(t.deps, { queues: PIPELINE_QUEUES, concurrency: 2, schedulers: false });
    sink = await startWebhookSink();
    owner = await createActor(t as unknown as TestApp);
    projectId = await createProject(t as unknown as TestApp, owner);
  }, 120_000);

  afterAll(async () => {
    await workers?.close(2_000);
    await t?.close();
    await db?.close();
    await sink?.close();
    await bouncer?.stop();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(() => undefined);
  });

  it('migrated through the pooler, and a second migration run finds nothing to do', async () => {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.length).toBeGreaterThan(5);
    expect(await migrate(db)).toEqual([]); // a second run finds nothing to do
  });

  it('runs documents uploaded at once through every stage, delivers their webhooks and starts their workflow runs', async () => {
    const hook = await api('POST', '/webhooks', { url: sink.url, events: ['document.extracted'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const wf = await api('POST', '/workflows', {
      name: 'on extracted',
      nodes: [
        {
          id: 'on',
          type: 'trigger.document',
          config: { events: ['document.extracted'], filters: { project_ids: [projectId] } },
        },
      ],
      edges: [],
      status: 'active',
    });
    expect(wf.statusCode, wf.body).toBe(201);

    const ids = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const pdf = await makeTextPdf({
          pages: [[`Invoice No: PGB-${i}`, 'Invoice date: 05.03.2024', `Total: ${100 + i}.00 EUR`]],
        });
        const res = await upload(t as unknown as TestApp, owner, projectId, `invoice-${i}.pdf`, pdf);
        expect(res.statusCode, res.body).toBe(201);
        return body(res).data.id as string;
      }),
    );
    for (const id of ids) expect((await waitForDocument(t as unknown as TestApp, id, 60_000)).status).toBe('completed');

    const docs = body(await api('GET', `/documents?project_id=${projectId}&per_page=20`)).data as {
      id: string;
      fields: { invoice_number?: { value: string } };
    }[];
    expect(docs.map((d) => d.fields.invoice_number?.value).sort()).toEqual(ids.map((_, i) => `PGB-${i}`).sort());

    const deliveredIds = () =>
      [
        ...new Set(sink.requests.map((r) => (JSON.parse(r.body) as { data: { documentId: string } }).data.documentId)),
      ].sort();
    await eventually(() => deliveredIds().length >= ids.length, 'a webhook per document', 30_000);
    expect(deliveredIds()).toEqual([...ids].sort());
    const runs = async () =>
      (
        await db.query<{ document_id: string; status: string }>(
          'SELECT document_id, status FROM workflow_runs WHERE workflow_id = $1',
          [body(wf).data.id],
        )
      ).rows;
    await eventually(
      async () => (await runs()).filter((r) => r.status === 'completed').length >= ids.length,
      'a completed run per document',
      30_000,
    );
    expect((await runs()).map((r) => r.document_id).sort()).toEqual([...ids].sort());
  });

  it('searches by words and by meaning (SET LOCAL in its transaction) through the pooler', async () => {
    const keyword = await api('GET', `/documents/search?q=${encodeURIComponent('PGB-3')}&mode=keyword`);
    expect(keyword.statusCode, keyword.body).toBe(200);
    expect((body(keyword).data.results as { document: { filename: string } }[])[0]?.document.filename).toBe(
      'invoice-3.pdf',
    );
    const semantic = await api('GET', `/documents/search?q=invoice&mode=semantic&limit=5`);
    expect(semantic.statusCode, semantic.body).toBe(200);
    expect(body(semantic).data.mode).toBe('semantic');
    expect((body(semantic).data.results as unknown[]).length).toBeGreaterThan(0);
  });
});
