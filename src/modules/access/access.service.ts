import { DomainError, errors } from '../../lib/errors.js';
import type { RedisKeys } from '../../lib/redis.js';
import type { Environment } from '../../lib/scope.js';
import type { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { endpointAllowed, parseEndpointRule, type EndpointRule } from '../api-keys/endpoint-rules.js';
import { compileIpRules } from '../api-keys/ip-rules.js';
import { parseApiKey, looksLikeApiKey } from '../api-keys/key-format.js';
import { readAccessToken } from '../auth/jwt.js';
import type { RefreshTokensRepository } from '../auth/refresh-tokens.repository.js';
import type { OrgsRepository } from '../orgs/orgs.repository.js';
import type { Organization } from '../orgs/orgs.types.js';
import { CredentialCache } from './credential-cache.js';
import type { CachedCredential, Principal } from './principal.js';
import { rateLimitHeaders, type Policy, type RateLimiter } from './rate-limit.js';
import type { Stamps } from './stamps.js';

export interface AccessRequest {
  authorization: string | undefined;
  environmentHeader: string | undefined;
  ip: string;
  method: string;
  /** Path relative to /api/v1, without the query string. */
  path: string;
}

export interface AccessResult {
  principal: Principal;
  headers: Record<string, string>;
  /** The project list version of the principal's organization and environment, read with the rate limit. */
  projectsVersion: string;
}

export interface PlanLimits {
  free: number;
  pro: number;
  enterprise: number;
}

export const DEFAULT_PLAN_LIMITS: PlanLimits = { free: 30, pro: 120, enterprise: 1000 };

/** Failed credential lookups (unknown, revoked or inactive keys; dead sessions) per client IP per minute. */
export const DEFAULT_FAILED_LOOKUPS_PER_MINUTE = 30;

/**
 * Authenticates a request, applies key restrictions, and counts it against every rate-limit
 * policy in one Redis round trip. No database access unless the credential is not cached or
 * has changed since it was cached.
 */
export function createAccessService(deps: {
  orgs: OrgsRepository;
  apiKeys: ApiKeysRepository;
  refreshTokens: RefreshTokensRepository;
  stamps: Stamps;
  limiter: RateLimiter;
  keys: RedisKeys;
  jwtSecret: string;
  planLimits?: Partial<PlanLimits>;
  onKeyUsed?: (keyId: string) => void;
  now?: () => number;
  /** Called for every authenticated request that was not rate limited (usage counting). */
  onRequest?: (principal: Principal) => void;
  /** See DEFAULT_FAILED_LOOKUPS_PER_MINUTE. */
  failedLookupsPerMinute?: number;
  /** Requests per minute per person in the dashboard (cookie-mode sessions). Default 600. */
  dashboardPerMinute?: number;
}) {
  const cache = new CredentialCache();
  const failedLookupLimit = deps.failedLookupsPerMinute ?? DEFAULT_FAILED_LOOKUPS_PER_MINUTE;
  // Client IPs over the failed-lookup limit, until when. Kept in-process so a blocked client
  // costs neither a database read nor a Redis call; every process learns it from its own first
  // failure past the limit, so all processes together allow at most limit + processes lookups.
  const blocked = new Map<string, number>();
  const now = deps.now ?? Date.now;
  const planLimits = { ...DEFAULT_PLAN_LIMITS, ...deps.planLimits };
  // 0: no organization-wide cap (self_hosted).
  const orgLimit = (org: Organization) =>
    org.plan === 'enterprise'
      ? (org.rate_limit_per_minute ?? planLimits.enterprise)
      : org.plan === 'self_hosted'
        ? 0
        : planLimits[org.plan];

  async function loadApiKey(hash: string, env: Environment): Promise<CachedCredential | null> {
    const row = await deps.apiKeys.findByHash(hash);
    if (!row || row.environment !== env) return null;
    // Stamps are read before the rows they guard: a change landing in between bumps them and
    // the next request reloads.
    const refs = [
      { kind: 'key' as const, id: row.id },
      { kind: 'usr' as const, id: row.created_by },
      { kind: 'org' as const, id: row.org_id },
    ];
    const values = await deps.stamps.read(refs);
    const [fresh, user, org] = await Promise.all([
      deps.apiKeys.findByHash(hash),
      deps.orgs.getUser(row.created_by),
      deps.orgs.getOrg(row.org_id),
    ]);
    if (!fresh || !user || !org) return null;
    if (fresh.revoked_at || org.status !== 'active' || !fresh.is_active || !user.is_active) return null;
    return {
      principal: {
        kind: 'api_key',
        userId: user.id,
        email: user.email,
        orgId: org.id,
        orgName: org.name,
        role: user.role,
        environment: fresh.environment,
        plan: org.plan,
        orgRateLimitPerMinute: orgLimit(org),
        apiKey: {
          id: fresh.id,
          name: fresh.name,
          rateLimitPerMinute: fresh.rate_limit_per_minute,
          rateLimitPerDay: fresh.rate_limit_per_day,
        },
      },
      stamps: refs.map((r, i) => ({ key: deps.stamps.key(r.kind, r.id), expected: values[i] })),
      expiresAt: fresh.expires_at ? fresh.expires_at.getTime() : null,
      ipMatcher: fresh.allowed_ips.length ? compileIpRules(fresh.allowed_ips) : null,
      endpointRules: fresh.allowed_endpoints
        .map(parseEndpointRule)
        .filter((r): r is EndpointRule => typeof r !== 'string'),
      loadedAt: now(),
    };
  }

  async function loadSession(userId: string, orgId: string, sid: string): Promise<CachedCredential | null> {
    const refs = [
      { kind: 'usr' as const, id: userId },
      { kind: 'org' as const, id: orgId },
      { kind: 'sess' as const, id: sid },
    ];
    const values = await deps.stamps.read(refs);
    const [user, org, revoked] = await Promise.all([
      deps.orgs.getUser(userId),
      deps.orgs.getOrg(orgId),
      deps.refreshTokens.familyRevoked(sid),
    ]);
    if (!user || !org || revoked || !user.is_active || org.status !== 'active' || user.org_id !== org.id) return null;
    return {
      principal: {
        kind: 'user',
        userId,
        email: user.email,
        orgId,
        orgName: org.name,
        role: user.role,
        environment: 'live',
        plan: org.plan,
        orgRateLimitPerMinute: orgLimit(org),
        sessionId: sid,
      },
      stamps: refs.map((r, i) => ({ key: deps.stamps.key(r.kind, r.id), expected: values[i] })),
      expiresAt: null,
      ipMatcher: null,
      endpointRules: [],
      loadedAt: now(),
    };
  }

  function policiesFor(p: Principal): Policy[] {
    // A person clicking through the dashboard is not API usage: the plan's per-minute budget
    // (30 on free) would not survive a few pages. Their own per-person budget bounds them instead.
    if (p.web)
      return [
        {
          name: 'dashboard-minute',
          key: deps.keys.rate(`web:${p.userId}:m`),
          limit: deps.dashboardPerMinute ?? 600,
          windowSec: 60,
        },
      ];
    const policies: Policy[] = p.orgRateLimitPerMinute
      ? [{ name: 'org-minute', key: deps.keys.rate(`org:${p.orgId}:m`), limit: p.orgRateLimitPerMinute, windowSec: 60 }]
      : [];
    if (p.apiKey?.rateLimitPerMinute)
      policies.push({
        name: 'key-minute',
        key: deps.keys.rate(`key:${p.apiKey.id}:m`),
        limit: p.apiKey.rateLimitPerMinute,
        windowSec: 60,
      });
    if (p.apiKey?.rateLimitPerDay)
      policies.push({
        name: 'key-day',
        key: deps.keys.rate(`key:${p.apiKey.id}:d`),
        limit: p.apiKey.rateLimitPerDay,
        windowSec: 86_400,
      });
    return policies;
  }

  // Policies and watched keys depend only on the principal (a cached object, or a test-environment
  // copy of one): built once per principal rather than on every request.
  const limitsByPrincipal = new WeakMap<Principal, { policies: Policy[]; watch: string[] }>();
  function limitsFor(p: Principal): { policies: Policy[]; watch: string[] } {
    let l = limitsByPrincipal.get(p);
    if (!l) {
      l = { policies: policiesFor(p), watch: [deps.stamps.key('prj', `${p.orgId}:${p.environment}`)] };
      limitsByPrincipal.set(p, l);
    }
    return l;
  }

  /** A credential that is not cached costs database reads: refused at once while the IP is blocked. */
  function checkNotBlocked(ip: string): void {
    const until = blocked.get(ip);
    if (until === undefined) return;
    const left = until - now();
    if (left > 0) throw errors.rateLimited(Math.ceil(left / 1000));
    blocked.delete(ip);
  }

  /** Counts a failed lookup against the IP; past the limit the IP is blocked for the rest of the window. */
  async function failedLookup(ip: string, refusal: DomainError): Promise<never> {
    const r = await deps.limiter.check([
      { name: 'failed-auth-ip', key: deps.keys.rate(`authfail:${ip}`), limit: failedLookupLimit, windowSec: 60 },
    ]);
    if (r.outcome === 'limited') {
      if (blocked.size >= 10_000) blocked.delete(blocked.keys().next().value as string);
      blocked.set(ip, now() + r.retryAfterSec * 1000);
      throw errors.rateLimited(r.retryAfterSec, rateLimitHeaders(r.states, Math.floor(now() / 1000)));
    }
    throw refusal;
  }

  function keyRefusal(cred: CachedCredential, req: AccessRequest): DomainError | null {
    if (cred.expiresAt !== null && cred.expiresAt <= now()) return errors.unauthorized('API key has expired');
    if (cred.ipMatcher && !cred.ipMatcher.allows(req.ip))
      return errors.forbidden('This API key may not be used from this IP address');
    if (!endpointAllowed(cred.endpointRules, req.method, req.path))
      return errors.forbidden('This API key may not call this endpoint');
    return null;
  }

  async function resolve(req: AccessRequest, attempt = 0): Promise<AccessResult> {
    const header = req.authorization;
    if (!header) throw errors.unauthorized('Missing Authorization header');
    // The auth scheme is case-insensitive (RFC 9110 §11.1); the token itself is not.
    const m = /^Bearer +([^\s]+)$/i.exec(header.trim());
    if (!m) throw errors.unauthorized('Authorization header must be "Bearer <token>"');
    const token = m[1];

    let cacheKey: string;
    let cred: CachedCredential | null | undefined;
    if (looksLikeApiKey(token)) {
      const parsed = parseApiKey(token);
      if (!parsed) throw errors.unauthorized('Invalid API key');
      cacheKey = `k:${parsed.hash}`;
      cred = attempt === 0 ? cache.get(cacheKey) : undefined;
      const fromCache = cred !== undefined;
      if (!cred) {
        checkNotBlocked(req.ip);
        cred = await loadApiKey(parsed.hash, parsed.env);
        if (!cred) return failedLookup(req.ip, errors.unauthorized('Invalid API key'));
        cache.set(cacheKey, cred);
      }
      const refusal = keyRefusal(cred, req);
      if (refusal) {
        // A cached copy may predate a change (allowed_ips widened, key revoked): refuse only
        // once the stamps confirm it is current, so the change wins on the very next request.
        if (fromCache && (await deps.limiter.check([], cred.stamps)).outcome === 'stale') {
          cache.delete(cacheKey);
          return resolve(req, attempt + 1);
        }
        throw refusal;
      }
    } else {
      const read = readAccessToken(token, deps.jwtSecret, Math.floor(now() / 1000));
      // Expired is said apart (TOKEN_EXPIRED, still 401) so clients know to refresh; forged or malformed stays UNAUTHORIZED.
      if (read.status === 'expired') throw errors.tokenExpired();
      if (read.status !== 'valid') throw errors.unauthorized('Invalid or expired token');
      const claims = read.claims;
      // Every claim the load depends on is in the key, so a hit never answers for other claims.
      cacheKey = `s:${claims.sid}:${claims.sub}:${claims.org}${claims.web ? ':w' : ''}`;
      cred = attempt === 0 ? cache.get(cacheKey) : undefined;
      if (!cred) {
        checkNotBlocked(req.ip);
        cred = await loadSession(claims.sub, claims.org, claims.sid);
        if (!cred) return failedLookup(req.ip, errors.unauthorized('Invalid or expired token'));
        if (claims.web) cred = { ...cred, principal: { ...cred.principal, web: true } };
        cache.set(cacheKey, cred);
      }
    }

    let principal = cred.principal;
    if (principal.kind === 'user') {
      const env = req.environmentHeader?.toLowerCase();
      if (env !== undefined && env !== 'live' && env !== 'test')
        throw errors.validation('X-Environment must be "live" or "test"', [
          { field: 'X-Environment', message: 'must be "live" or "test"' },
        ]);
      if (env === 'test') principal = { ...principal, environment: 'test' };
    }

    const { policies, watch } = limitsFor(principal);
    const result = await deps.limiter.check(policies, cred.stamps, watch);
    if (result.outcome === 'stale') {
      cache.delete(cacheKey);
      if (attempt > 2) throw errors.unavailable('Credential state is changing; retry');
      return resolve(req, attempt + 1);
    }
    const headers = rateLimitHeaders(result.states, Math.floor(now() / 1000));
    if (result.outcome === 'limited') throw errors.rateLimited(result.retryAfterSec, headers);
    if (principal.apiKey) deps.onKeyUsed?.(principal.apiKey.id);
    deps.onRequest?.(principal);
    return { principal, headers, projectsVersion: result.watched[0] ?? '0' };
  }

  return {
    async authenticate(req: AccessRequest): Promise<AccessResult> {
      try {
        return await resolve(req);
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw errors.unavailable('Authentication backend unavailable');
      }
    },
    /** Per-IP / per-identifier limits for unauthenticated endpoints such as login. */
    async limitAnonymous(policies: Policy[]): Promise<Record<string, string>> {
      const result = await deps.limiter.check(policies);
      if (result.outcome === 'stale') return {};
      const headers = rateLimitHeaders(result.states, Math.floor(now() / 1000));
      if (result.outcome === 'limited') throw errors.rateLimited(result.retryAfterSec, headers);
      return headers;
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
