// SSRF policy for IMAP hosts: private, loopback, link-local and other special addresses are
// refused unless the operator lists the host (or its address/CIDR) in MAIL_ALLOWED_HOSTS.
// Checked when settings are saved (so the user hears about it at once) and again on every
// connect against the address actually dialled (DNS may change in between).
import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isForbiddenAddress, type AllowList } from '../../../lib/http-client/index.js';
import { normaliseHost } from '../../../lib/http-client/allow-list.js';
import type { ResolvedAddress } from './imap/index.js';

export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemHostLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((r) => ({
    address: r.address,
    family: r.family === 6 ? 6 : 4,
  }));

export interface HostPolicy {
  /** For openMailbox/testConnection: may this resolved address be dialled for `host`? */
  addressAllowed(host: string): (addr: ResolvedAddress) => boolean;
  /** Save-time check; returns why the host is refused, or null. Never throws. */
  check(host: string): Promise<string | null>;
}

export function createHostPolicy(
  allow: AllowList,
  opts: { lookup?: HostLookup; lookupTimeoutMs?: number } = {},
): HostPolicy {
  const lookup = opts.lookup ?? systemHostLookup;
  const timeoutMs = opts.lookupTimeoutMs ?? 3_000;
  const verdict = (host: string, address: string): string | null => {
    if (allow.allowsHost(host) || allow.allowsAddress(address)) return null;
    const v = isForbiddenAddress(address);
    return v.forbidden ? `${address} is a ${v.reason ?? 'reserved address'}` : null;
  };
  return {
    addressAllowed(host) {
      return (addr) => verdict(normaliseHost(host), addr.address) === null;
    },
    async check(raw) {
      const host = normaliseHost(raw);
      if (allow.allowsHost(host)) return null;
      const hint = 'unless the operator lists it in MAIL_ALLOWED_HOSTS';
      if (isIP(host)) {
        const why = verdict(host, host);
        return why ? `points to a forbidden address (${why}) ${hint}` : null;
      }
      if (host === 'localhost' || host.endsWith('.localhost')) return `points to the local machine (localhost) ${hint}`;
      // A name that does not resolve from here is accepted: the test endpoint and the poller
      // report DNS problems with their exact cause.
      let addrs: ResolvedAddress[];
      let timer: NodeJS.Timeout | undefined;
      try {
        addrs = await Promise.race([
          lookup(host),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
          }),
        ]);
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
      }
      if (addrs.length === 0) return null;
      const reasons = addrs.map((a) => verdict(host, a.address));
      if (reasons.every((r) => r !== null))
        return `resolves only to forbidden addresses (${reasons.join('; ')}) ${hint}`;
      return null;
    },
  };
}
