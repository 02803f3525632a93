// Who may read the metrics: with METRICS_TOKEN, only a request bearing it (compared in constant
// time); without it, only the separate METRICS_PORT listener, which the operator binds where
// only the scraper reaches it. Neither set: metrics are off.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** True when `authorization` is `Bearer <token>`. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  if (!authorization) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return !!m && timingSafeEqual(digest(m[1]), digest(token));
}
