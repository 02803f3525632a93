// Core delivery behaviour against a real receiver: payload, headers, signatures, the retry
// schedule, failing/suspended/enable, redirects, timeouts and 410. Runs on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWebhooksTestApp, eventually, type WebhooksTestApp } from '../../helpers/webhooks-harness.js';
import { createAllowList, createSafeHttpClient } from '../../../src/lib/http-client/index.js';
import { newId } from '../../../src/lib/ids.js';
import { createDeliveryExecutor } from '../../../src/modules/webhooks/delivery.js';
import { createDeliveryStore } from '../../../src/modules/webhooks/delivery-store.repository.js';
import { verifyWebhookSignature } from '../../../src/modules/webhooks/index.js';
import { attemptsOf, createSub, deliveriesOf, owner, sleep, subStatus, warmOwners } from './helpers.js';

describe.each(dbKinds())('webhook delivery (%s)', (kind) => {
  let t: WebhooksTestApp;
  const sinks: WebhookSink[] = [];
  const sink = async () => {
    const s = await startWebhookSink();
    sinks.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await createWebhooksTestApp({ kind, env: { WEBHOOK_TIMEOUT_MS: '400' } });
    warmOwners(t, 7);
  });
  afterEach(async () => {
    for (const s of sinks.splice(0)) await s.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('delivers on the first try with the exact payload, headers and verifiable signatures', async () => {
    const actor = await owner(t);
    const rx = await sink();
    const sub = await createSub(t, actor, { url: rx.url, events: ['document.processed'] });
    expect(sub.secret).toMatch(/^whsec_/);
    const data = {
      documentId: 'doc_1',
      filename: 'factura-ñ.pdf',
      status: 'processed',
      classification: { type: 'invoice', confidence: 0.93 },
    };
    const eventId = await t.emit(actor.orgId, 'document.processed', data);
    await t.emit(actor.orgId, 'document.uploaded', { documentId: 'doc_1' }); // not subscribed

    await rx.waitFor(1);
    const req = rx.requests[0];
    const payload = JSON.parse(req.body);
    expect(Object.keys(payload)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(payload).toMatchObject({ id: eventId, type: 'document.processed', data });
    expect(payload.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-event-id']).toBe(eventId);
    expect(req.headers['x-service-event-type']).toBe('document.processed');
    expect(req.headers['webhook-id']).toBe(eventId);
    expect(req.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);

    // Both header forms verify on the receiver side, each on its own.
    expect(verifyWebhookSignature(req.body, req.headers, sub.secret)).toBe(true);
    const seedOnly = { 'x-service-signature': req.headers['x-service-signature'] as string };
    expect(verifyWebhookSignature(req.body, seedOnly, sub.secret)).toBe(true);
    const bareHex = { 'X-Service-Signature': (req.headers['x-service-signature'] as string).slice('sha256='.length) };
    expect(verifyWebhookSignature(req.body, bareHex, sub.secret)).toBe(true);
    const standardOnly = {
      'webhook-id': req.headers['webhook-id'],
      'webhook-timestamp': req.headers['webhook-timestamp'],
      'webhook-signature': req.headers['webhook-signature'],
    } as Record<string, string>;
    expect(verifyWebhookSignature(req.body, standardOnly, sub.secret)).toBe(true);
    // One byte changed, or the wrong secret: refused in both forms.
    const tampered = req.body.replace('"doc_1"', '"doc_2"');
    expect(tampered).toHaveLength(req.body.length);
    expect(verifyWebhookSignature(tampered, seedOnly, sub.secret)).toBe(false);
    expect(verifyWebhookSignature(tampered, standardOnly, sub.secret)).toBe(false);
    expect(verifyWebhookSignature(req.body, req.headers, 'whsec_' + Buffer.alloc(32, 1).toString('base64'))).toBe(
      false,
    );

    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds.length === 1 && ds[0].status === 'delivered' ? ds : null;
    }, 'delivered row');
    expect(d.attempts).toBe(1);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/webhooks/deliveries/${d.id}`,
      headers: actor.auth,
    });
    expect(detail.statusCode).toBe(200);
    const dd = body(detail).data;
    expect(dd).toMatchObject({
      status: 'delivered',
      attempts: 1,
      event_id: eventId,
      payload: { id: eventId, type: 'document.processed', data },
    });
    expect(dd.attempt_log).toHaveLength(1);
    expect(dd.attempt_log[0]).toMatchObject({
      attempt: 1,
      trigger: 'scheduled',
      status_code: 200,
      response_body: 'ok',
      error: null,
      next_attempt_at: null,
    });
    expect(rx.requests).toHaveLength(1);
  });

  it('500 then 200 ends delivered after two attempts; Retry-After stretches the delay within [d, 2d]', async () => {
    const actor = await owner(t);
    const rx = await sink();
    rx.setStatus(() => (rx.requests.length === 1 ? 503 : 200));
    rx.setResponseHeaders({ 'Retry-After': '1' }); // 1 s, clamped to 2 × the 50 ms first delay
    const sub = await createSub(t, actor, { url: rx.url });
    await t.emit(actor.orgId, 'document.classified', { documentId: 'doc_2' });
    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds[0]?.status === 'delivered' ? ds : null;
    }, 'delivery after retry');
    const log = await attemptsOf(t, d.id);
    expect(log.map((a) => a.status_code)).toEqual([503, 200]);
    const scheduledAfter = log[0].next_attempt_at!.getTime() - log[0].attempted_at.getTime();
    expect(scheduledAfter).toBeGreaterThanOrEqual(100);
    expect(scheduledAfter).toBeLessThan(1000);
    expect(rx.requests.map((r) => r.headers['webhook-id'])).toEqual([d.event_id, d.event_id]);
  });

  it('always 500: 1 + 5 attempts in schedule order, then failing, suspended, and enable delivers', async () => {
    const actor = await owner(t);
    const rx = await sink();
    rx.setStatus(500);
    const sub = await createSub(t, actor, { url: rx.url });
    const first = await t.emit(actor.orgId, 'workflow.failed', { runId: 'run_1' });
    await eventually(async () => (await subStatus(t, sub.id)) === 'failing', 'subscription failing');

    const [d] = await deliveriesOf(t, sub.id);
    expect(d).toMatchObject({ event_id: first, status: 'failed', attempts: 6 });
    const log = await attemptsOf(t, d.id);
    expect(log).toHaveLength(6);
    expect(log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(log.every((a) => a.status_code === 500 && a.trigger === 'scheduled')).toBe(true);
    for (let i = 1; i < log.length; i++)
      expect(log[i].attempted_at.getTime()).toBeGreaterThan(log[i - 1].attempted_at.getTime());
    // Each retry was scheduled no earlier than the previous attempt; the last one schedules nothing.
    for (let i = 0; i < 5; i++)
      expect(log[i].next_attempt_at!.getTime()).toBeGreaterThan(log[i].attempted_at.getTime());
    expect(log[5].next_attempt_at).toBeNull();
    expect(rx.requests).toHaveLength(6);
    const got = await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/${sub.id}`, headers: actor.auth });
    expect(body(got).data).toMatchObject({ status: 'failing' });
    expect(body(got).data.failing_since).not.toBeNull();

    // While failing: new events are stored as suspended and not sent.
    const later = [
      await t.emit(actor.orgId, 'document.extracted', { n: 1 }),
      await t.emit(actor.orgId, 'document.extracted', { n: 2 }),
    ];
    await eventually(
      async () => (await deliveriesOf(t, sub.id)).filter((x) => x.status === 'suspended').length === 2,
      'suspended deliveries',
    );
    await sleep(150);
    expect(rx.requests).toHaveLength(6);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/webhooks/${sub.id}/deliveries?status=suspended`,
      headers: actor.auth,
    });
    expect(
      body(listed)
        .data.map((x: { event_id: string }) => x.event_id)
        .sort(),
    ).toEqual([...later].sort());
    expect(body(listed).pagination).toMatchObject({ total: 2 });

    // The receiver is fixed and the owner re-enables: the kept events go out, the failed one stays failed.
    rx.setStatus(200);
    const en = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${sub.id}/enable`, headers: actor.auth });
    expect(en.statusCode).toBe(200);
    expect(body(en).data).toMatchObject({ status: 'active', released_deliveries: 2 });
    await rx.waitFor(8);
    await eventually(
      async () => (await deliveriesOf(t, sub.id)).filter((x) => x.status === 'delivered').length === 2,
      'released deliveries delivered',
    );
    expect(
      rx.requests
        .slice(6)
        .map((r) => r.headers['x-service-event-id'])
        .sort(),
    ).toEqual([...later].sort());
    expect((await deliveriesOf(t, sub.id)).find((x) => x.event_id === first)?.status).toBe('failed');
  });

  it('a 308 is a failure and its target is never visited', async () => {
    const actor = await owner(t);
    const rx = await sink();
    const target = await sink();
    rx.setRedirect(target.url, 308);
    const sub = await createSub(t, actor, { url: rx.url });
    await t.emit(actor.orgId, 'report.completed', { reportId: 'rpt_1' });
    await rx.waitFor(1);
    rx.setRedirect(null);
    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds[0]?.status === 'delivered' ? ds : null;
    }, 'delivered after the redirect stopped');
    const log = await attemptsOf(t, d.id);
    expect(log.map((a) => a.status_code)).toEqual([308, 200]);
    expect(target.requests).toHaveLength(0);
    expect(target.connectionCount()).toBe(0);
  });

  it('a slow receiver hits the timeout and is retried', async () => {
    const actor = await owner(t);
    const rx = await sink();
    rx.setDelay(2000);
    const sub = await createSub(t, actor, { url: rx.url });
    await t.emit(actor.orgId, 'document.deleted', { documentId: 'doc_9' });
    await rx.waitFor(1);
    rx.setDelay(0);
    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds[0]?.status === 'delivered' ? ds : null;
    }, 'delivered after the timeout');
    const log = await attemptsOf(t, d.id);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ status_code: 0, error_code: 'TIMEOUT' });
    expect(log[1]).toMatchObject({ status_code: 200, error_code: null });
  });

  it('410 stops retrying that delivery', async () => {
    const actor = await owner(t);
    const rx = await sink();
    rx.setStatus(410);
    const sub = await createSub(t, actor, { url: rx.url });
    await t.emit(actor.orgId, 'workflow.completed', { runId: 'run_2' });
    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds[0]?.status === 'gone' ? ds : null;
    }, 'gone');
    await sleep(300); // longer than the first two retry delays together
    expect(rx.requests).toHaveLength(1);
    expect(await attemptsOf(t, d.id)).toHaveLength(1);
    expect(await subStatus(t, sub.id)).toBe('active');
  });

  it('a retry due while the subscription is failing is parked as suspended; disabled cancels', async () => {
    const actor = await owner(t);
    const rx = await sink();
    const sub = await createSub(t, actor, { url: rx.url });
    // Mid-sequence deliveries (third dispatch) of a subscription that has just turned failing.
    const seed = async () => {
      const eventId = newId('evt');
      const id = newId('dlv');
      await t.deps.db.query(
        `INSERT INTO events (id, org_id, environment, type, data, relayed_at) VALUES ($1, $2, 'live', 'document.processed', '{}', now())`,
        [eventId, actor.orgId],
      );
      await t.deps.db.query(
        `INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, attempts, retry_index, dispatch_seq, next_attempt_at)
         VALUES ($1, $2, 'live', $3, $4, 'document.processed', 'pending', 2, 2, 3, now())`,
        [id, actor.orgId, sub.id, eventId],
      );
      return id;
    };
    const [a, b] = [await seed(), await seed()];
    await t.deps.db.query(`UPDATE webhook_subscriptions SET status = 'failing', failing_since = now() WHERE id = $1`, [
      sub.id,
    ]);
    const http = createSafeHttpClient({ allow: createAllowList(['127.0.0.1']) });
    const executor = createDeliveryExecutor({
      store: createDeliveryStore(t.deps.db),
      http,
      dispatcher: { dispatch: async () => undefined },
      secretBox: t.deps.secretBox,
      allow: createAllowList(['127.0.0.1']),
      retryDelaysMs: [50, 100],
      timeoutMs: 400,
      logger: t.deps.logger,
    });
    expect(await executor.attempt({ deliveryId: a, seq: 2 })).toBe('stale'); // an older dispatch does nothing
    expect(await executor.attempt({ deliveryId: a, seq: 3 })).toBe('suspended');
    expect(rx.requests).toHaveLength(0);
    expect((await deliveriesOf(t, sub.id)).find((d) => d.id === a)?.status).toBe('suspended');

    // Disabled by the owner: a pending delivery is cancelled (failed), not kept.
    const dis = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/webhooks/${sub.id}`,
      headers: actor.auth,
      payload: { status: 'disabled' },
    });
    expect(body(dis).data.status).toBe('disabled');
    expect(await executor.attempt({ deliveryId: b, seq: 3 })).toBe('cancelled');
    const { rows } = await t.deps.db.query<{ status: string; last_error: string }>(
      'SELECT status, last_error FROM webhook_deliveries WHERE id = $1',
      [b],
    );
    expect(rows[0]).toEqual({ status: 'failed', last_error: 'subscription is disabled' });
    http.close();

    // Enable releases the parked one with a fresh schedule; the cancelled one stays failed.
    const en = await t.app.inject({ method: 'POST', url: `/api/v1/webhooks/${sub.id}/enable`, headers: actor.auth });
    expect(body(en).data.released_deliveries).toBe(1);
    await rx.waitFor(1);
    await eventually(
      async () => (await deliveriesOf(t, sub.id)).find((d) => d.id === a)?.status === 'delivered',
      'released delivery delivered',
    );
    expect(rx.requests).toHaveLength(1);
  });
});
