import type { Scope } from '../../lib/scope.js';
import type { presentProject } from './projects.types.js';

/** One list page as the API presents it. */
export interface ProjectListPage {
  items: ReturnType<typeof presentProject>[];
  total: number;
}

/**
 * Project list pages kept per process, per organization and environment, under the value of a
 * Redis version counter. Every project write bumps the counter after it commits; every
 * authenticated request reads the counter in the same Redis round trip as its rate-limit check
 * (no extra cost), so a page is served from here only while nothing in that scope changed,
 * in any process. `maxAgeMs` bounds staleness should a bump ever be lost (Redis down right
 * after a commit).
 */
export interface ProjectListCache {
  get(scope: Scope, version: string, queryKey: string): ProjectListPage | undefined;
  set(scope: Scope, version: string, queryKey: string, page: ProjectListPage): void;
}

export function createProjectListCache(
  opts: { maxScopes?: number; maxPagesPerScope?: number; maxAgeMs?: number; now?: () => number } = {},
): ProjectListCache {
  const maxScopes = opts.maxScopes ?? 1000;
  const maxPages = opts.maxPagesPerScope ?? 50;
  const maxAgeMs = opts.maxAgeMs ?? 30_000;
  const now = opts.now ?? Date.now;
  const scopes = new Map<string, { version: string; pages: Map<string, { at: number; page: ProjectListPage }> }>();
  const scopeKey = (s: Scope) => `${s.orgId}:${s.environment}`;

  return {
    get(scope, version, queryKey) {
      const entry = scopes.get(scopeKey(scope));
      if (!entry || entry.version !== version) return undefined;
      const hit = entry.pages.get(queryKey);
      if (!hit || now() - hit.at > maxAgeMs) return undefined;
      return hit.page;
    },
    set(scope, version, queryKey, page) {
      const k = scopeKey(scope);
      let entry = scopes.get(k);
      if (!entry || entry.version !== version) {
        entry = { version, pages: new Map() };
        scopes.delete(k);
        if (scopes.size >= maxScopes) scopes.delete(scopes.keys().next().value as string);
        scopes.set(k, entry);
      }
      if (entry.pages.size >= maxPages) entry.pages.delete(entry.pages.keys().next().value as string);
      entry.pages.set(queryKey, { at: now(), page });
    },
  };
}
