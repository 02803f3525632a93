// Deciding what the export queue does with a failed Sheets call. Errors are read by shape, not
// by class, because they can come from the API client, the token client or the network layer.

export type GoogleErrorClass =
  | { kind: 'retry'; retryAfterMs?: number; status?: number; reason: string }
  | {
      kind: 'fatal';
      /** Human-readable cause, from Google's error body when there is one. */
      reason: string;
      /** HTTP status; 0 when the failure never reached a server response (bad key, bad input). */
      status: number;
      /** Google's canonical status (`PERMISSION_DENIED`) or OAuth error (`invalid_grant`). */
      code?: string;
    };

// Node and fetch error codes that mean "the request may not have reached Google or the reply
// was lost": safe to try again later.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'TimeoutError',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  // The client's timeout surfaces as an abort; SheetsApi takes no caller signal, so an abort
  // can only be that timeout.
  'AbortError',
]);

// Older Google APIs report rate limits as 403 with these reasons.
const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED']);

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null ? (v as Rec) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function parseBody(data: unknown): Rec | undefined {
  if (typeof data === 'string') {
    try {
      return rec(JSON.parse(data));
    } catch {
      return undefined;
    }
  }
  return rec(data);
}

function header(headers: unknown, name: string): string | undefined {
  const h = rec(headers);
  if (!h) return undefined;
  // A fetch Headers object (checked by shape: it may come from another realm) or a plain object.
  if (typeof h.get === 'function') return (h.get as (n: string) => string | null).call(h, name) ?? undefined;
  for (const [k, v] of Object.entries(h))
    if (k.toLowerCase() === name) return Array.isArray(v) ? String(v[0]) : String(v);
  return undefined;
}

/** Retry-After as seconds or an HTTP date → milliseconds from `now`. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const t = value.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** google.rpc.RetryInfo `retryDelay` ("30s", "1.5s") in the error details, if any. */
function retryInfoMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const delay = str(rec(d)?.retryDelay);
    const m = delay ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
    if (m) return Math.round(Number(m[1]) * 1000);
  }
  return undefined;
}

function reasons(err: Rec): string[] {
  const out: string[] = [];
  for (const e of Array.isArray(err.errors) ? err.errors : []) {
    const r = str(rec(e)?.reason);
    if (r) out.push(r);
  }
  for (const d of Array.isArray(err.details) ? err.details : []) {
    const r = str(rec(d)?.reason);
    if (r) out.push(r);
  }
  return out;
}

function networkCode(e: Rec): string | undefined {
  for (let cur: Rec | undefined = e, depth = 0; cur && depth < 4; cur = rec(cur.cause), depth++) {
    const code = str(cur.code) ?? str(cur.name);
    if (code && NETWORK_CODES.has(code)) return code;
  }
  return undefined;
}

/**
 * retry: 408, 429, 5xx, 403 rate-limit reasons, network failures and timeouts (Retry-After or
 * RetryInfo honoured). fatal: every other HTTP error (400, 401, 403, 404, token `invalid_grant`
 * …) with Google's message, and errors that never got a response (malformed key, bad input).
 */
export function classifyGoogleError(error: unknown): GoogleErrorClass {
  const e = rec(error);
  if (!e) return { kind: 'fatal', reason: String(error), status: 0 };
  const response = rec(e.response);
  const status = typeof response?.status === 'number' ? response.status : typeof e.status === 'number' ? e.status : 0;
  if (!response || status === 0) {
    const code = networkCode(e);
    if (code) return { kind: 'retry', reason: `network: ${code}` };
    return { kind: 'fatal', reason: str(e.message) ?? 'unknown error', status: 0 };
  }
  const body = parseBody(response.data);
  const apiErr = rec(body?.error);
  // API errors: {error:{code,message,status,details}}; token endpoint: {error, error_description}.
  const code = str(apiErr?.status) ?? str(body?.error);
  const message = str(apiErr?.message) ?? str(body?.error_description) ?? str(e.message) ?? `HTTP ${status}`;
  const why = apiErr ? reasons(apiErr) : [];
  const retryAfterMs = parseRetryAfter(header(response.headers, 'retry-after')) ?? retryInfoMs(apiErr?.details);
  const retryable =
    status === 408 || status === 429 || status >= 500 || (status === 403 && why.some((r) => RATE_LIMIT_REASONS.has(r)));
  if (retryable) {
    const reason = code ? `${code}: ${message}` : message;
    return retryAfterMs === undefined
      ? { kind: 'retry', status, reason }
      : { kind: 'retry', status, reason, retryAfterMs };
  }
  return code ? { kind: 'fatal', reason: message, status, code } : { kind: 'fatal', reason: message, status };
}
