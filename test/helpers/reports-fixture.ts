// A small, hand-countable data set for report tests: organization A (live) with documents,
// stage runs, API usage and webhook deliveries in and around 1-2 March 2026 (Europe/Berlin),
// plus rows that must never be counted: A's test environment and organization B.
// The expected numbers are worked out by hand in test/integration/reports/types.test.ts.
import type { Queryable } from '../../src/db/client.js';

export const FIXTURE = {
  orgA: 'org_fixA',
  orgB: 'org_fixB',
  userA: 'usr_fixA',
  userB: 'usr_fixB',
  p1: 'prj_fix1',
  p2: 'prj_fix2',
  p3test: 'prj_fix3',
  pB: 'prj_fixB',
  keyA: 'key_fixA',
  keyAtest: 'key_fixAt',
  keyB: 'key_fixB',
  /** [from, to) = 1-2 March 2026 in Berlin. */
  from: new Date('2026-02-28T23:00:00Z'),
  to: new Date('2026-03-02T23:00:00Z'),
  timezone: 'Europe/Berlin',
};

interface Doc {
  id: string;
  org?: string;
  env?: 'live' | 'test';
  project: string;
  created: string;
  status: string;
  source?: string;
  classification?: unknown;
  fields?: unknown;
  pages?: number | null;
  size: number;
  version?: number;
  completed?: string;
  extracted?: string;
  error?: unknown;
}

const DOCS: Doc[] = [
  {
    id: 'doc_01',
    project: 'prj_fix1',
    created: '2026-03-01T08:00:00Z',
    status: 'completed',
    classification: { type: 'invoice', confidence: 0.95, method: 'builtin' },
    fields: {
      invoice_number: { value: 'INV-1', confidence: 0.9, method: 'template' },
      total: { value: 100.5, confidence: 0.8, method: 'template' },
    },
    pages: 2,
    size: 1000,
    completed: '2026-03-01T08:00:10Z',
    extracted: '2026-03-01T08:00:09Z',
  },
  {
    id: 'doc_02',
    project: 'prj_fix1',
    created: '2026-02-28T23:30:00Z',
    status: 'needs_review',
    source: 'email',
    classification: { type: 'receipt', confidence: 0.45, method: 'builtin' },
    pages: 1,
    size: 500,
  },
  {
    id: 'doc_03',
    project: 'prj_fix2',
    created: '2026-03-02T12:00:00Z',
    status: 'completed',
    version: 2,
    classification: {
      type: 'invoice',
      confidence: 1,
      method: 'manual',
      confirmed: true,
      predicted: { type: 'receipt', confidence: 0.55, method: 'builtin', needs_review: true },
    },
    fields: { invoice_number: { value: '=SUM(A1)', confidence: 0.7, method: 'generic' } },
    pages: 3,
    size: 2000,
    completed: '2026-03-02T12:00:30Z',
  },
  {
    id: 'doc_04',
    project: 'prj_fix2',
    created: '2026-03-02T22:30:00Z',
    status: 'failed',
    source: 'api',
    pages: null,
    size: 300,
    error: { stage: 'parse', code: 'CORRUPT', message: 'bad pdf' },
  },
  // outside the period (Berlin 3 March 00:30, and 28 February 23:30)
  { id: 'doc_05', project: 'prj_fix1', created: '2026-03-02T23:30:00Z', status: 'completed', pages: 9, size: 9 },
  { id: 'doc_06', project: 'prj_fix1', created: '2026-02-28T22:30:00Z', status: 'completed', pages: 9, size: 9 },
  // same instant as doc_01: ordered after it by id
  {
    id: 'doc_07',
    project: 'prj_fix1',
    created: '2026-03-01T08:00:00Z',
    status: 'completed',
    classification: {
      type: 'invoice',
      confidence: 1,
      method: 'manual',
      confirmed: true,
      predicted: { type: 'invoice', confidence: 0.62, method: 'builtin', needs_review: false },
    },
    fields: { total: { value: 42, confidence: 0.99, method: 'generic' } },
    pages: 1,
    size: 100,
    completed: '2026-03-01T08:00:20Z',
  },
  // never counted: A's test environment, organization B
  {
    id: 'doc_08',
    env: 'test',
    project: 'prj_fix3',
    created: '2026-03-01T09:00:00Z',
    status: 'completed',
    classification: { type: 'invoice', confidence: 0.9, method: 'builtin' },
    fields: { invoice_number: { value: 'TEST', confidence: 1, method: 'x' } },
    pages: 50,
    size: 50,
  },
  {
    id: 'doc_09',
    org: 'org_fixB',
    project: 'prj_fixB',
    created: '2026-03-01T09:00:00Z',
    status: 'failed',
    classification: { type: 'receipt', confidence: 0.1, method: 'builtin' },
    pages: 70,
    size: 70,
    error: { stage: 'parse', code: 'OTHER', message: 'b' },
  },
];

/** [document, version, stage, started, finished] */
const STAGE_RUNS: [string, number, string, string | null, string][] = [
  ['doc_01', 1, 'parse', '2026-03-01T08:00:01Z', '2026-03-01T08:00:03Z'],
  ['doc_01', 1, 'embed', '2026-03-01T08:00:04Z', '2026-03-01T08:00:05Z'],
  ['doc_01', 1, 'classify', '2026-03-01T08:00:05Z', '2026-03-01T08:00:05.5Z'],
  ['doc_01', 1, 'extract', '2026-03-01T08:00:08Z', '2026-03-01T08:00:09Z'],
  ['doc_07', 1, 'parse', '2026-03-01T08:00:02Z', '2026-03-01T08:00:06Z'],
  ['doc_07', 1, 'classify', '2026-03-01T08:00:06.5Z', '2026-03-01T08:00:07Z'],
  ['doc_03', 1, 'parse', '2026-03-02T12:00:00Z', '2026-03-02T12:00:06Z'],
  ['doc_03', 2, 'extract', '2026-03-02T13:00:00Z', '2026-03-02T13:00:03Z'],
  ['doc_02', 1, 'parse', null, '2026-03-01T00:00:00Z'],
  ['doc_02', 1, 'classify', '2026-03-01T00:00:02Z', '2026-03-01T00:00:03Z'],
  ['doc_08', 1, 'parse', '2026-03-01T09:00:00Z', '2026-03-01T09:00:59Z'],
  ['doc_09', 1, 'parse', '2026-03-01T09:00:00Z', '2026-03-01T09:00:59Z'],
];

export async function seedReportsFixture(q: Queryable): Promise<void> {
  await q.query(
    `INSERT INTO organizations (id, name, plan) VALUES ('org_fixA', 'Fixture A', 'pro'), ('org_fixB', 'Fixture B', 'free')`,
  );
  await q.query(`INSERT INTO users (id, org_id, email, password_hash, role) VALUES
    ('usr_fixA', 'org_fixA', 'a@fixture.test', 'x', 'owner'), ('usr_fixB', 'org_fixB', 'b@fixture.test', 'x', 'owner')`);
  await q.query(`INSERT INTO api_keys (id, org_id, environment, created_by, name, key_hash, masked_key) VALUES
    ('key_fixA', 'org_fixA', 'live', 'usr_fixA', 'ci', 'h1', 'svc_live_ab…yz'),
    ('key_fixAt', 'org_fixA', 'test', 'usr_fixA', 'ci-test', 'h2', 'svc_test_ab…yz'),
    ('key_fixB', 'org_fixB', 'live', 'usr_fixB', 'b', 'h3', 'svc_live_cd…yz')`);
  await q.query(`INSERT INTO projects (id, org_id, environment, name) VALUES
    ('prj_fix1', 'org_fixA', 'live', 'Invoices'), ('prj_fix2', 'org_fixA', 'live', 'Receipts'),
    ('prj_fix3', 'org_fixA', 'test', 'Test project'), ('prj_fixB', 'org_fixB', 'live', 'B project')`);
  for (const d of DOCS) {
    await q.query(
      `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source, status,
         classification, fields, page_count, version, created_at, updated_at, completed_at, extracted_at, error)
       VALUES ($1, $2, $3, $4, $5, 'application/pdf', $6, 'x', 'x', $7, $8, $9, $10, $11, $12, $13, $13, $14, $15, $16)`,
      [
        d.id,
        d.org ?? 'org_fixA',
        d.env ?? 'live',
        d.project,
        `${d.id}.pdf`,
        d.size,
        d.source ?? 'upload',
        d.status,
        d.classification ? JSON.stringify(d.classification) : null,
        d.fields ? JSON.stringify(d.fields) : null,
        d.pages ?? null,
        d.version ?? 1,
        d.created,
        d.completed ?? null,
        d.extracted ?? null,
        d.error ? JSON.stringify(d.error) : null,
      ],
    );
  }
  for (const [doc, version, stage, started, finished] of STAGE_RUNS) {
    await q.query(
      'INSERT INTO stage_runs (document_id, version, stage, started_at, finished_at) VALUES ($1, $2, $3, $4, $5)',
      [doc, version, stage, started, finished],
    );
  }
  await q.query(`INSERT INTO api_usage_daily (org_id, environment, day, key_id, requests) VALUES
    ('org_fixA', 'live', '2026-02-28', 'key_fixA', 2), ('org_fixA', 'live', '2026-03-01', 'key_fixA', 10),
    ('org_fixA', 'live', '2026-03-01', '', 3), ('org_fixA', 'live', '2026-03-02', 'key_fixA', 5),
    ('org_fixA', 'live', '2026-03-03', 'key_fixA', 7), ('org_fixA', 'test', '2026-03-01', 'key_fixAt', 100),
    ('org_fixB', 'live', '2026-03-01', 'key_fixB', 50)`);
  await q.query(`INSERT INTO webhook_subscriptions (id, org_id, environment, url, events, secret_sealed) VALUES
    ('whk_fixA', 'org_fixA', 'live', 'https://a.example/hook', '{*}', 'sealed'), ('whk_fixB', 'org_fixB', 'live', 'https://b.example/hook', '{*}', 'sealed')`);
  await q.query(`INSERT INTO events (id, org_id, environment, type, data) VALUES
    ('evt_fix1', 'org_fixA', 'live', 'document.processed', '{}'), ('evt_fix2', 'org_fixA', 'live', 'document.processed', '{}'),
    ('evt_fix3', 'org_fixA', 'live', 'document.processed', '{}'), ('evt_fixB', 'org_fixB', 'live', 'document.processed', '{}')`);
  await q.query(`INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, created_at) VALUES
    ('dlv_fix1', 'org_fixA', 'live', 'whk_fixA', 'evt_fix1', 'document.processed', 'delivered', '2026-03-01T10:00:00Z'),
    ('dlv_fix2', 'org_fixA', 'live', 'whk_fixA', 'evt_fix2', 'document.processed', 'failed', '2026-03-02T09:00:00Z'),
    ('dlv_fix3', 'org_fixA', 'live', 'whk_fixA', 'evt_fix3', 'document.processed', 'pending', '2026-03-02T09:30:00Z'),
    ('dlv_fixB', 'org_fixB', 'live', 'whk_fixB', 'evt_fixB', 'document.processed', 'failed', '2026-03-01T10:00:00Z')`);
  await q.query(`INSERT INTO webhook_attempts (delivery_id, attempt, trigger, status_code, duration_ms, attempted_at) VALUES
    ('dlv_fix1', 1, 'scheduled', 500, 10, '2026-03-01T10:00:01Z'), ('dlv_fix1', 2, 'scheduled', 200, 10, '2026-03-01T10:01:00Z'),
    ('dlv_fix2', 1, 'scheduled', 0, 10, '2026-03-02T09:00:01Z'), ('dlv_fix2', 2, 'scheduled', 503, 10, '2026-03-02T10:00:00Z'),
    ('dlv_fixB', 1, 'scheduled', 500, 10, '2026-03-01T10:00:01Z')`);
}
