// Outbound POST that cannot be pointed at internal infrastructure (SSRF), never follows
// redirects, is bounded in time and memory, and reports failures as values instead of throwing —
// a webhook attempt log needs a row for every outcome.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { POLICY_KEY_OPTION, createAgents, type AgentOptions, type AgentPair } from './agents.js';
import { createAllowList, type AllowList } from './allow-list.js';
import {
  DnsLookupError,
  ForbiddenAddressError,
  checkDestination,
  createGuardedLookup,
  systemResolver,
  type Resolver,
} from './guarded-lookup.js';
import { parseIp } from './ip-parse.js';

export type SafeFetchErrorCode = 'TIMEOUT' | 'NETWORK' | 'FORBIDDEN_ADDRESS' | 'INVALID_URL' | 'DNS';

/** Outcome of one request. `status` is 0 when no response status line arrived. */
export interface SafeResponse {
  status: number;
  /** Response headers, names lower-cased, repeated values joined with ", ". */
  headers: Record<string, string>;
  /** Response body decoded as UTF-8, cut at `maxResponseBytes` (never mid-character). */
  body: string;
  /** True when the receiver sent more than `maxResponseBytes`. */
  truncated: boolean;
  durationMs: number;
  /**
   * Set when the exchange did not complete. A TIMEOUT after the status line keeps that status
   * (the receiver answered but its body never finished); callers should treat any error as failure.
   */
  error?: { code: SafeFetchErrorCode; message: string };
}

/** Per-request options of {@link safePost}. */
export interface SafePostOptions {
  /** Default POST (webhooks); workflow HTTP steps also send GET, PUT, PATCH and DELETE. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body: string | Buffer;
  /** Whole-exchange deadline (DNS + connect + headers + body), ms. Default 15000. */
  timeoutMs?: number;
  /**
   * Deadline for name resolution plus the TCP (and TLS) connection, ms; a reused keep-alive
   * connection skips it. Default: none beyond `timeoutMs`. An unreachable host then fails in
   * this time instead of holding the caller for the whole deadline.
   */
  connectTimeoutMs?: number;
  /** SSRF exceptions. Default: none (every private/loopback/reserved address refused). */
  allow?: AllowList;
  /** Response bytes kept. Default 20480. */
  maxResponseBytes?: number;
  /**
   * Extra response bytes read and discarded past the cap so the socket can be reused; beyond
   * this the connection is dropped. Default 65536.
   */
  drainBytes?: number;
  /** Keep-alive agents; without them every request opens a fresh connection. */
  agents?: AgentPair;
  /** Name resolution used inside the connector. Default: the system resolver. */
  resolver?: Resolver;
  /** User-Agent header unless `headers` sets one. Default `docpipe-webhooks/1`. */
  userAgent?: string;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 20 * 1024;
const DEFAULT_DRAIN_BYTES = 64 * 1024;

class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

function classify(err: unknown): { code: SafeFetchErrorCode; message: string } {
  const message = err instanceof Error ? err.message || err.name : String(err);
  if (err instanceof TimeoutError) return { code: 'TIMEOUT', message };
  if (err instanceof ForbiddenAddressError) return { code: 'FORBIDDEN_ADDRESS', message };
  if (err instanceof DnsLookupError) return { code: 'DNS', message };
  const code = (err as { code?: unknown } | null)?.code;
  return {
    code: 'NETWORK',
    message: typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message,
  };
}

function flattenHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * POSTs `body` to `url` under the SSRF policy. Never throws for network-level problems: the
 * result carries `status: 0` (or the status received) and an `error`.
 */
export async function safePost(url: string, opts: SafePostOptions): Promise<SafeResponse> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const fail = (code: SafeFetchErrorCode, message: string): SafeResponse => ({
    status: 0,
    headers: {},
    body: '',
    truncated: false,
    durationMs: elapsed(),
    error: { code, message },
  });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return fail('INVALID_URL', 'not a valid absolute URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return fail('INVALID_URL', `scheme ${target.protocol} is not allowed (http and https only)`);
  }
  const allow = opts.allow ?? createAllowList([]);
  // The WHATWG parser already canonicalised odd IPv4 spellings (0x7f.1, 2130706433) to dotted quads.
  const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  if (parseIp(hostname)) {
    // net.connect skips `lookup` for IP literals, so they are checked here.
    const check = checkDestination(hostname, hostname, allow);
    if (!check.ok) return fail('FORBIDDEN_ADDRESS', `${hostname} is forbidden: ${check.reason}`);
  }

  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cap = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const drainLimit = cap + (opts.drainBytes ?? DEFAULT_DRAIN_BYTES);
  const body = typeof opts.body === 'string' ? Buffer.from(opts.body, 'utf8') : opts.body;
  const isHttps = target.protocol === 'https:';
  const headers: Record<string, string | number> = { 'user-agent': opts.userAgent ?? 'docpipe-webhooks/1' };
  for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
  headers['content-length'] = body.length;

  return new Promise<SafeResponse>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    let connectTimer: NodeJS.Timeout | undefined;
    let status = 0;
    let resHeaders: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let kept = 0;
    let seen = 0;

    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(connectTimer);
      const buf = Buffer.concat(chunks, kept);
      // StringDecoder.write holds back an incomplete trailing character instead of emitting U+FFFD.
      const text = seen > cap ? new StringDecoder('utf8').write(buf) : buf.toString('utf8');
      const result: SafeResponse = {
        status,
        headers: resHeaders,
        body: text,
        truncated: seen > cap,
        durationMs: elapsed(),
      };
      if (error !== undefined) result.error = classify(error);
      resolve(result);
    };

    const timer = setTimeout(() => {
      const err = new TimeoutError(`no complete response within ${timeoutMs} ms`);
      finish(err);
      req?.destroy(err);
    }, timeoutMs);

    const guardSocket = (socket: Socket): void => {
      const connectMs = opts.connectTimeoutMs;
      if (connectMs !== undefined && connectMs < timeoutMs && socket.connecting) {
        connectTimer = setTimeout(() => {
          const err = new TimeoutError(`could not connect within ${connectMs} ms`);
          finish(err);
          req?.destroy(err);
        }, connectMs);
        // TLS sockets report 'secureConnect' once the handshake is done; plain ones 'connect'.
        socket.once(isHttps ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      }
      // Defence in depth: whatever path produced this socket, verify where it is connected.
      const verify = (): void => {
        const remote = socket.remoteAddress;
        if (!remote) return;
        const check = checkDestination(remote, hostname, allow);
        if (!check.ok) {
          const err = new ForbiddenAddressError(`connected to forbidden address ${remote}: ${check.reason}`);
          finish(err);
          req?.destroy(err);
        }
      };
      if (socket.connecting) socket.once('connect', verify);
      else verify();
    };

    try {
      const requestOptions: http.RequestOptions & Record<string, unknown> = {
        protocol: target.protocol,
        hostname,
        port: target.port || (isHttps ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method: opts.method ?? 'POST',
        headers,
        lookup: createGuardedLookup(allow, opts.resolver ?? systemResolver),
        agent: opts.agents ? (isHttps ? opts.agents.https : opts.agents.http) : false,
        [POLICY_KEY_OPTION]: allow.key,
      };
      if (target.username) {
        requestOptions.auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
      }
      req = (isHttps ? https : http).request(requestOptions, (res) => {
        status = res.statusCode ?? 0;
        resHeaders = flattenHeaders(res.headers);
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (kept < cap) {
            const take = chunk.subarray(0, cap - kept);
            chunks.push(take);
            kept += take.length;
          }
          if (seen > drainLimit) {
            // Enough discarding: drop the connection rather than stream an unbounded body.
            finish();
            res.destroy();
          }
        });
        res.on('end', () => finish());
        res.on('error', (err) => finish(err));
        res.on('close', () => {
          if (!res.complete) finish(new Error('connection closed before the response body was complete'));
        });
      });
      req.on('socket', guardSocket);
      req.on('error', (err) => finish(err));
      req.end(body);
    } catch (err) {
      // Synchronous throws are invalid header values and the like: report, do not crash a worker.
      finish(err);
    }
  });
}

/** Options of {@link createSafeHttpClient}; per-request values override these defaults. */
export interface SafeHttpClientOptions extends AgentOptions {
  /** SSRF exceptions for every request of this client. Default: none. */
  allow?: AllowList;
  /** Default whole-exchange deadline, ms. Default 15000. */
  timeoutMs?: number;
  /** Default connect deadline, ms (see SafePostOptions.connectTimeoutMs). Default none. */
  connectTimeoutMs?: number;
  /** Default response bytes kept. Default 20480. */
  maxResponseBytes?: number;
  /** Name resolution inside the connector. Default: the system resolver. */
  resolver?: Resolver;
  /** Default User-Agent. Default `docpipe-webhooks/1`. */
  userAgent?: string;
}

export interface SafeHttpClient {
  post(url: string, opts: Omit<SafePostOptions, 'agents'>): Promise<SafeResponse>;
  /** Closes pooled connections; call on shutdown. */
  close(): void;
}

/** A client with its own keep-alive pools; create one per process and share it. */
export function createSafeHttpClient(opts: SafeHttpClientOptions = {}): SafeHttpClient {
  const agents = createAgents(opts);
  return {
    post: (url, req) =>
      safePost(url, {
        ...req,
        allow: req.allow ?? opts.allow,
        timeoutMs: req.timeoutMs ?? opts.timeoutMs,
        connectTimeoutMs: req.connectTimeoutMs ?? opts.connectTimeoutMs,
        maxResponseBytes: req.maxResponseBytes ?? opts.maxResponseBytes,
        resolver: req.resolver ?? opts.resolver,
        userAgent: req.userAgent ?? opts.userAgent,
        agents,
      }),
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
