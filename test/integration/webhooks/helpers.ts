// Small shared steps of the webhook integration tests.
import { expect } from 'vitest';
import { body, createActor, type Actor } from '../../helpers/app.js';
import type { WebhooksTestApp } from '../../helpers/webhooks-harness.js';

const pools = new WeakMap<WebhooksTestApp, Promise<Actor>[]>();

/**
 * Starts creating `n` owners (each in a new organization) at once. Each costs two scrypt runs
 * (sign-up and login); started together they overlap on the thread pool instead of queueing.
 */
export function warmOwners(t: WebhooksTestApp, n: number): void {
  const pool = pools.get(t) ?? [];
  for (let i = 0; i < n; i++) {
    const p = createActor(t, { role: 'owner' });
    p.catch(() => undefined); // surfaced when taken
    pool.push(p);
  }
  pools.set(t, pool);
}

/** An owner of a fresh organization (from the warmed pool when there is one). */
export async function owner(t: WebhooksTestApp): Promise<Actor> {
  return pools.get(t)?.shift() ?? createActor(t, { role: 'owner' });
}

export interface CreatedSub {
  id: string;
  secret: string;
  status: string;
  [k: string]: unknown;
}

export async function createSub(
  t: WebhooksTestApp,
  actor: Actor,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<CreatedSub> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { ...actor.auth, ...headers },
    payload: { events: ['*'], ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return body(res).data as CreatedSub;
}

export interface DeliveryState {
  id: string;
  status: string;
  attempts: number;
  event_id: string;
  dispatch_seq: number;
}

export async function deliveriesOf(t: WebhooksTestApp, subId: string): Promise<DeliveryState[]> {
  const { rows } = await t.deps.db.query<DeliveryState>(
    'SELECT id, status, attempts, event_id, dispatch_seq FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at, id',
    [subId],
  );
  return rows;
}

export async function attemptsOf(t: WebhooksTestApp, deliveryId: string) {
  const { rows } = await t.deps.db.query<{
    attempt: number;
    status_code: number;
    error_code: string | null;
    trigger: string;
    attempted_at: Date;
    next_attempt_at: Date | null;
    error_message: string | null;
    response_body: string | null;
  }>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id', [deliveryId]);
  return rows;
}

export async function subStatus(t: WebhooksTestApp, subId: string): Promise<string> {
  const { rows } = await t.deps.db.query<{ status: string }>('SELECT status FROM webhook_subscriptions WHERE id = $1', [
    subId,
  ]);
  return rows[0].status;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
