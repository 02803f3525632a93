// Redis loses its data while webhook deliveries are queued or in flight: the delivery rows in the
// database still say what is owed, and the relay's periodic sweep (a timer in the worker process,
// not a Redis scheduler) re-adds the jobs that vanished. Every event arrives, and every delivery
// ends delivered, without restarting anything. A private redis-server: flushing the suite's
// shared one would wipe other tests' queues.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWebhooksTestApp, eventually, type WebhooksTestApp } from '../../helpers/webhooks-harness.js';
import { createSub, deliveriesOf, owner } from './helpers.js';

describe('webhook deliveries when Redis loses its data', () => {
  let redis: PrivateRedis;
  let admin: Redis;
  let t: WebhooksTestApp;
  let rx: WebhookSink;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    admin = new Redis(redis.url);
    t = await createWebhooksTestApp({
      redisUrl: redis.url,
      module: { sweepGraceMs: 500 },
      workers: { concurrency: 4 },
    });
    rx = await startWebhookSink();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it('every event still arrives after FLUSHDB', { timeout: 60_000 }, async () => {
    rx.setDelay(200); // slow enough that most jobs are still queued when Redis is flushed
    const actor = await owner(t);
    const sub = await createSub(t, actor, { url: rx.url });
    const events: string[] = [];
    for (let i = 0; i < 30; i++)
      events.push(await t.emit(actor.orgId, 'document.processed', { documentId: `doc_${i}` }));
    await rx.waitFor(4, 20_000);
    await admin.flushdb();
    const pendingAtFlush = (await deliveriesOf(t, sub.id)).filter((d) => d.status === 'pending').length;
    expect(pendingAtFlush).toBeGreaterThan(0);

    const ds = await eventually(
      async () => {
        const rows = await deliveriesOf(t, sub.id);
        return rows.length === 30 && rows.every((d) => d.status === 'delivered') ? rows : null;
      },
      'every delivery delivered',
      40_000,
    );
    expect(ds).toHaveLength(30);
    expect(new Set(rx.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set(events));
    console.log(
      `webhooks redis flush: ${pendingAtFlush} of 30 deliveries were pending; the receiver saw ${rx.requests.length} requests`,
    );
  });
});
