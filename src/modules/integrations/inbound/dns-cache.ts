// A small cache in front of the DNS lookups of sender authentication. Node's resolver caches
// nothing, and every message asks again for its sender domain's SPF and DMARC records. Under
// load those two lookups took about 24 ms each, the largest share of the time before 250 was
// answered (inbound bench: 52 of 148 ms per message), although the same few supplier domains
// send most of the mail. Answers are kept for a short fixed time, bounded in entries.
// "No such name" and "no records" answers are kept too, because the usual answer for a small
// sender is "no DMARC record". Failures such as a timeout or SERVFAIL are never kept, so the
// next message asks again. Lookups already in flight are shared.
import type { DnsResolver } from './authentication.js';

export interface DnsCacheOptions {
  /** How long an answer (or a "no such name") is reused, ms. Default 60 s, below the TTLs of SPF and DMARC records in practice. */
  ttlMs?: number;
  /** Most names kept; the oldest is dropped first. Default 2,000. */
  maxEntries?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** Codes of a definite negative answer (the name or the record type does not exist). */
const NEGATIVE = new Set(['ENOTFOUND', 'ENODATA']);

type Entry = { expires: number; value: ReturnType<DnsResolver> };

export function cachingResolver(base: DnsResolver, opts: DnsCacheOptions = {}): DnsResolver {
  const ttl = opts.ttlMs ?? 60_000;
  const max = opts.maxEntries ?? 2_000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.value;
    if (hit) entries.delete(key);
    const value = base(name, rrtype);
    const entry: Entry = { expires: now() + ttl, value };
    entries.set(key, entry);
    value.catch((err: unknown) => {
      // Only a definite "no" is worth keeping; anything else is asked again next time.
      if (!NEGATIVE.has((err as { code?: string }).code ?? '') && entries.get(key) === entry) entries.delete(key);
    });
    while (entries.size > max) entries.delete(entries.keys().next().value!);
    return value;
  };
}
