// The dashboard's session and transport to the public API under /api/v1: JSON calls go through
// the typed client (client.ts) whose fetch is `authedFetch` here; files (downloads, the upload
// with progress) use `send`, `blob` and `upload`. The access token lives in this module's memory
// (never in storage); the refresh token is an HttpOnly cookie that only the refresh endpoint
// receives, so page scripts can never read it.

import type { paths } from '../../api/types';

export const API = '/api/v1';
const CSRF_COOKIE = 'docpipe_csrf';

export type Environment = 'live' | 'test';

export interface FieldIssue {
  field: string;
  message: string;
  in?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly requestId?: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** Field-level problems of a VALIDATION_ERROR, when the API named them. */
  get fields(): FieldIssue[] {
    return Array.isArray(this.details)
      ? (this.details as FieldIssue[]).filter((d) => d && typeof d.field === 'string')
      : [];
  }
}

interface TokenState {
  token: string;
  expiresAt: number;
}
let access: TokenState | null = null;
let environment: Environment = 'live';
const signedOutListeners = new Set<() => void>();

export function setEnvironment(env: Environment): void {
  environment = env;
}
export function getEnvironment(): Environment {
  return environment;
}
export function onSignedOut(fn: () => void): () => void {
  signedOutListeners.add(fn);
  return () => signedOutListeners.delete(fn);
}
export function hasAccessToken(): boolean {
  return access !== null;
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=') || null;
  }
  return null;
}

async function parseError(res: Response): Promise<ApiError> {
  let body: { error?: { code?: string; message?: string; details?: unknown; request_id?: string } } = {};
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const e = body.error ?? {};
  const retry = Number(res.headers.get('retry-after'));
  return new ApiError(
    res.status,
    e.code ?? `HTTP_${res.status}`,
    e.message ?? res.statusText ?? 'Request failed',
    e.details,
    e.request_id ?? res.headers.get('x-request-id') ?? undefined,
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
  );
}

function keep(data: { accessToken: string; expiresIn: number }): void {
  access = { token: data.accessToken, expiresAt: Date.now() + data.expiresIn * 1000 };
  scheduleRefresh();
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleRefresh(): void {
  clearTimeout(refreshTimer);
  if (!access) return;
  // A minute before expiry; a failure here is handled by the 401 path of the next call.
  const wait = Math.max(5_000, access.expiresAt - Date.now() - 60_000);
  refreshTimer = setTimeout(() => {
    void refresh();
  }, wait);
}

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  // Refresh tokens rotate and a reused one revokes the session: tabs take turns, so a second
  // tab refreshes with the cookie the first one just received.
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? (locks.request('docpipe-refresh', fn) as Promise<T>) : fn();
}

let inflight: Promise<boolean> | null = null;
/** Trades the refresh cookie for a new access token. False when there is no live session. */
export function refresh(): Promise<boolean> {
  inflight ??= withLock(async () => {
    const csrf = readCookie(CSRF_COOKIE);
    if (!csrf) return false;
    const res = await fetch(`${API}/auth/refresh`, {
      method: 'POST',
      headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
      body: '{}',
      credentials: 'same-origin',
    });
    if (!res.ok) return false;
    keep((await res.json()).data);
    return true;
  })
    .catch(() => false)
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

export async function login(email: string, password: string): Promise<void> {
  const res = await fetch(`${API}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ email, password, mode: 'cookie' }),
  });
  if (!res.ok) throw await parseError(res);
  keep((await res.json()).data);
}

/** GET /setup's answer (called before there is a session, so outside the typed client's fetch). */
export type SetupStatus = paths['/api/v1/setup']['get']['responses'][200]['content']['application/json']['data'];
type SetupInput = NonNullable<paths['/api/v1/setup']['post']['requestBody']>['content']['application/json'];

/** Whether the installation still needs its owner account (no session needed). */
export async function setupStatus(): Promise<SetupStatus> {
  const res = await fetch(`${API}/setup`, { credentials: 'same-origin' });
  if (!res.ok) throw await parseError(res);
  return (await res.json()).data as SetupStatus;
}

/** Creates the first organization and its owner. */
export async function completeSetup(input: SetupInput): Promise<void> {
  const res = await fetch(`${API}/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(input),
  });
  if (!res.ok) throw await parseError(res);
}

export async function logout(): Promise<void> {
  const csrf = readCookie(CSRF_COOKIE);
  try {
    if (access) {
      await fetch(`${API}/auth/logout`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { Authorization: `Bearer ${access.token}`, ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
      });
    }
  } finally {
    access = null;
    clearTimeout(refreshTimer);
    for (const fn of signedOutListeners) fn();
  }
}

export type Query = Record<string, string | number | boolean | undefined | null | string[]>;

/** The query string the API reads: empty values left out, a list as one comma-separated value. */
export function queryString(query?: Query): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    p.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  return p.toString();
}

export function withQuery(path: string, query?: Query): string {
  const s = queryString(query);
  return s ? `${path}?${s}` : path;
}

function headers(extra?: HeadersInit): Headers {
  const h = new Headers(extra);
  if (access) h.set('Authorization', `Bearer ${access.token}`);
  if (environment === 'test') h.set('X-Environment', 'test');
  return h;
}

/**
 * The `fetch` of the typed client (client.ts): the request gets the session's token and
 * environment; a 401 gets one refresh and one retry, then the session ends; an answer that is
 * not 2xx throws ApiError, so the client only ever returns documented success bodies.
 */
export function authedFetch(req: Request): Promise<Response> {
  // A copy per attempt: a request's body can be read once.
  return authed(() => fetch(new Request(req.clone(), { headers: headers(req.headers), credentials: 'same-origin' })));
}

/** Sends a request that is not JSON in and out (downloads); same session handling as the client. */
export function send(
  method: string,
  path: string,
  init: { query?: Query; signal?: AbortSignal } = {},
): Promise<Response> {
  const url = `${API}${withQuery(path, init.query)}`;
  return authed(() => fetch(url, { method, headers: headers(), signal: init.signal, credentials: 'same-origin' }));
}

async function authed(attempt: () => Promise<Response>): Promise<Response> {
  if (access && access.expiresAt - Date.now() < 10_000) await refresh();
  let res = await attempt();
  if (res.status === 401) {
    if (await refresh()) res = await attempt();
    if (res.status === 401) {
      access = null;
      for (const fn of signedOutListeners) fn();
    }
  }
  if (!res.ok) throw await parseError(res);
  return res;
}

export async function blob(path: string, signal?: AbortSignal): Promise<Blob> {
  return (await send('GET', path, { signal })).blob();
}

/**
 * Multipart upload with progress (fetch cannot report upload progress). Same credentials and
 * environment as every other call; one refresh and retry on 401.
 */
export function upload(
  path: string,
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  const once = () =>
    new Promise<{ status: number; text: string; retryAfter: string | null }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${API}${path}`);
      headers().forEach((v, k) => xhr.setRequestHeader(k, v));
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total);
      };
      xhr.onload = () =>
        resolve({ status: xhr.status, text: xhr.responseText, retryAfter: xhr.getResponseHeader('retry-after') });
      xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'The upload could not reach the server'));
      xhr.onabort = () => reject(new ApiError(0, 'ABORTED', 'Upload cancelled'));
      signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(form);
    });
  return (async () => {
    let r = await once();
    if (r.status === 401 && (await refresh())) r = await once();
    let json: { data?: unknown; error?: { code: string; message: string; details?: unknown; request_id?: string } } =
      {};
    try {
      json = JSON.parse(r.text);
    } catch {
      /* not JSON */
    }
    if (r.status >= 400) {
      const e = json.error;
      throw new ApiError(
        r.status,
        e?.code ?? `HTTP_${r.status}`,
        e?.message ?? 'Upload failed',
        e?.details,
        e?.request_id,
        Number(r.retryAfter) || undefined,
      );
    }
    return json.data;
  })();
}
