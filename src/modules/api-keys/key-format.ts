import { randomBase62, sha256Hex } from '../../lib/crypto.js';
import type { Environment } from '../../lib/scope.js';

const KEY_RE = /^svc_(live|test)_[0-9A-Za-z]{32}$/;

/** 32 base62 characters ≈ 190 bits: high entropy, so a plain sha256 is the right stored form. */
export function generateApiKey(env: Environment): { secret: string; hash: string; masked: string } {
  const body = randomBase62(32);
  const secret = `svc_${env}_${body}`;
  return { secret, hash: sha256Hex(secret), masked: `svc_${env}_${body.slice(0, 4)}…${body.slice(-4)}` };
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('svc_');
}

export function parseApiKey(token: string): { env: Environment; hash: string } | null {
  const m = KEY_RE.exec(token);
  if (!m) return null;
  return { env: m[1] as Environment, hash: sha256Hex(token) };
}
