// Outbox consumer: turns events into delivery rows, one per matching subscription.
import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { EventRow } from '../events/events.types.js';
import type { AfterCommit, OutboxConsumer } from '../events/relay.js';
import type { DeliveryDispatcher } from './dispatcher.js';
import type { DeliveryStatus, SubscriptionStatus } from './webhooks.types.js';

interface SubMatch {
  id: string;
  org_id: string;
  environment: string;
  events: string[];
  status: SubscriptionStatus;
}

/** Whether a subscription's `events` list covers an event type (`*` = every public type). */
export function subscriptionMatches(events: readonly string[], type: string): boolean {
  if (events.includes(type)) return true;
  return events.includes('*') && type !== 'webhook.test';
}

/**
 * Fan-out inside the relay transaction. Disabled subscriptions get nothing; failing ones get a
 * `suspended` delivery (kept, not attempted, released by enable). The unique (event, subscription)
 * key makes a second relay of the same event a no-op, and only rows inserted now are dispatched.
 */
export function createWebhookFanOut(dispatcher: DeliveryDispatcher): OutboxConsumer {
  return {
    async fanOut(q: Queryable, events: readonly EventRow[]): Promise<AfterCommit | void> {
      const scopes = new Map<string, [string, string]>();
      for (const e of events) scopes.set(`${e.org_id}|${e.environment}`, [e.org_id, e.environment]);
      const pairs = [...scopes.values()];
      const { rows: subs } = await q.query<SubMatch>(
        `SELECT id, org_id, environment, events, status FROM webhook_subscriptions
         WHERE status <> 'disabled' AND (org_id, environment) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
      if (subs.length === 0) return;

      const byScope = new Map<string, SubMatch[]>();
      for (const s of subs) {
        const k = `${s.org_id}|${s.environment}`;
        byScope.set(k, [...(byScope.get(k) ?? []), s]);
      }
      const cols = { id: [] as string[], org: [] as string[], env: [] as string[], sub: [] as string[], evt: [] as string[], type: [] as string[], status: [] as DeliveryStatus[] };
      for (const e of events) {
        for (const s of byScope.get(`${e.org_id}|${e.environment}`) ?? []) {
          if (!subscriptionMatches(s.events, e.type)) continue;
          cols.id.push(newId('dlv'));
          cols.org.push(e.org_id);
          cols.env.push(e.environment);
          cols.sub.push(s.id);
          cols.evt.push(e.id);
          cols.type.push(e.type);
          cols.status.push(s.status === 'failing' ? 'suspended' : 'pending');
        }
      }
      if (cols.id.length === 0) return;
      const { rows } = await q.query<{ id: string; status: DeliveryStatus; dispatch_seq: number }>(
        `INSERT INTO webhook_deliveries (id, org_id, environment, subscription_id, event_id, event_type, status, next_attempt_at)
         SELECT u.id, u.org, u.env, u.sub, u.evt, u.type, u.status, CASE WHEN u.status = 'pending' THEN now() END
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(id, org, env, sub, evt, type, status)
         ON CONFLICT (event_id, subscription_id) DO NOTHING
         RETURNING id, status, dispatch_seq`,
        [cols.id, cols.org, cols.env, cols.sub, cols.evt, cols.type, cols.status]);
      const jobs = rows.filter((r) => r.status === 'pending').map((r) => ({ deliveryId: r.id, seq: r.dispatch_seq }));
      if (jobs.length === 0) return;
      return () => dispatcher.dispatch(jobs);
    },
  };
}
