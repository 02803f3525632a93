// Idempotency-Key semantics (as payment APIs use them): the first request with a key runs and its
// response is kept for 24 hours; a retry with the same key and the same request gets that
// response again; the same key with a different request is refused (422); a retry while the first
// is still running is refused (409). Server errors and rate limits are not kept, so the key can
// be used again. Keys belong to one credential and environment: two API keys never share one.
import { randomBytes } from 'node:crypto';
import { errors, IdempotencyKeyReusedError } from '../../lib/errors.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Scope } from '../../lib/scope.js';
import type { IdempotencyRepository } from './idempotency.repository.js';

/** How long a response is kept and replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A request still running after this long is taken to have died with its process. */
export const IDEMPOTENCY_LOCK_SECONDS = 120;
/** Longest accepted key, and its characters: printable ASCII. */
export const IDEMPOTENCY_KEY_MAX = 255;
const KEY_RE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export interface IdempotentRequest {
  scope: Scope;
  /** `key:<api key id>` or `user:<user id>`. */
  credential: string;
  key: string;
  method: string;
  /** Path without the query string. */
  path: string;
  query: unknown;
  body: unknown;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Begun =
  | { kind: 'replay'; response: StoredResponse }
  | {
      kind: 'claimed';
      /** Keeps `response` for replays (or forgets the claim when the status is not kept). */
      finish(response: StoredResponse): Promise<void>;
      /** Forgets the claim: the key can be used again. */
      release(): Promise<void>;
    };

/** Statuses whose responses are not kept: a retry may succeed. */
export function keepsResponse(status: number): boolean {
  return status < 500 && status !== 429;
}

/** The reason a key is unusable, or null. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return 'must not be empty';
  if (key.length > IDEMPOTENCY_KEY_MAX) return `must be at most ${IDEMPOTENCY_KEY_MAX} characters`;
  if (!KEY_RE.test(key)) return 'must be printable ASCII (no control characters, no leading or trailing space)';
  return null;
}

/** JSON with object keys sorted, so that the same body spelled in another key order hashes alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export function requestHash(r: Pick<IdempotentRequest, 'method' | 'path' | 'query' | 'body'>): string {
  return sha256Hex(canonical([r.method.toUpperCase(), r.path, r.query ?? {}, r.body ?? null]));
}

export function createIdempotencyService(deps: {
  repo: IdempotencyRepository;
  ttlSeconds?: number;
  lockSeconds?: number;
}) {
  const ttlSeconds = deps.ttlSeconds ?? IDEMPOTENCY_TTL_SECONDS;
  const lockSeconds = deps.lockSeconds ?? IDEMPOTENCY_LOCK_SECONDS;
  const { repo } = deps;

  return {
    /** Claims the key for this request, or says what to answer instead (throws 409/422 errors). */
    async begin(r: IdempotentRequest): Promise<Begun> {
      const problem = keyProblem(r.key);
      if (problem)
        throw errors.validation(`Idempotency-Key ${problem}`, [
          { field: 'Idempotency-Key', message: problem, in: 'headers' },
        ]);
      const hash = requestHash(r);
      const claim = {
        orgId: r.scope.orgId,
        environment: r.scope.environment,
        credential: r.credential,
        key: r.key,
        requestHash: hash,
        method: r.method.toUpperCase(),
        path: r.path,
        lockToken: randomBytes(12).toString('hex'),
        lockSeconds,
        ttlSeconds,
      };
      // A row can vanish between the statements (a server error releasing it): look again, a few times.
      for (let attempt = 0; attempt < 3; attempt++) {
        if ((await repo.insert(claim)) || (await repo.takeOver(claim))) {
          return {
            kind: 'claimed',
            finish: async (res) => {
              if (keepsResponse(res.status)) await repo.complete(claim, res);
              else await repo.release(claim);
            },
            release: () => repo.release(claim),
          };
        }
        const row = await repo.get(claim);
        if (!row) continue;
        if (row.request_hash !== hash) throw new IdempotencyKeyReusedError();
        if (row.state === 'running') {
          throw errors.conflict(
            'A request with this Idempotency-Key is still being processed; retry once it has finished',
          );
        }
        return {
          kind: 'replay',
          response: {
            status: row.response_status!,
            headers: row.response_headers ?? {},
            body: row.response_body ?? '',
          },
        };
      }
      throw errors.conflict('A request with this Idempotency-Key is still being processed; retry once it has finished');
    },
    /** Deletes kept responses past their time (the daily maintenance job). */
    sweep(): Promise<number> {
      return repo.deleteExpired(ttlSeconds);
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
