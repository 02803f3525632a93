// GET /metrics on a real app with the real pipeline workers: the token is required, and after a
// few requests and one processed document the series exist with values that fit what happened.
// Also the separate METRICS_PORT listener, the configuration rules, and the Grafana dashboard
// (every metric it queries is one this service exposes).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config.js';
import { QUEUE_NAMES } from '../../../src/jobs/queues.js';
import { createLogger } from '../../../src/lib/logger.js';
import { startMetricsServer, trackQueues } from '../../../src/modules/metrics/index.js';
import { body, createActor, createTestApp, testConfig, type Actor } from '../../helpers/app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createPipelineApp, createProject, upload, waitForDocument, type PipelineApp } from '../../helpers/pipeline.js';
import { find, isExposed, parseScrape, total, type Scrape } from '../../helpers/prometheus.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const STAGES = ['parse', 'embed', 'classify', 'extract'];

describe('GET /metrics', () => {
  let t: PipelineApp;
  let actor: Actor;
  let scrape: Scrape;
  let docId: string;

  beforeAll(async () => {
    t = await createPipelineApp('pglite', { METRICS_TOKEN: TOKEN });
    // What `docpipe api` does at start-up.
    trackQueues(t.deps.metrics.registry, t.deps.queues, QUEUE_NAMES);
    actor = await createActor(t);
    const projectId = await createProject(t, actor);
    const res = await upload(
      t,
      actor,
      projectId,
      'invoice.pdf',
      await makeTextPdf({ pages: [['Invoice', 'Invoice No: INV-7', 'Total: 12.00 EUR']] }),
    );
    expect(res.statusCode).toBe(201);
    docId = body(res).data.id;
    expect((await waitForDocument(t, docId, 120_000)).status).toBe('completed');
    for (let i = 0; i < 3; i++)
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/v1/documents/${docId}`, headers: actor.auth })).statusCode,
      ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/documents/doc_doesnotexist', headers: actor.auth }))
        .statusCode,
    ).toBe(404);
    const res2 = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res2.statusCode).toBe(200);
    expect(res2.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    scrape = parseScrape(res2.body);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a missing or wrong token with 401 and the error envelope', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
      expect(res.body).not.toContain('docpipe_');
    }
  });

  it('counts requests by route pattern and status, with latency buckets', () => {
    const ok = find(scrape, 'docpipe_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/v1/documents/:id',
      status_code: '200',
    });
    expect(ok).toHaveLength(1);
    expect(ok[0].value).toBeGreaterThanOrEqual(3);
    expect(
      total(scrape, 'docpipe_http_request_duration_seconds_count', {
        route: '/api/v1/documents/:id',
        status_code: '404',
      }),
    ).toBe(1);
    expect(
      total(scrape, 'docpipe_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/documents',
        status_code: '201',
      }),
    ).toBe(1);
    // Raw ids never become label values.
    expect(scrape.samples.some((s) => s.labels.route?.includes(docId))).toBe(false);
    const inf = find(scrape, 'docpipe_http_request_duration_seconds_bucket', {
      route: '/api/v1/documents/:id',
      status_code: '200',
      le: '+Inf',
    });
    expect(inf[0].value).toBe(ok[0].value);
    const sum = total(scrape, 'docpipe_http_request_duration_seconds_sum', {
      route: '/api/v1/documents/:id',
      status_code: '200',
    });
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(30);
  });

  it('reports each stage of the processed document, queue depths and ages, and the process', () => {
    for (const stage of STAGES) {
      expect(
        total(scrape, 'docpipe_stage_duration_seconds_count', { stage, outcome: 'done' }),
        stage,
      ).toBeGreaterThanOrEqual(1);
      const secs = total(scrape, 'docpipe_stage_duration_seconds_sum', { stage });
      expect(secs, stage).toBeGreaterThan(0);
      expect(secs, stage).toBeLessThan(60);
    }
    expect(scrape.families.get('docpipe_stage_failures_total')).toBe('counter');
    // Nothing running once the document is done.
    for (const stage of STAGES) expect(find(scrape, 'docpipe_stage_jobs_active', { stage })[0]?.value, stage).toBe(0);
    for (const queue of QUEUE_NAMES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        const depth = find(scrape, 'docpipe_queue_jobs', { queue, state });
        expect(depth, `${queue} ${state}`).toHaveLength(1);
        expect(depth[0].value).toBeGreaterThanOrEqual(0);
        const age = find(scrape, 'docpipe_queue_oldest_job_age_seconds', { queue, state });
        expect(age, `${queue} ${state}`).toHaveLength(1);
        expect(age[0].value).toBeGreaterThanOrEqual(0);
        expect(age[0].value).toBeLessThan(3600);
      }
    }
    expect(total(scrape, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(find(scrape, 'nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);
    expect(scrape.families.get('docpipe_webhook_deliveries_total')).toBe('counter');
    expect(total(scrape, 'docpipe_sheets_rows_written_total')).toBe(0);
  });

  it('reports the age of the oldest waiting job', async () => {
    const q = t.deps.queues.get('reports');
    await q.pause();
    await q.add('probe', {}, { jobId: 'metrics-probe', timestamp: Date.now() - 120_000 });
    // Past the 5 s snapshot cache.
    await new Promise((r) => setTimeout(r, 5_100));
    const s = parseScrape(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body,
    );
    expect(total(s, 'docpipe_queue_jobs', { queue: 'reports', state: 'waiting' })).toBe(1);
    const age = total(s, 'docpipe_queue_oldest_job_age_seconds', { queue: 'reports', state: 'waiting' });
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(200);
    await q.obliterate({ force: true });
  });

  it('reports the mailboxes a poller holds', async () => {
    const untrack = t.deps.metrics.trackMailPoller({
      stats: () => ({
        mbx_a: { online: true, lastPollAt: 1_700_000_000_000 },
        mbx_b: { online: false, lastPollAt: null },
      }),
    });
    const s = parseScrape(await t.deps.metrics.scrape());
    expect(total(s, 'docpipe_mail_mailbox_connected', { mailbox_id: 'mbx_a' })).toBe(1);
    expect(total(s, 'docpipe_mail_mailbox_connected', { mailbox_id: 'mbx_b' })).toBe(0);
    expect(total(s, 'docpipe_mail_mailbox_leased')).toBe(2);
    expect(total(s, 'docpipe_mail_last_poll_timestamp_seconds', { mailbox_id: 'mbx_a' })).toBe(1_700_000_000);
    untrack();
    expect(find(parseScrape(await t.deps.metrics.scrape()), 'docpipe_mail_mailbox_leased')).toHaveLength(0);
  });

  it('the Grafana dashboard is valid JSON and queries only metrics this service exposes', () => {
    const dash = JSON.parse(readFileSync(new URL('../../../docs/grafana/docpipe.json', import.meta.url), 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const exprs = dash.panels.flatMap((p) => p.targets ?? []).map((x) => x.expr);
    expect(exprs.length).toBeGreaterThan(10);
    // Series Prometheus itself adds (`up`) are not ours to expose.
    const names = new Set(
      exprs.flatMap((e) =>
        [...e.matchAll(/\b(docpipe_[a-z0-9_]+|nodejs_[a-z0-9_]+|process_[a-z0-9_]+)\b/g)].map((m) => m[1]),
      ),
    );
    expect(names.size).toBeGreaterThan(10);
    const missing = [...names].filter((n) => !isExposed(scrape, n) && !isExposed(parseScrape(''), n));
    expect(missing).toEqual([]);
    // Every docpipe family is on the dashboard.
    const ours = [...scrape.families.keys()].filter((n) => n.startsWith('docpipe_'));
    expect(ours.filter((n) => ![...names].some((x) => x === n || x.startsWith(`${n}_`)))).toEqual([]);
  });
});

describe('metrics configuration', () => {
  it('is off without METRICS_TOKEN or METRICS_PORT', async () => {
    const t = await createTestApp('pglite');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('docpipe_');
    } finally {
      await t.close();
    }
  });

  it('refuses a short token and a METRICS_PORT equal to PORT', () => {
    expect(() => testConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => testConfig({ METRICS_TOKEN: 'has spaces in it, long enough' })).toThrow(/METRICS_TOKEN/);
    expect(() => testConfig({ METRICS_PORT: '8000', PORT: '8000' })).toThrow(/METRICS_PORT: must differ from PORT/);
  });

  it('the separate listener serves /metrics, with the token when one is set', async () => {
    const t = await createTestApp('pglite', { METRICS_PORT: '9999', METRICS_TOKEN: TOKEN });
    const logger = createLogger({ level: 'silent', pretty: false });
    try {
      // With METRICS_PORT the API port does not serve them.
      expect(
        (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }))
          .statusCode,
      ).toBe(404);
      const withToken = await startMetricsServer({
        metrics: t.deps.metrics,
        port: 0,
        host: '127.0.0.1',
        token: TOKEN,
        logger,
      });
      const open = await startMetricsServer({ metrics: t.deps.metrics, port: 0, host: '127.0.0.1', logger });
      try {
        const url = (p: number, path = '/metrics') => `http://127.0.0.1:${p}${path}`;
        expect((await fetch(url(withToken.port))).status).toBe(401);
        const ok = await fetch(url(withToken.port), { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(ok.status).toBe(200);
        expect(await ok.text()).toContain('# TYPE docpipe_http_request_duration_seconds histogram');
        expect((await fetch(url(open.port))).status).toBe(200);
        expect((await fetch(url(open.port, '/api/v1/health'))).status).toBe(404);
        expect((await fetch(url(open.port), { method: 'POST' })).status).toBe(404);
      } finally {
        await withToken.close();
        await open.close();
      }
    } finally {
      await t.close();
    }
  });
});
