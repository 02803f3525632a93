import { hmacSha256, safeEqual } from '../../lib/crypto.js';

export interface AccessClaims {
  sub: string;
  org: string;
  /** refresh-token family: lets logout and reuse detection kill live access tokens */
  sid: string;
  typ: 'access';
  iat: number;
  exp: number;
  /** Issued to the dashboard (a cookie-mode session): rate-limited per person, not against the plan. */
  web?: true;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signAccessToken(claims: AccessClaims, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = hmacSha256(secret, `${HEADER}.${payload}`).toString('base64url');
  return `${HEADER}.${payload}.${sig}`;
}

/**
 * Accepts only HS256 tokens signed with our secret; `alg: none`, other algorithms, bad
 * signatures, malformed parts and expired tokens all return null (no reason leaks to clients).
 */
export function verifyAccessToken(
  token: string,
  secret: string,
  nowSec = Math.floor(Date.now() / 1000),
): AccessClaims | null {
  const r = readAccessToken(token, secret, nowSec);
  return r.status === 'valid' ? r.claims : null;
}

/**
 * Like verifyAccessToken, but tells an expired token apart: only a token we signed, well formed
 * and past its `exp`, is `expired`; anything malformed or forged is `invalid` (no detail).
 */
export function readAccessToken(
  token: string,
  secret: string,
  nowSec = Math.floor(Date.now() / 1000),
): { status: 'valid'; claims: AccessClaims } | { status: 'expired' } | { status: 'invalid' } {
  const claims = signedClaims(token, secret);
  if (!claims) return { status: 'invalid' };
  return claims.exp <= nowSec ? { status: 'expired' } : { status: 'valid', claims };
}

/** The claims of a well-formed access token signed with `secret`, whatever its `exp`; else null. */
function signedClaims(token: string, secret: string): AccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts;
  let header: unknown;
  let claims: Partial<AccessClaims>;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!header || typeof header !== 'object' || (header as { alg?: unknown }).alg !== 'HS256') return null;
  // Compare the encoded form: base64url decoding ignores padding bits and stray characters, so
  // comparing decoded bytes would accept many different strings as the same signature.
  const expected = hmacSha256(secret, `${h}.${p}`).toString('base64url');
  if (!safeEqual(expected, s)) return null;
  if (!claims || typeof claims !== 'object') return null;
  if (
    claims.typ !== 'access' ||
    typeof claims.sub !== 'string' ||
    typeof claims.org !== 'string' ||
    typeof claims.sid !== 'string'
  )
    return null;
  if (typeof claims.exp !== 'number') return null;
  return claims as AccessClaims;
}
