// Database side of a delivery attempt: load everything an attempt needs in one query, record its
// outcome in one statement. Both are batched across concurrent attempts (see batcher.ts).
import type { Db } from '../../db/client.js';
import { createBatcher, type BatcherOptions } from './batcher.js';
import type { DeliveryStatus, SubscriptionStatus } from './webhooks.types.js';
import type { Environment } from '../../lib/scope.js';

/** A delivery joined with its subscription and event. */
export interface LoadedDelivery {
  id: string;
  org_id: string;
  environment: Environment;
  subscription_id: string;
  status: DeliveryStatus;
  attempts: number;
  retry_index: number;
  dispatch_seq: number;
  manual: boolean;
  url: string;
  sub_status: SubscriptionStatus;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
}

/** One finished attempt and the state it leads to (applied only if the dispatch is still current). */
export interface AttemptRecord {
  deliveryId: string;
  subscriptionId: string;
  /** The dispatch number the attempt ran under. */
  seq: number;
  trigger: 'scheduled' | 'manual';
  statusCode: number;
  errorCode: string | null;
  errorMessage: string | null;
  durationMs: number;
  responseBody: string;
  truncated: boolean;
  attemptedAt: Date;
  lastError: string | null;
  next: {
    status: DeliveryStatus;
    seq: number;
    retryIndex: number;
    at: Date | null;
    /** The schedule ran out: the subscription becomes failing in the same transaction. */
    failSubscription: boolean;
  };
}

export interface RecordResult {
  /** False when the delivery had moved on (a duplicate run); the attempt is logged regardless. */
  applied: boolean;
  attempt: number;
}

const LOAD_SQL = `
  SELECT d.id, d.org_id, d.environment, d.subscription_id, d.status, d.attempts, d.retry_index, d.dispatch_seq, d.manual,
         s.url, s.status AS sub_status, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at,
         e.id AS event_id, e.type AS event_type, e.data AS event_data, e.created_at AS event_created_at
  FROM webhook_deliveries d
  JOIN webhook_subscriptions s ON s.id = d.subscription_id
  JOIN events e ON e.id = d.event_id
  WHERE d.id = ANY($1::text[])`;

// The state change applies only when the row is still on the dispatch the attempt ran under and
// pending (checked by the UPDATE itself, so a concurrent reschedule wins); the attempt is logged
// either way (it happened, even if as a duplicate) and counted on the row. `d.id = ANY($1)` pins
// both updates to primary-key lookups, and the coalesce() keeps the planner off the partial
// "pending" index, which it would otherwise pick on stale statistics and scan end to end (PGlite
// never analyzes; a backlog means thousands of pending rows).
const RECORD_SQL = `
  WITH u AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::int[], $8::text[],
                         $9::boolean[], $10::timestamptz[], $11::text[], $12::text[], $13::int[], $14::int[],
                         $15::timestamptz[], $16::boolean[], $17::text[])
      AS u(id, seq, trigger, status_code, error_code, error_message, duration_ms, response_body,
           truncated, attempted_at, last_error, new_status, new_seq, retry_index, next_at, fail_sub, sub_id)
  ),
  applied AS (
    UPDATE webhook_deliveries d SET
      attempts = d.attempts + 1, last_attempt_at = u.attempted_at, last_status_code = u.status_code, last_error = u.last_error,
      status = u.new_status, dispatch_seq = u.new_seq, retry_index = u.retry_index, next_attempt_at = u.next_at, manual = false,
      delivered_at = CASE WHEN u.new_status = 'delivered' THEN u.attempted_at ELSE d.delivered_at END,
      updated_at = now()
    FROM u
    WHERE d.id = ANY($1::text[]) AND d.id = u.id AND d.dispatch_seq = u.seq AND coalesce(d.status, '') = 'pending'
    RETURNING d.id, d.attempts, true AS applied
  ),
  stale AS (
    UPDATE webhook_deliveries d SET
      attempts = d.attempts + 1, last_attempt_at = u.attempted_at, last_status_code = u.status_code, last_error = u.last_error,
      updated_at = now()
    FROM u
    WHERE d.id = ANY($1::text[]) AND d.id = u.id AND d.id NOT IN (SELECT id FROM applied)
    RETURNING d.id, d.attempts, false AS applied
  ),
  done AS (SELECT * FROM applied UNION ALL SELECT * FROM stale),
  ins AS (
    INSERT INTO webhook_attempts (delivery_id, attempt, trigger, status_code, error_code, error_message, duration_ms,
                                  response_body, response_truncated, next_attempt_at, attempted_at)
    SELECT u.id, done.attempts, u.trigger, u.status_code, u.error_code, u.error_message, u.duration_ms,
           u.response_body, u.truncated, CASE WHEN done.applied THEN u.next_at END, u.attempted_at
    FROM u JOIN done ON done.id = u.id
  ),
  failing AS (
    UPDATE webhook_subscriptions s SET status = 'failing', failing_since = now(), updated_at = now()
    WHERE s.status = 'active' AND s.id IN (SELECT u.sub_id FROM u JOIN applied ON applied.id = u.id WHERE u.fail_sub)
  )
  SELECT id, attempts, applied FROM done`;

export interface DeliveryStore {
  load(id: string): Promise<LoadedDelivery | null>;
  record(r: AttemptRecord): Promise<RecordResult>;
  /** Moves a pending delivery aside without an attempt (subscription failing or disabled). */
  park(id: string, seq: number, status: 'suspended' | 'failed', reason: string): Promise<boolean>;
}

/**
 * `opts` tunes the batching; by default PostgreSQL runs up to 4 batches of each kind at once
 * (the pool has several connections) and PGlite one (it has one connection).
 */
export function createDeliveryStore(db: Db, opts: BatcherOptions = {}): DeliveryStore {
  opts = { maxInFlight: db.kind === 'postgres' ? 4 : 1, ...opts };
  const loader = createBatcher<string, LoadedDelivery | null>(async (ids) => {
    const { rows } = await db.query<LoadedDelivery>(LOAD_SQL, [[...new Set(ids)]]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }, opts);

  const writer = createBatcher<AttemptRecord, RecordResult>(async (recs) => {
    const col = <T>(f: (r: AttemptRecord) => T): T[] => recs.map(f);
    const { rows } = await db.query<{ id: string; attempts: number; applied: boolean }>(RECORD_SQL, [
      col((r) => r.deliveryId),
      col((r) => r.seq),
      col((r) => r.trigger),
      col((r) => r.statusCode),
      col((r) => r.errorCode),
      col((r) => r.errorMessage),
      col((r) => r.durationMs),
      col((r) => r.responseBody),
      col((r) => r.truncated),
      col((r) => r.attemptedAt),
      col((r) => r.lastError),
      col((r) => r.next.status),
      col((r) => r.next.seq),
      col((r) => r.next.retryIndex),
      col((r) => r.next.at),
      col((r) => r.next.failSubscription),
      col((r) => r.subscriptionId),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // A delivery deleted meanwhile (subscription removed) has no row: nothing to apply.
    return recs.map((r) => {
      const row = byId.get(r.deliveryId);
      return row ? { applied: row.applied, attempt: row.attempts } : { applied: false, attempt: 0 };
    });
  }, opts);

  return {
    load: (id) => loader.submit(id),
    record: (r) => writer.submit(r),
    async park(id, seq, status, reason) {
      const res = await db.query(
        `UPDATE webhook_deliveries SET status = $3, next_attempt_at = NULL, last_error = $4, updated_at = now()
         WHERE id = $1 AND dispatch_seq = $2 AND status = 'pending'`,
        [id, seq, status, reason],
      );
      return res.rowCount > 0;
    },
  };
}
