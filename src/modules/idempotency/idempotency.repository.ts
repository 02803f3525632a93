// All SQL of Idempotency-Key handling. Claims are single statements so that, of concurrent
// requests with one key, exactly one gets the row (PostgreSQL row locks; PGlite runs one at a time).
import type { Queryable } from '../../db/client.js';
import type { Environment } from '../../lib/scope.js';

export interface IdempotencyRow {
  request_hash: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

export interface ClaimInput {
  orgId: string;
  environment: Environment;
  credential: string;
  key: string;
  requestHash: string;
  method: string;
  path: string;
  lockToken: string;
  /** How long a running claim is honoured before another request may take it over, seconds. */
  lockSeconds: number;
  /** How long a finished response is kept, seconds. */
  ttlSeconds: number;
}

type Id = Pick<ClaimInput, 'credential' | 'environment' | 'key' | 'lockToken'>;

export function createIdempotencyRepository(db: Queryable) {
  return {
    /** Inserts the claim; false when a row for the key exists already. */
    async insert(c: ClaimInput): Promise<boolean> {
      const { rows } = await db.query(
        `INSERT INTO idempotency_keys (org_id, environment, credential, key, request_hash, method, path, state, lock_token, locked_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, now() + make_interval(secs => $9))
         ON CONFLICT (credential, environment, key) DO NOTHING RETURNING 1 AS claimed`,
        [c.orgId, c.environment, c.credential, c.key, c.requestHash, c.method, c.path, c.lockToken, c.lockSeconds],
      );
      return rows.length === 1;
    },
    /**
     * Takes over a row that no longer counts: kept past its time, or running past its lock (its
     * process died). The WHERE is evaluated again under the row lock, so one request wins.
     */
    async takeOver(c: ClaimInput): Promise<boolean> {
      const { rows } = await db.query(
        `UPDATE idempotency_keys
            SET request_hash = $4, method = $5, path = $6, state = 'running', lock_token = $7,
                locked_until = now() + make_interval(secs => $8), response_status = NULL, response_headers = NULL,
                response_body = NULL, created_at = now(), completed_at = NULL, org_id = $10
          WHERE credential = $1 AND environment = $2 AND key = $3
            AND (created_at < now() - make_interval(secs => $9) OR (state = 'running' AND locked_until < now()))
          RETURNING 1 AS claimed`,
        [
          c.credential,
          c.environment,
          c.key,
          c.requestHash,
          c.method,
          c.path,
          c.lockToken,
          c.lockSeconds,
          c.ttlSeconds,
          c.orgId,
        ],
      );
      return rows.length === 1;
    },
    async get(c: Pick<ClaimInput, 'credential' | 'environment' | 'key'>): Promise<IdempotencyRow | null> {
      const { rows } = await db.query<IdempotencyRow>(
        `SELECT request_hash, state, response_status, response_headers, response_body
           FROM idempotency_keys WHERE credential = $1 AND environment = $2 AND key = $3`,
        [c.credential, c.environment, c.key],
      );
      return rows[0] ?? null;
    },
    /** Stores the response of the claim holder (`lockToken`); false when it lost the claim. */
    async complete(id: Id, res: { status: number; headers: Record<string, string>; body: string }): Promise<boolean> {
      const { rows } = await db.query(
        `UPDATE idempotency_keys
            SET state = 'done', response_status = $5, response_headers = $6, response_body = $7, completed_at = now(), locked_until = NULL
          WHERE credential = $1 AND environment = $2 AND key = $3 AND lock_token = $4 AND state = 'running'
          RETURNING 1 AS done`,
        [id.credential, id.environment, id.key, id.lockToken, res.status, JSON.stringify(res.headers), res.body],
      );
      return rows.length === 1;
    },
    /** Forgets a claim whose response is not kept (a server error), so the key can be used again. */
    async release(id: Id): Promise<void> {
      await db.query(
        `DELETE FROM idempotency_keys WHERE credential = $1 AND environment = $2 AND key = $3 AND lock_token = $4 AND state = 'running'`,
        [id.credential, id.environment, id.key, id.lockToken],
      );
    },
    /** Deletes rows older than `ttlSeconds`; returns how many. */
    async deleteExpired(ttlSeconds: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1) RETURNING 1)
         SELECT count(*) AS n FROM gone`,
        [ttlSeconds],
      );
      return rows[0].n;
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
