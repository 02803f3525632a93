// DNS resolution performed inside the socket connector. Checking the addresses here — the same
// answer the socket then connects to — is what defeats DNS rebinding: there is no second lookup
// between "validated" and "connected".
import { promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AllowList } from './allow-list.js';
import { isForbiddenAddress } from './ip-policy.js';

/** Resolves a hostname to every address it has. Injectable so tests never need real DNS. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The system resolver (getaddrinfo, honours /etc/hosts), all addresses in resolver order. */
export const systemResolver: Resolver = (hostname) => dnsPromises.lookup(hostname, { all: true, verbatim: true });

/** Raised when every candidate address of a destination is forbidden by the SSRF policy. */
export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_FORBIDDEN_ADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenAddressError';
  }
}

/** Raised when name resolution fails (NXDOMAIN, resolver timeout, no addresses). */
export class DnsLookupError extends Error {
  readonly code = 'ERR_DNS_LOOKUP';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DnsLookupError';
  }
}

/** Whether a connection to `address`, reached through `hostname`, is permitted. */
export function checkDestination(
  address: string,
  hostname: string,
  allow: AllowList,
): { ok: true } | { ok: false; reason: string } {
  if (allow.allowsHost(hostname) || allow.allowsAddress(address)) return { ok: true };
  const verdict = isForbiddenAddress(address);
  return verdict.forbidden ? { ok: false, reason: verdict.reason ?? 'forbidden' } : { ok: true };
}

/**
 * A `lookup` for `net.connect` that resolves with `resolver` and keeps only permitted addresses.
 * Forbidden answers are dropped rather than failing the whole name, so a dual-stack `localhost`
 * still works when only `127.0.0.1` is allow-listed; if nothing permitted remains the connection
 * fails with {@link ForbiddenAddressError} and no packet is sent.
 */
export function createGuardedLookup(allow: AllowList, resolver: Resolver): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    void resolver(hostname).then(
      (answers) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const candidates = answers.filter((a) => wanted === 0 || a.family === wanted);
        if (candidates.length === 0) {
          callback(new DnsLookupError(`no addresses found for ${hostname}`), '', 0);
          return;
        }
        const permitted: LookupAddress[] = [];
        const refused: string[] = [];
        for (const a of candidates) {
          const check = checkDestination(a.address, hostname, allow);
          if (check.ok) permitted.push({ address: a.address, family: a.family });
          else refused.push(`${a.address} (${check.reason})`);
        }
        if (permitted.length === 0) {
          callback(
            new ForbiddenAddressError(`${hostname} resolves only to forbidden addresses: ${refused.join(', ')}`),
            '',
            0,
          );
          return;
        }
        if (options.all) callback(null, permitted);
        else callback(null, permitted[0].address, permitted[0].family);
      },
      (err: unknown) => {
        const detail = err instanceof Error ? err.message : String(err);
        callback(new DnsLookupError(`cannot resolve ${hostname}: ${detail}`, { cause: err }), '', 0);
      },
    );
  };
}
