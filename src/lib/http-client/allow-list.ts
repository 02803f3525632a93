// Operator exceptions to the SSRF policy, e.g. "127.0.0.1,localhost,10.0.0.0/8".
import { mapIPv4, matchesPrefix, parseIp, unmapIPv4, type ParsedIp } from './ip-parse.js';

/**
 * A parsed operator allow-list. Address entries (IPs, CIDRs) open those destinations whatever
 * name led to them; hostname entries (`localhost`, `hooks.internal`, `*.corp.example`) open every
 * address that name resolves to — the operator is trusting that name's DNS.
 */
export interface AllowList {
  /** Canonical identity of the list; pooled connections are never shared between lists. */
  readonly key: string;
  readonly entries: readonly string[];
  /** True when the hostname (from the URL) is listed, exactly or by a `*.` suffix entry. */
  allowsHost(hostname: string): boolean;
  /** True when the address is inside a listed IP or CIDR (IPv4-mapped IPv6 matches IPv4 entries). */
  allowsAddress(ip: string): boolean;
}

interface Cidr {
  bytes: Uint8Array;
  bits: number;
}

const HOSTNAME = /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** Lower-cases, strips brackets and one trailing dot so `Example.COM.` matches `example.com`. */
export function normaliseHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

function parseCidr(entry: string): Cidr {
  const slash = entry.indexOf('/');
  const ipText = slash === -1 ? entry : entry.slice(0, slash);
  const ip = parseIp(ipText);
  if (!ip || ip.zone !== undefined) throw new Error(`invalid allow-list entry "${entry}": not an IP address`);
  const max = ip.family === 4 ? 32 : 128;
  if (slash === -1) return { bytes: ip.bytes, bits: max };
  const bitsText = entry.slice(slash + 1);
  const bits = Number(bitsText);
  if (!/^\d{1,3}$/.test(bitsText) || bits > max) {
    throw new Error(`invalid allow-list entry "${entry}": prefix length must be 0..${max}`);
  }
  return { bytes: ip.bytes, bits };
}

/** Both spellings of an address that reach the same socket: v4 and its ::ffff: mapped form. */
function variants(ip: ParsedIp): Uint8Array[] {
  if (ip.family === 4) return [ip.bytes, mapIPv4(ip.bytes)];
  const inner = unmapIPv4(ip.bytes);
  return inner ? [ip.bytes, inner] : [ip.bytes];
}

/**
 * Builds an allow-list from entries that are hostnames, IP addresses or CIDRs. Blank entries
 * are ignored; anything else that is not recognisable throws (a typo must not silently open or
 * close access).
 */
export function createAllowList(entries: readonly string[]): AllowList {
  const cidrs: Cidr[] = [];
  const exactHosts = new Set<string>();
  const suffixes: string[] = [];
  const kept: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const host = normaliseHost(entry);
    if (/^[\d.]+(\/\d+)?$/.test(host) || host.includes(':')) {
      cidrs.push(parseCidr(host));
    } else if (HOSTNAME.test(host)) {
      if (host.startsWith('*.')) suffixes.push(host.slice(1));
      else exactHosts.add(host);
    } else {
      throw new Error(`invalid allow-list entry "${entry}": expected a hostname, IP address or CIDR`);
    }
    kept.push(host);
  }
  const key = [...new Set(kept)].sort().join(',');
  return {
    key,
    entries: Object.freeze([...kept]),
    allowsHost(hostname: string): boolean {
      const h = normaliseHost(hostname);
      if (exactHosts.has(h)) return true;
      return suffixes.some((s) => h.endsWith(s) && h.length > s.length);
    },
    allowsAddress(ip: string): boolean {
      const parsed = parseIp(normaliseHost(ip));
      if (!parsed || parsed.zone !== undefined) return false;
      const forms = variants(parsed);
      return cidrs.some((c) => forms.some((f) => matchesPrefix(f, c.bytes, c.bits)));
    },
  };
}

/** Splits an operator setting such as `"127.0.0.1, localhost 10.0.0.0/8"` (commas or spaces). */
export function parseAllowList(spec: string | undefined): AllowList {
  return createAllowList((spec ?? '').split(/[\s,]+/));
}
