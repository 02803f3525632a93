import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../../lib/errors.js';
import { API_PREFIX } from '../../plugins/auth.js';

/**
 * Cookie mode of the session endpoints, for the dashboard: the refresh token never reaches
 * JavaScript. It lives in an HttpOnly cookie that the browser sends to the refresh endpoint and
 * nowhere else; the access token stays in the page's memory.
 *
 * CSRF: SameSite=Strict already keeps other sites' requests from carrying the cookie. On top, a
 * refresh or logout in cookie mode must send `X-CSRF-Token` equal to the readable CSRF cookie
 * (a custom header no cross-site form can send and a cross-site fetch cannot send without a CORS
 * grant), the token must be the one derived from the refresh cookie (so a cookie planted from a
 * sibling domain does not pass), and a browser's `Origin` / `Sec-Fetch-Site` must say same-origin.
 */
export const REFRESH_COOKIE = 'docpipe_refresh';
export const CSRF_COOKIE = 'docpipe_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const REFRESH_PATH = `${API_PREFIX}/auth/refresh`;

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    if (!(name in out)) out[name] = part.slice(i + 1).trim();
  }
  return out;
}

/** The CSRF token of a session: derived from its (secret) refresh token, so it cannot be forged. */
export function csrfTokenFor(refreshToken: string): string {
  return createHash('sha256').update(`docpipe-csrf:${refreshToken}`).digest('base64url');
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The refresh token from the cookie, or undefined when the request carries none. */
export function refreshCookie(req: FastifyRequest): string | undefined {
  const v = parseCookies(req.headers.cookie)[REFRESH_COOKIE];
  return v ? v : undefined;
}

/** The request is in cookie mode when it carries the session's readable CSRF cookie. */
export function hasCsrfCookie(req: FastifyRequest): boolean {
  return !!parseCookies(req.headers.cookie)[CSRF_COOKIE];
}

/** Throws 403 unless the request proves it comes from the dashboard's own pages. */
export function checkCsrf(req: FastifyRequest, refreshToken?: string): void {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw errors.forbidden('Cross-site session requests are refused');
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let host: string | null = null;
    try {
      host = new URL(origin).host;
    } catch {
      /* "null" or garbage: refused below */
    }
    if (host === null || host.toLowerCase() !== String(req.host).toLowerCase())
      throw errors.forbidden('Cross-origin session requests are refused');
  }
  const header = req.headers[CSRF_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  const cookie = parseCookies(req.headers.cookie)[CSRF_COOKIE];
  if (!given || !cookie || !sameString(given, cookie))
    throw errors.forbidden(`Cookie sessions need the ${CSRF_HEADER} header equal to the ${CSRF_COOKIE} cookie`);
  if (refreshToken !== undefined && !sameString(given, csrfTokenFor(refreshToken)))
    throw errors.forbidden('The CSRF token does not belong to this session');
}

const BASE = 'Secure; SameSite=Strict';

/** Sets the refresh cookie (HttpOnly, refresh path only) and the CSRF cookie (readable by the page). */
export function setSessionCookies(reply: FastifyReply, refreshToken: string, maxAgeSec: number): string {
  const csrf = csrfTokenFor(refreshToken);
  reply.header('Set-Cookie', [
    `${REFRESH_COOKIE}=${refreshToken}; Path=${REFRESH_PATH}; Max-Age=${maxAgeSec}; HttpOnly; ${BASE}`,
    `${CSRF_COOKIE}=${csrf}; Path=/; Max-Age=${maxAgeSec}; ${BASE}`,
  ]);
  // Never cache a response that sets the session.
  reply.header('Cache-Control', 'no-store');
  return csrf;
}

export function clearSessionCookies(reply: FastifyReply): void {
  reply.header('Set-Cookie', [
    `${REFRESH_COOKIE}=; Path=${REFRESH_PATH}; Max-Age=0; HttpOnly; ${BASE}`,
    `${CSRF_COOKIE}=; Path=/; Max-Age=0; ${BASE}`,
  ]);
}
