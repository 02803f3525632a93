// The /webhooks API: validation, scoping, roles, test mode, rotation, test pings, resend,
// recovery, and the SSRF policy at creation and at delivery time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor } from '../../helpers/app.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWebhooksTestApp, eventually, type WebhooksTestApp } from '../../helpers/webhooks-harness.js';
import { verifyWebhookSignature } from '../../../src/modules/webhooks/index.js';
import { attemptsOf, createSub, deliveriesOf, owner, sleep, subStatus, warmOwners } from './helpers.js';

const sinks: WebhookSink[] = [];
const sink = async () => {
  const s = await startWebhookSink();
  sinks.push(s);
  return s;
};
afterEach(async () => {
  for (const s of sinks.splice(0)) await s.close();
});

describe('webhooks API', () => {
  let t: WebhooksTestApp;
  // No real DNS in tests: names other than IP literals resolve to nothing.
  beforeAll(async () => {
    t = await createWebhooksTestApp({ module: { resolver: async () => [] } });
    warmOwners(t, 10);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (
    actor: Actor,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...actor.auth, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('validates the body: url and events required, known event types only, http(s) only', async () => {
    const a = await owner(t);
    const missing = await call(a, 'POST', '/webhooks', {});
    expect(missing.statusCode).toBe(400);
    expect(
      body(missing)
        .error?.details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['events', 'url']);
    const unknown = await call(a, 'POST', '/webhooks', {
      url: 'https://example.com/h',
      events: ['document.processed', 'document.exploded'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(body(unknown).error?.details[0].field).toBe('events[1]');
    for (const url of ['ftp://example.com/h', 'not a url', 'https://example.com/h#frag']) {
      const res = await call(a, 'POST', '/webhooks', { url, events: ['*'] });
      expect(res.statusCode, url).toBe(400);
      expect(body(res).error?.details[0].field).toBe('url');
    }
    const extra = await call(a, 'POST', '/webhooks', { url: 'https://example.com/h', events: ['*'], colour: 'red' });
    expect(extra.statusCode).toBe(400);
    expect(body(extra).error?.details[0]).toMatchObject({ field: 'colour' });
  });

  it('creates, lists, reads, updates and deletes; the secret is shown only at creation', async () => {
    const a = await owner(t);
    const created = await createSub(t, a, {
      url: 'https://hooks.example.com/in',
      events: ['document.processed', 'document.processed', 'report.completed'],
      description: 'ERP',
    });
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/in',
      events: ['document.processed', 'report.completed'],
      status: 'active',
      environment: 'live',
      description: 'ERP',
    });
    expect(created.id).toMatch(/^whk_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const own = await createSub(t, a, { url: 'https://hooks.example.com/2', secret: 'my-own-secret-0123456789' });
    expect(own.secret).toBe('my-own-secret-0123456789');
    expect(own.events).toEqual(['*']);

    const got = await call(a, 'GET', `/webhooks/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(body(got).data).not.toHaveProperty('secret');
    expect(JSON.stringify(body(got).data)).not.toContain(created.secret);
    const list = await call(a, 'GET', '/webhooks?limit=1');
    expect(body(list).pagination).toMatchObject({ total: 2, limit: 1, offset: 0, has_more: true });
    expect(JSON.stringify(body(list).data)).not.toContain('whsec_');
    const { rows } = await t.deps.db.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM webhook_subscriptions WHERE id = $1',
      [created.id],
    );
    expect(rows[0].secret_sealed).not.toContain(created.secret.slice(6, 20));

    const put = await call(a, 'PUT', `/webhooks/${created.id}`, { events: ['*'], url: 'https://hooks.example.com/v2' });
    expect(body(put).data).toMatchObject({ events: ['*'], url: 'https://hooks.example.com/v2' });
    expect((await call(a, 'PUT', `/webhooks/${created.id}`, { secret: 'x'.repeat(20) })).statusCode).toBe(400);
    expect((await call(a, 'PUT', `/webhooks/${created.id}`, { status: 'failing' })).statusCode).toBe(400);
    expect((await call(a, 'PUT', `/webhooks/${created.id}`, { url: 'http://10.1.2.3/h' })).statusCode).toBe(400);

    const spec = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(Object.keys(spec.json().paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/webhooks',
        '/api/v1/webhooks/{id}',
        '/api/v1/webhooks/{id}/rotate-secret',
        '/api/v1/webhooks/deliveries/{id}/resend',
      ]),
    );

    const del = await call(a, 'DELETE', `/webhooks/${created.id}`);
    expect(del.statusCode).toBe(200);
    expect((await call(a, 'GET', `/webhooks/${created.id}`)).statusCode).toBe(404);
  });

  it('scopes everything to the organization and requires admin', async () => {
    const a = await owner(t);
    const other = await owner(t);
    const sub = await createSub(t, a, { url: 'https://hooks.example.com/a' });
    const ev = await t.emit(a.orgId, 'document.uploaded', {});
    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds.length ? ds : null;
    }, 'a delivery row');
    expect(d.event_id).toBe(ev);
    for (const [method, url] of [
      ['GET', `/webhooks/${sub.id}`],
      ['PUT', `/webhooks/${sub.id}`],
      ['DELETE', `/webhooks/${sub.id}`],
      ['POST', `/webhooks/${sub.id}/enable`],
      ['POST', `/webhooks/${sub.id}/test`],
      ['POST', `/webhooks/${sub.id}/rotate-secret`],
      ['GET', `/webhooks/${sub.id}/deliveries`],
      ['GET', `/webhooks/deliveries/${d.id}`],
      ['POST', `/webhooks/deliveries/${d.id}/resend`],
    ] as const) {
      const res = await call(other, method, url, method === 'PUT' ? { description: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(body(await call(other, 'GET', '/webhooks')).data).toEqual([]);

    const member = await createActor(t, { role: 'member', orgName: undefined });
    expect(
      (await call(member, 'POST', '/webhooks', { url: 'https://hooks.example.com/m', events: ['*'] })).statusCode,
    ).toBe(403);
    expect((await call(member, 'GET', '/webhooks')).statusCode).toBe(403);
  });

  it('keeps test-mode events and subscriptions apart from live ones', async () => {
    const a = await owner(t);
    const liveRx = await sink();
    const testRx = await sink();
    const live = await createSub(t, a, { url: liveRx.url });
    const test = await createSub(t, a, { url: testRx.url }, { 'x-environment': 'test' });
    expect(test).toMatchObject({ environment: 'test' });
    expect(body(await call(a, 'GET', '/webhooks')).data.map((s: { id: string }) => s.id)).toEqual([live.id]);
    expect((await call(a, 'GET', `/webhooks/${test.id}`)).statusCode).toBe(404);

    const liveEvt = await t.emit(a.orgId, 'document.processed', { documentId: 'doc_live' });
    const testEvt = await t.emit(a.orgId, 'document.processed', { documentId: 'doc_test' }, { environment: 'test' });
    await liveRx.waitFor(1);
    await testRx.waitFor(1);
    await sleep(100);
    expect(liveRx.requests.map((r) => r.headers['x-service-event-id'])).toEqual([liveEvt]);
    expect(testRx.requests.map((r) => r.headers['x-service-event-id'])).toEqual([testEvt]);
  });

  it('a disabled subscription receives nothing until it is active again', async () => {
    const a = await owner(t);
    const rx = await sink();
    const sub = await createSub(t, a, { url: rx.url });
    expect(body(await call(a, 'PUT', `/webhooks/${sub.id}`, { status: 'disabled' })).data.status).toBe('disabled');
    await t.emit(a.orgId, 'document.processed', {});
    await t.relay.runOnce();
    expect(await deliveriesOf(t, sub.id)).toEqual([]);
    expect(body(await call(a, 'PUT', `/webhooks/${sub.id}`, { status: 'active' })).data.status).toBe('active');
    const ev = await t.emit(a.orgId, 'document.classified', {});
    await rx.waitFor(1);
    expect(rx.requests[0].headers['x-service-event-id']).toBe(ev);
  });

  it('rotation: both secrets sign during the grace period, then only the new one', async () => {
    const a = await owner(t);
    const rx = await sink();
    const sub = await createSub(t, a, { url: rx.url });
    const rot = await call(a, 'POST', `/webhooks/${sub.id}/rotate-secret`);
    expect(rot.statusCode).toBe(200);
    const newSecret = body(rot).data.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(sub.secret);
    const graceEnds = new Date(body(rot).data.previous_secret_expires_at).getTime();
    expect(graceEnds - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    await t.emit(a.orgId, 'document.extracted', {});
    await rx.waitFor(1);
    const req = rx.requests[0];
    const sigs = (req.headers['webhook-signature'] as string).split(' ');
    expect(sigs).toHaveLength(2);
    expect(sigs.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(verifyWebhookSignature(req.body, req.headers, newSecret)).toBe(true);
    expect(verifyWebhookSignature(req.body, req.headers, sub.secret)).toBe(true);
    // The seed header carries the current secret only.
    expect(
      verifyWebhookSignature(
        req.body,
        { 'x-service-signature': req.headers['x-service-signature'] as string },
        newSecret,
      ),
    ).toBe(true);

    // Rotating with no grace: the previous secret stops signing at once.
    const rot2 = await call(a, 'POST', `/webhooks/${sub.id}/rotate-secret`, {
      grace_period_hours: 0,
      secret: 'third-secret-abcdefgh',
    });
    expect(body(rot2).data).toMatchObject({ secret: 'third-secret-abcdefgh', previous_secret_expires_at: null });
    await t.emit(a.orgId, 'document.extracted', {});
    await rx.waitFor(2);
    const req2 = rx.requests[1];
    expect((req2.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verifyWebhookSignature(req2.body, req2.headers, 'third-secret-abcdefgh')).toBe(true);
    expect(verifyWebhookSignature(req2.body, req2.headers, newSecret)).toBe(false);
  });

  it('test ping goes to that subscription only; resend repeats a delivery as a manual attempt', async () => {
    const a = await owner(t);
    const rx = await sink();
    const bystander = await sink();
    const sub = await createSub(t, a, { url: rx.url });
    await createSub(t, a, { url: bystander.url });
    const ping = await call(a, 'POST', `/webhooks/${sub.id}/test`);
    expect(ping.statusCode).toBe(202);
    const { event_id: eventId, delivery_id: deliveryId } = body(ping).data;
    await rx.waitFor(1);
    expect(JSON.parse(rx.requests[0].body)).toMatchObject({
      id: eventId,
      type: 'webhook.test',
      data: { webhookId: sub.id },
    });
    expect(verifyWebhookSignature(rx.requests[0].body, rx.requests[0].headers, sub.secret)).toBe(true);
    await eventually(async () => (await deliveriesOf(t, sub.id))[0]?.status === 'delivered', 'ping delivered');

    const resend = await call(a, 'POST', `/webhooks/deliveries/${deliveryId}/resend`);
    expect(resend.statusCode).toBe(202);
    await rx.waitFor(2);
    expect(rx.requests[1].headers['webhook-id']).toBe(eventId);
    expect(rx.requests[1].body).toBe(rx.requests[0].body);
    const log = await eventually(async () => {
      const l = await attemptsOf(t, deliveryId);
      return l.length === 2 ? l : null;
    }, 'two attempts');
    expect(log.map((x) => x.trigger)).toEqual(['manual', 'manual']);
    await sleep(100);
    expect(bystander.requests).toHaveLength(0);
  });

  it('recover re-sends the failed deliveries of a window of at most 14 days', async () => {
    const a = await owner(t);
    const rx = await sink();
    rx.setStatus(503);
    const sub = await createSub(t, a, { url: rx.url });
    const since = new Date(Date.now() - 60_000).toISOString();
    const ev = await t.emit(a.orgId, 'report.completed', {});
    await eventually(async () => (await subStatus(t, sub.id)) === 'failing', 'failing');
    expect((await deliveriesOf(t, sub.id))[0]).toMatchObject({ status: 'failed', attempts: 6 });

    const tooWide = await call(a, 'POST', `/webhooks/${sub.id}/recover`, {
      since: new Date(Date.now() - 15 * 86_400_000).toISOString(),
    });
    expect(tooWide.statusCode).toBe(400);
    expect(body(tooWide).error?.code).toBe('VALIDATION_ERROR');
    const backwards = await call(a, 'POST', `/webhooks/${sub.id}/recover`, {
      since,
      until: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(backwards.statusCode).toBe(400);
    const empty = await call(a, 'POST', `/webhooks/${sub.id}/recover`, {
      since: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      until: since,
    });
    expect(body(empty).data.queued).toBe(0);

    rx.setStatus(200);
    const rec = await call(a, 'POST', `/webhooks/${sub.id}/recover`, { since });
    expect(rec.statusCode).toBe(202);
    expect(body(rec).data.queued).toBe(1);
    await rx.waitFor(7);
    expect(rx.requests[6].headers['x-service-event-id']).toBe(ev);
    const [d] = await eventually(async () => {
      const ds = await deliveriesOf(t, sub.id);
      return ds[0]?.status === 'delivered' ? ds : null;
    }, 'recovered');
    expect((await attemptsOf(t, d.id)).map((x) => x.trigger)).toEqual([...Array(6).fill('scheduled'), 'manual']);
    const detail = body(await call(a, 'GET', `/webhooks/deliveries/${d.id}`)).data;
    expect(detail.attempt_log).toHaveLength(7);
    expect(detail.attempt_log[6]).toMatchObject({ attempt: 7, trigger: 'manual', status_code: 200 });
  });

  it('refuses private, loopback, link-local, CGNAT and mapped addresses at creation unless allow-listed', async () => {
    const a = await owner(t);
    for (const url of [
      'http://127.0.0.2/h',
      'http://10.0.0.5/h',
      'http://192.168.1.1/h',
      'http://172.16.0.1/h',
      'http://169.254.169.254/latest',
      'http://100.64.0.1/h',
      'http://[::1]/h',
      'http://[::ffff:10.0.0.1]/h',
      'http://[::ffff:169.254.169.254]/h',
      'http://[fe80::1]/h',
      'http://localhost:8080/h',
      'http://api.localhost/h',
      'http://0x7f.0.0.2/h',
    ]) {
      const res = await call(a, 'POST', '/webhooks', { url, events: ['*'] });
      expect(res.statusCode, url).toBe(400);
      expect(body(res).error?.details[0].field).toBe('url');
    }
    // 127.0.0.1 is on this app's allow-list (WEBHOOK_ALLOWED_HOSTS), so the local receivers work.
    expect((await call(a, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/h', events: ['*'] })).statusCode).toBe(201);
  });
});

describe('webhooks SSRF at delivery time (no allow-list)', () => {
  let t: WebhooksTestApp;
  // A name that passes creation but resolves to loopback: the DNS-rebinding shape.
  beforeAll(async () => {
    t = await createWebhooksTestApp({
      env: { WEBHOOK_ALLOWED_HOSTS: '' },
      module: {
        resolver: async (host) => (host === 'rebind.example.com' ? [{ address: '127.0.0.1', family: 4 }] : []),
      },
    });
    warmOwners(t, 1);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records the refusal with its reason and never connects', async () => {
    const a = await owner(t);
    const rx = await sink();
    const viaDns = await createSub(t, a, { url: `http://rebind.example.com:${rx.port}/hook` });
    // Rows saved while an operator allowed them, then the allow-list changed: literal addresses.
    const literal = await createSub(t, a, { url: 'https://hooks.example.com/x' });
    const mapped = await createSub(t, a, { url: 'https://hooks.example.com/y' });
    await t.deps.db.query('UPDATE webhook_subscriptions SET url = $2 WHERE id = $1', [
      literal.id,
      `http://127.0.0.1:${rx.port}/hook`,
    ]);
    await t.deps.db.query('UPDATE webhook_subscriptions SET url = $2 WHERE id = $1', [
      mapped.id,
      `http://[::ffff:127.0.0.1]:${rx.port}/hook`,
    ]);

    await t.emit(a.orgId, 'document.processed', {});
    for (const [sub, reason] of [
      [viaDns, /loopback/],
      [literal, /loopback/],
      [mapped, /loopback/],
    ] as const) {
      const [d] = await eventually(async () => {
        const ds = await deliveriesOf(t, sub.id);
        return ds[0]?.attempts ? ds : null;
      }, 'an attempt');
      const [first] = await attemptsOf(t, d.id);
      expect(first).toMatchObject({ status_code: 0, error_code: 'FORBIDDEN_ADDRESS' });
      expect(first.error_message).toMatch(reason);
    }
    await eventually(async () => (await subStatus(t, viaDns.id)) === 'failing', 'retries exhausted');
    expect(rx.requests).toHaveLength(0);
    expect(rx.connectionCount()).toBe(0);
  });
});
