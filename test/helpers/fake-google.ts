// A protocol-level fake of the Google OAuth token endpoint and the Sheets v4 values API, so the
// real client library can be exercised end to end on 127.0.0.1. It checks what Google checks
// for our use (Bearer tokens, RS256-signed service-account JWTs, refresh-token grants,
// valueInputOption, range syntax, range bounds) and answers with Google-shaped bodies.
//
// Value semantics that matter to the export: with USER_ENTERED, strings are parsed as a person
// typing would ("00123" → 123, "=…" → formula, "2024-01-05" → date, a leading apostrophe →
// literal text); with RAW nothing is parsed. Stored cells keep that type (see FakeCell).
// Not modelled: formula evaluation, number formats, locales, grid column limits.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { columnLetter, formatA1Range, parseA1Range } from '../../src/modules/integrations/sheets/mapping/a1.js';

/** A stored cell: dates and formulas are tagged so tests can tell them from text. */
export type FakeCell = string | number | boolean | { date: string } | { formula: string };
export type FakeCallKind =
  'token' | 'spreadsheets.get' | 'values.get' | 'values.update' | 'values.append' | 'values.batchUpdate' | 'unknown';
export interface FakeCall {
  method: string;
  path: string;
  kind: FakeCallKind;
  query: Record<string, string>;
  status: number;
  at: number;
}
export interface FailOptions {
  /** Retry-After header value (seconds, or an HTTP date string). */
  retryAfter?: number | string;
  /** Only requests whose path contains this (or matches it). Default: any /v4/ API call. */
  path?: string | RegExp;
  message?: string;
  /** google.rpc.ErrorInfo reason, e.g. RATE_LIMIT_EXCEEDED. */
  reason?: string;
}
export interface FakeGoogleOptions {
  /** Lifetime of issued access tokens. Default 3599 s. */
  tokenTtlSeconds?: number;
}
export interface FakeGoogle {
  rootUrl: string;
  tokenUrl: string;
  close(): Promise<void>;
  spreadsheets: {
    /** `allow`: principals (SA e-mail / OAuth client id) that may access; default everyone. */
    create(id: string, sheets: string[], opts?: { allow?: string[] }): void;
    getValues(id: string, sheet: string): FakeCell[][];
    setValues(id: string, sheet: string, rows: FakeCell[][]): void;
  };
  calls: FakeCall[];
  failNext(n: number, status: number, opts?: FailOptions): void;
  /** Hold the next n matching requests for `ms` before handling them. */
  delayNext(n: number, ms: number, opts?: { path?: string | RegExp }): void;
  readonly tokensIssued: number;
  registerServiceAccount(clientEmail: string, publicKeyPem: string): void;
  registerOAuthClient(clientId: string, clientSecret: string, refreshToken: string): void;
  /** Invalidate every issued access token (refresh tokens stay valid). */
  revokeAccessTokens(): void;
}

const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
const CANONICAL_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};
const DEFAULT_MESSAGE: Record<number, string> = {
  401: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  429: "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com'.",
  500: 'Internal error encountered.',
  503: 'The service is currently unavailable.',
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly reason?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? DEFAULT_MESSAGE[status] ?? 'Invalid request.');
  }
}
/** Token-endpoint errors use the OAuth body shape, not Google's API shape. */
class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(code);
  }
}

interface Sheet {
  title: string;
  sheetId: number;
  rows: (FakeCell | undefined)[][];
  rowCount: number;
  columnCount: number;
}
interface Spreadsheet {
  id: string;
  sheets: Sheet[];
  allow?: Set<string>;
}
interface Rule {
  left: number;
  path?: string | RegExp;
  status: number;
  ms: number;
  opts: FailOptions;
}

const SKIP = Symbol('skip');
const isEmpty = (c: FakeCell | undefined) => c === undefined || c === '';
const matches = (path: string, p: string | RegExp | undefined) =>
  p === undefined ? path.startsWith('/v4/') : typeof p === 'string' ? path.includes(p) : p.test(path);

function validDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function inputCell(v: unknown, option: string, where: string): FakeCell | undefined | typeof SKIP {
  if (v === null) return SKIP;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v !== 'string') throw new HttpError(400, `Invalid values${where}: struct_value ${JSON.stringify(v)}`);
  if (v === '') return undefined;
  if (option === 'RAW') return v;
  if (v.startsWith("'")) return v.slice(1);
  if (v.startsWith('=')) return { formula: v };
  if (/^[+-]?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^\d{4}-\d{2}-\d{2}$/.test(v) && validDate(v)) return { date: v };
  return v;
}

function render(c: FakeCell | undefined, how: string): string | number | boolean {
  if (c === undefined) return '';
  if (typeof c === 'object') {
    if ('formula' in c) return c.formula;
    if (how === 'FORMATTED_VALUE') return c.date;
    return (Date.parse(`${c.date}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000;
  }
  if (how === 'FORMATTED_VALUE') return typeof c === 'boolean' ? (c ? 'TRUE' : 'FALSE') : String(c);
  return c;
}

function verifyJwt(token: string, keys: Map<string, KeyObject>): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('not a JWT');
  const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString()) as Record<string, unknown>;
  const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString()) as Record<string, unknown>;
  if (header.alg !== 'RS256') throw new Error('alg must be RS256');
  const key = keys.get(String(payload.iss));
  if (!key) throw new Error('unknown issuer');
  if (!verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2], 'base64url')))
    throw new Error('Invalid JWT Signature.');
  const now = Date.now() / 1000;
  const { iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') throw new Error('iat/exp missing');
  if (exp <= now || iat > now + 300 || exp - iat > 3600)
    throw new Error('Invalid JWT: token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
  return payload;
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const ttl = options.tokenTtlSeconds ?? 3599;
  const books = new Map<string, Spreadsheet>();
  const saKeys = new Map<string, KeyObject>();
  const oauthClients = new Map<string, { secret: string; refreshToken: string }>();
  const accessTokens = new Map<string, { principal: string; expiresAt: number }>();
  const calls: FakeCall[] = [];
  const failures: Rule[] = [];
  const delays: Rule[] = [];
  let tokensIssued = 0;
  let nextSheetId = 1;
  let rootUrl = '';

  const book = (id: string): Spreadsheet => {
    const b = books.get(id);
    if (!b) throw new HttpError(404);
    return b;
  };
  const sheetOf = (b: Spreadsheet, title: string | null, range: string): Sheet => {
    const s = title === null ? b.sheets[0] : b.sheets.find((x) => x.title.toLowerCase() === title.toLowerCase());
    if (!s) throw new HttpError(400, `Unable to parse range: ${range}`);
    return s;
  };
  const parse = (range: string) => {
    try {
      return parseA1Range(range);
    } catch {
      throw new HttpError(400, `Unable to parse range: ${range}`);
    }
  };
  const put = (s: Sheet, row: number, col: number, c: FakeCell | undefined) => {
    while (s.rows.length < row) s.rows.push([]);
    s.rows[row - 1][col] = c;
    s.rowCount = Math.max(s.rowCount, row);
    s.columnCount = Math.max(s.columnCount, col + 1);
  };
  const rangeText = (s: Sheet, c0: number, r0: number, c1: number, r1: number) =>
    formatA1Range({ sheet: s.title, startCol: c0, startRow: r0, endCol: c1, endRow: r1 });

  function checkValues(values: unknown): unknown[][] {
    if (!Array.isArray(values) || !values.every(Array.isArray))
      throw new HttpError(400, "Invalid value at 'data.values': expected a list of lists");
    return values as unknown[][];
  }

  /** Validates a write and returns the function that performs it (so batches are atomic). */
  function planWrite(b: Spreadsheet, range: string, rawValues: unknown, option: string) {
    const r = parse(range);
    const s = sheetOf(b, r.sheet, range);
    const values = checkValues(rawValues);
    const r0 = r.startRow ?? 1;
    const c0 = r.startCol ?? 0;
    const width = Math.max(0, ...values.map((row) => row.length));
    const anchor = r.startCol !== null && r.startCol === r.endCol && r.startRow === r.endRow;
    if (!anchor && r.endRow !== null && values.length > 0 && r0 + values.length - 1 > r.endRow) {
      throw new HttpError(
        400,
        `Requested writing within range [${range}], but tried writing to row [${r0 + values.length - 1}]`,
      );
    }
    if (!anchor && r.endCol !== null && width > 0 && c0 + width - 1 > r.endCol) {
      throw new HttpError(
        400,
        `Requested writing within range [${range}], but tried writing to column [${columnLetter(c0 + width - 1)}]`,
      );
    }
    const cells = values.map((row, i) => row.map((v, j) => inputCell(v, option, `[${i}][${j}]`)));
    const result = {
      updatedRange: rangeText(s, c0, r0, c0 + Math.max(width, 1) - 1, r0 + Math.max(values.length, 1) - 1),
      updatedRows: values.length,
      updatedColumns: width,
      updatedCells: values.reduce((n, row) => n + row.length, 0),
    };
    return {
      result,
      apply: () =>
        cells.forEach((row, i) =>
          row.forEach((c, j) => {
            if (c !== SKIP) put(s, r0 + i, c0 + j, c);
          }),
        ),
    };
  }

  function append(b: Spreadsheet, range: string, body: Record<string, unknown>, q: URLSearchParams) {
    const r = parse(range);
    const s = sheetOf(b, r.sheet, range);
    const values = checkValues(body.values);
    if (values.length === 0) throw new HttpError(400, 'Invalid data: no values to append');
    const c0 = r.startCol ?? 0;
    // A single-cell range is only an anchor: the table extends right from it.
    const single = r.startRow !== null && r.startRow === r.endRow && r.startCol === r.endCol;
    const c1 = single ? Number.MAX_SAFE_INTEGER : (r.endCol ?? Number.MAX_SAFE_INTEGER);
    const r0 = r.startRow ?? 1;
    // The "table" is the data in the range's columns from its first row down; we append under it.
    let last = 0;
    let tableEndCol = c0;
    for (let i = r0 - 1; i < s.rows.length; i++) {
      s.rows[i].forEach((c, j) => {
        if (j >= c0 && j <= c1 && !isEmpty(c)) {
          last = i + 1;
          tableEndCol = Math.max(tableEndCol, j);
        }
      });
    }
    const at = Math.max(last + 1, r0);
    // Append never leaves a cell untouched, so null is an empty cell here.
    const plan = planWrite(
      b,
      rangeText(s, c0, at, c0, at),
      values.map((row) => row.map((v) => v ?? '')),
      q.get('valueInputOption') ?? '',
    );
    if ((q.get('insertDataOption') ?? 'OVERWRITE') === 'INSERT_ROWS' && at - 1 < s.rows.length) {
      s.rows.splice(at - 1, 0, ...values.map(() => []));
      s.rowCount += values.length;
    }
    plan.apply();
    return {
      spreadsheetId: b.id,
      ...(last > 0 ? { tableRange: rangeText(s, c0, r0, tableEndCol, last) } : {}),
      updates: { spreadsheetId: b.id, ...plan.result },
    };
  }

  function getValues(b: Spreadsheet, range: string, q: URLSearchParams) {
    const r = parse(range);
    const s = sheetOf(b, r.sheet, range);
    const r0 = r.startRow ?? 1;
    const c0 = r.startCol ?? 0;
    const r1 = r.endRow ?? s.rowCount;
    const c1 = r.endCol ?? s.columnCount - 1;
    const how = q.get('valueRenderOption') ?? 'FORMATTED_VALUE';
    const out: (string | number | boolean)[][] = [];
    for (let i = r0; i <= Math.min(r1, s.rows.length); i++) {
      const src = s.rows[i - 1];
      let end = Math.min(c1, src.length - 1);
      while (end >= c0 && isEmpty(src[end])) end--;
      const row: (string | number | boolean)[] = [];
      for (let j = c0; j <= end; j++) row.push(render(src[j], how));
      out.push(row);
    }
    while (out.length > 0 && out[out.length - 1].length === 0) out.pop();
    return { range: rangeText(s, c0, r0, c1, r1), majorDimension: 'ROWS', ...(out.length ? { values: out } : {}) };
  }

  function authenticate(req: IncomingMessage): string {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m)
      throw new HttpError(401, undefined, undefined, {
        'www-authenticate': 'Bearer realm="https://accounts.google.com/"',
      });
    const opaque = accessTokens.get(m[1]);
    if (opaque && opaque.expiresAt > Date.now()) return opaque.principal;
    if (opaque) throw new HttpError(401);
    try {
      const p = verifyJwt(m[1], saKeys);
      const scopes = String(p.scope ?? '').split(/\s+/);
      const audOk =
        typeof p.aud === 'string' && (p.aud.startsWith('https://sheets.googleapis.com') || p.aud.startsWith(rootUrl));
      if (!scopes.includes(SCOPE) && !audOk) throw new Error('no Sheets scope');
      return String(p.iss);
    } catch {
      throw new HttpError(401);
    }
  }

  function issue(principal: string) {
    const token = `ya29.fake-${randomBytes(18).toString('base64url')}`;
    accessTokens.set(token, { principal, expiresAt: Date.now() + ttl * 1000 });
    tokensIssued++;
    return { access_token: token, expires_in: ttl, token_type: 'Bearer', scope: SCOPE };
  }

  function token(req: IncomingMessage, form: URLSearchParams) {
    const grant = form.get('grant_type');
    if (grant === 'refresh_token') {
      let id = form.get('client_id') ?? '';
      let secret = form.get('client_secret') ?? '';
      const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      if (basic) [id, secret] = Buffer.from(basic[1], 'base64').toString().split(':');
      const client = oauthClients.get(id);
      if (!client || client.secret !== secret) throw new OAuthError(401, 'invalid_client', 'Unauthorized');
      if (form.get('refresh_token') !== client.refreshToken)
        throw new OAuthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      return issue(id);
    }
    if (grant === JWT_BEARER) {
      let p: Record<string, unknown>;
      try {
        p = verifyJwt(form.get('assertion') ?? '', saKeys);
      } catch (e) {
        throw new OAuthError(400, 'invalid_grant', (e as Error).message);
      }
      if (p.aud !== CANONICAL_TOKEN_URL && p.aud !== `${rootUrl}token`)
        throw new OAuthError(400, 'invalid_grant', 'Invalid JWT: aud');
      if (
        !String(p.scope ?? '')
          .split(/\s+/)
          .includes(SCOPE)
      )
        throw new OAuthError(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
      return issue(String(p.iss));
    }
    throw new OAuthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
  }

  function kindOf(method: string, path: string): FakeCallKind {
    if (path === '/token') return 'token';
    if (/^\/v4\/spreadsheets\/[^/]+\/values:batchUpdate$/.test(path)) return 'values.batchUpdate';
    if (/^\/v4\/spreadsheets\/[^/]+\/values\/.+:append$/.test(path)) return 'values.append';
    if (/^\/v4\/spreadsheets\/[^/]+\/values\/.+$/.test(path)) return method === 'PUT' ? 'values.update' : 'values.get';
    if (/^\/v4\/spreadsheets\/[^/]+$/.test(path)) return 'spreadsheets.get';
    return 'unknown';
  }

  async function route(req: IncomingMessage, call: FakeCall, raw: string, q: URLSearchParams): Promise<unknown> {
    const { method, kind } = call;
    if (kind === 'token' && method === 'POST') return token(req, new URLSearchParams(raw));
    if (kind === 'unknown' || kind === 'token') throw new HttpError(404, `Method not found: ${method} ${call.path}`);
    const principal = authenticate(req);
    const segs = call.path.split('/');
    const b = book(decodeURIComponent(segs[3]));
    if (b.allow && !b.allow.has(principal)) throw new HttpError(403);
    const rangeRaw = segs
      .slice(5)
      .join('/')
      .replace(/:append$/, '');
    const range = decodeURIComponent(rangeRaw);
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    const option = q.get('valueInputOption');
    const needOption = (o: unknown) => {
      if (o !== 'RAW' && o !== 'USER_ENTERED')
        throw new HttpError(400, "'valueInputOption' is required but not specified");
      return o;
    };
    if (kind === 'spreadsheets.get' && method === 'GET') {
      return {
        spreadsheetId: b.id,
        properties: { title: b.id },
        sheets: b.sheets.map((s, index) => ({
          properties: {
            sheetId: s.sheetId,
            title: s.title,
            index,
            sheetType: 'GRID',
            gridProperties: { rowCount: s.rowCount, columnCount: s.columnCount },
          },
        })),
      };
    }
    if (kind === 'values.get' && method === 'GET') return getValues(b, range, q);
    if (kind === 'values.update' && method === 'PUT') {
      const plan = planWrite(b, range, body.values, needOption(option));
      plan.apply();
      return { spreadsheetId: b.id, ...plan.result };
    }
    if (kind === 'values.append' && method === 'POST') {
      needOption(option);
      return append(b, range, body, q);
    }
    if (kind === 'values.batchUpdate' && method === 'POST') {
      const opt = needOption(body.valueInputOption);
      const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
      const plans = data.map((d) => planWrite(b, String(d.range), d.values, opt));
      plans.forEach((p) => p.apply());
      const sum = (k: 'updatedRows' | 'updatedColumns' | 'updatedCells') => plans.reduce((n, p) => n + p.result[k], 0);
      return {
        spreadsheetId: b.id,
        totalUpdatedRows: sum('updatedRows'),
        totalUpdatedColumns: sum('updatedColumns'),
        totalUpdatedCells: sum('updatedCells'),
        totalUpdatedSheets: new Set(data.map((d) => parse(String(d.range)).sheet)).size,
        responses: plans.map((p) => ({ spreadsheetId: b.id, ...p.result })),
      };
    }
    throw new HttpError(404, `Method not found: ${method} ${call.path}`);
  }

  const send = (
    res: ServerResponse,
    call: FakeCall,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    call.status = status;
    if (res.destroyed) return; // the client gave up (timeout test)
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const take = (rules: Rule[], path: string) => {
    const rule = rules.find((r) => r.left > 0 && matches(path, r.path));
    if (rule) rule.left--;
    return rule;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const call: FakeCall = {
      method,
      path: url.pathname,
      kind: kindOf(method, url.pathname),
      query: Object.fromEntries(url.searchParams),
      status: 0,
      at: Date.now(),
    };
    calls.push(call);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const delay = take(delays, call.path);
        if (delay) await new Promise((r) => setTimeout(r, delay.ms));
        const fail = take(failures, call.path);
        if (fail)
          throw new HttpError(
            fail.status,
            fail.opts.message,
            fail.opts.reason ?? (fail.status === 429 ? 'RATE_LIMIT_EXCEEDED' : undefined),
            fail.opts.retryAfter === undefined ? {} : { 'retry-after': String(fail.opts.retryAfter) },
          );
        return route(req, call, Buffer.concat(chunks).toString('utf8'), url.searchParams);
      })().then(
        (body) => send(res, call, 200, body),
        (e: unknown) => {
          if (e instanceof OAuthError)
            return send(res, call, e.status, { error: e.code, error_description: e.description });
          const err =
            e instanceof HttpError
              ? e
              : e instanceof SyntaxError
                ? new HttpError(400, `Invalid JSON payload received. ${e.message}`)
                : new HttpError(500, String(e));
          const details = err.reason
            ? [
                {
                  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                  reason: err.reason,
                  domain: 'googleapis.com',
                  metadata: { service: 'sheets.googleapis.com' },
                },
              ]
            : undefined;
          send(
            res,
            call,
            err.status,
            {
              error: {
                code: err.status,
                message: err.message,
                status: GOOGLE_STATUS[err.status] ?? 'UNKNOWN',
                ...(details ? { details } : {}),
              },
            },
            err.headers,
          );
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  rootUrl = `http://127.0.0.1:${port}/`;

  return {
    rootUrl,
    tokenUrl: `${rootUrl}token`,
    calls,
    get tokensIssued() {
      return tokensIssued;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    spreadsheets: {
      create(id, sheets, opts = {}) {
        books.set(id, {
          id,
          sheets: sheets.map((title) => ({ title, sheetId: nextSheetId++, rows: [], rowCount: 1000, columnCount: 26 })),
          ...(opts.allow ? { allow: new Set(opts.allow) } : {}),
        });
      },
      getValues(id, sheet) {
        const s = sheetOf(book(id), sheet, sheet);
        const rows = s.rows.map((row) => {
          let end = row.length - 1;
          while (end >= 0 && isEmpty(row[end])) end--;
          return row.slice(0, end + 1).map((c) => c ?? '');
        });
        while (rows.length > 0 && rows[rows.length - 1].length === 0) rows.pop();
        return rows;
      },
      setValues(id, sheet, rows) {
        const s = sheetOf(book(id), sheet, sheet);
        s.rows = [];
        rows.forEach((row, i) => row.forEach((c, j) => put(s, i + 1, j, c === '' ? undefined : c)));
      },
    },
    failNext(n, status, opts = {}) {
      failures.push({ left: n, path: opts.path, status, ms: 0, opts });
    },
    delayNext(n, ms, opts = {}) {
      delays.push({ left: n, path: opts.path, status: 0, ms, opts: {} });
    },
    registerServiceAccount(clientEmail, publicKeyPem) {
      saKeys.set(clientEmail, createPublicKey(publicKeyPem));
    },
    registerOAuthClient(clientId, clientSecret, refreshToken) {
      oauthClients.set(clientId, { secret: clientSecret, refreshToken });
    },
    revokeAccessTokens() {
      accessTokens.clear();
    },
  };
}
