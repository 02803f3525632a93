import type { ApiKeysRepository } from './api-keys.repository.js';

/**
 * Collects keys seen in requests and writes `last_used_at` in one statement per interval,
 * instead of a database write per request.
 */
export function createLastUsedTracker(repo: ApiKeysRepository, intervalMs = 30_000, onError?: (err: unknown) => void) {
  const pending = new Set<string>();
  const flush = async () => {
    if (pending.size === 0) return;
    const ids = [...pending];
    pending.clear();
    try {
      await repo.touchLastUsed(ids);
    } catch (err) {
      onError?.(err);
    }
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();
  return {
    mark: (id: string) => {
      pending.add(id);
    },
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

export type LastUsedTracker = ReturnType<typeof createLastUsedTracker>;
