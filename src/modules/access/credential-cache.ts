import type { CachedCredential } from './principal.js';

/**
 * Small in-process cache with a TTL and an insertion-order bound. Freshness does not depend on
 * the TTL (stamps catch every change); the TTL only bounds memory for idle credentials.
 */
export class CredentialCache {
  private readonly map = new Map<string, CachedCredential>();
  constructor(
    private readonly ttlMs = 60_000,
    private readonly max = 10_000,
  ) {}

  get(key: string, now = Date.now()): CachedCredential | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (now - hit.loadedAt > this.ttlMs) {
      this.map.delete(key);
      return undefined;
    }
    return hit;
  }

  set(key: string, value: CachedCredential): void {
    if (this.map.size >= this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    this.map.set(key, value);
  }

  delete(key: string): void {
    this.map.delete(key);
  }
}
