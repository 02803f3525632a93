// One tenant's dead webhook receiver must not delay everyone else's webhooks. A receiver that
// accepts connections and never answers holds each attempt for the whole timeout; the delivery
// worker has a fixed number of slots. Here organization A has three subscriptions to such a
// server and a burst of events; organization B's deliveries, sent after A's, must all arrive
// while A's requests are still hanging — before any of them has even timed out. Then the
// circuit: after repeated timeouts nothing more is sent to the dead server until a probe, and
// once it answers again every held-back delivery arrives exactly once, with its attempts logged.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWebhooksTestApp, eventually, type WebhooksTestApp } from '../../helpers/webhooks-harness.js';
import { createSub, deliveriesOf, owner, sleep } from './helpers.js';

const sinks: WebhookSink[] = [];
const sink = async () => {
  const s = await startWebhookSink();
  sinks.push(s);
  return s;
};
afterEach(async () => {
  for (const s of sinks.splice(0)) await s.close();
});

async function attemptsFor(t: WebhooksTestApp, subIds: string[]) {
  const { rows } = await t.deps.db.query<{ delivery_id: string; status_code: number; error_code: string | null }>(
    `SELECT a.delivery_id, a.status_code, a.error_code FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
     WHERE d.subscription_id = ANY($1::text[]) ORDER BY a.id`,
    [subIds],
  );
  return rows;
}

describe('a dead receiver slows only its own organization', () => {
  let t: WebhooksTestApp;
  afterAll(async () => {
    await t?.close();
  });

  it(
    "the healthy tenant's deliveries all arrive while the dead endpoint still holds its connections",
    { timeout: 90_000 },
    async () => {
      // 8 slots; a 40 s timeout keeps every request to the dead server hanging for the whole test.
      t = await createWebhooksTestApp({ env: { WEBHOOK_TIMEOUT_MS: '40000' }, workers: { concurrency: 8 } });
      const dead = await sink();
      dead.setDelay(60_000);
      const healthy = await sink();
      const noisy = await owner(t);
      const quiet = await owner(t);
      const deadSubs = [];
      for (const path of ['a', 'b', 'c']) deadSubs.push(await createSub(t, noisy, { url: `${dead.url}/${path}` }));
      const okSub = await createSub(t, quiet, { url: healthy.url });

      // The noisy organization's burst goes first: 12 events, 36 deliveries to the dead server.
      for (let i = 0; i < 12; i++) await t.emit(noisy.orgId, 'document.processed', { documentId: `doc_noisy_${i}` });
      await eventually(async () => dead.openConnections() > 0, 'the dead server to hold a connection', 20_000);
      const quietEvents: string[] = [];
      for (let i = 0; i < 10; i++)
        quietEvents.push(await t.emit(quiet.orgId, 'document.processed', { documentId: `doc_quiet_${i}` }));

      await healthy.waitFor(10, 30_000);
      // Still hanging: no attempt to the dead server has finished (so none was recorded) ...
      expect(dead.openConnections()).toBeGreaterThan(0);
      expect(
        await attemptsFor(
          t,
          deadSubs.map((s) => s.id),
        ),
      ).toEqual([]);
      // ... and it holds only its share of the slots, not all of them.
      expect(dead.requests.length).toBeLessThanOrEqual(4);
      expect(dead.openConnections()).toBeLessThanOrEqual(4);

      expect(healthy.requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...quietEvents].sort());
      const ok = await eventually(async () => {
        const ds = await deliveriesOf(t, okSub.id);
        return ds.length === 10 && ds.every((d) => d.status === 'delivered') ? ds : null;
      }, 'the healthy deliveries to be recorded');
      expect(ok.every((d) => d.attempts === 1)).toBe(true);
      // The noisy organization's deliveries are all still there, pending.
      const held = (await Promise.all(deadSubs.map((s) => deliveriesOf(t, s.id)))).flat();
      expect(held).toHaveLength(36);
      expect(held.every((d) => d.status === 'pending')).toBe(true);
    },
  );
});

describe('circuit of a dead endpoint', () => {
  let t: WebhooksTestApp;
  afterAll(async () => {
    await t?.close();
  });

  it(
    'stops sending after repeated timeouts, probes later, then delivers everything exactly once',
    { timeout: 90_000 },
    async () => {
      t = await createWebhooksTestApp({
        env: { WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_RETRY_DELAYS: '0.05,0.05,0.05,0.05,0.05' },
        module: { fairness: { breakAfter: 3, openMs: 4_000 } },
        workers: { concurrency: 8 },
      });
      const rx = await sink();
      rx.setDelay(60_000);
      const actor = await owner(t);
      const sub = await createSub(t, actor, { url: rx.url });
      const events: string[] = [];
      for (let i = 0; i < 20; i++)
        events.push(await t.emit(actor.orgId, 'document.processed', { documentId: `doc_${i}` }));

      // Three timeouts in a row open the circuit.
      await eventually(
        async () => (await attemptsFor(t, [sub.id])).filter((a) => a.error_code === 'TIMEOUT').length >= 3,
        'three timeouts',
        20_000,
      );
      const sent = rx.requests.length;
      await sleep(1_500); // well inside the 4 s open period
      expect(rx.requests.length).toBe(sent); // nothing more was sent
      expect(sent).toBeLessThanOrEqual(4);
      const during = await deliveriesOf(t, sub.id);
      expect(during).toHaveLength(20);
      expect(during.every((d) => d.status === 'pending')).toBe(true);

      // The receiver comes back; the probe finds it and the backlog goes out.
      rx.setDelay(0);
      const done = await eventually(
        async () => {
          const ds = await deliveriesOf(t, sub.id);
          return ds.every((d) => d.status === 'delivered') ? ds : null;
        },
        'every delivery delivered',
        30_000,
      );
      expect(done).toHaveLength(20);

      const log = await attemptsFor(t, [sub.id]);
      // Every request the receiver saw is an attempt in the log, and each delivery succeeded once.
      expect(log).toHaveLength(rx.requests.length);
      const okPer = new Map<string, number>();
      for (const a of log) if (a.status_code === 200) okPer.set(a.delivery_id, (okPer.get(a.delivery_id) ?? 0) + 1);
      expect([...okPer.values()]).toEqual(Array(20).fill(1));
      expect(log.filter((a) => a.status_code !== 200).every((a) => a.error_code === 'TIMEOUT')).toBe(true);
      // Answered requests: each event once.
      const answered = rx.requests.slice(sent).map((r) => r.headers['webhook-id']);
      expect(new Set(answered).size).toBe(answered.length);
      expect(new Set([...answered, ...rx.requests.slice(0, sent).map((r) => r.headers['webhook-id'])])).toEqual(
        new Set(events),
      );
    },
  );
});
