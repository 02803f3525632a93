// Which destination addresses outbound HTTP (webhooks, workflow HTTP nodes) may never reach
// unless the operator allow-lists them. The tables follow the IANA special-purpose registries;
// IPv6 additionally has to be looked through, because several IPv6 forms carry an IPv4
// destination (mapped, NAT64, 6to4) and must be judged by that IPv4 address.
import { formatIPv4, matchesPrefix, parseIp, parseIPv4, parseIPv6 } from './ip-parse.js';

export { createAllowList, parseAllowList, type AllowList } from './allow-list.js';

/** Verdict of {@link isForbiddenAddress}; `reason` is set when forbidden. */
export interface AddressVerdict {
  forbidden: boolean;
  reason?: string;
}

interface Range {
  bytes: Uint8Array;
  bits: number;
  reason: string;
}

function v4(cidr: string, reason: string): Range {
  const [ip, bits] = cidr.split('/');
  return { bytes: parseIPv4(ip) as Uint8Array, bits: Number(bits), reason };
}

function v6(cidr: string, reason: string): Range {
  const [ip, bits] = cidr.split('/');
  return { bytes: (parseIPv6(ip) as { bytes: Uint8Array }).bytes, bits: Number(bits), reason };
}

// Immutable lookup tables (data, not state). Order matters only for which reason is reported.
const V4_RANGES: readonly Range[] = [
  v4('255.255.255.255/32', 'limited broadcast'),
  v4('0.0.0.0/8', '"this network" (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'private network (RFC 1918)'),
  v4('100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local (incl. cloud metadata)'),
  v4('172.16.0.0/12', 'private network (RFC 1918)'),
  v4('192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'),
  v4('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  v4('192.88.99.0/24', 'deprecated 6to4 relay anycast'),
  v4('192.168.0.0/16', 'private network (RFC 1918)'),
  v4('198.18.0.0/15', 'benchmarking (198.18.0.0/15)'),
  v4('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  v4('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved (240.0.0.0/4)'),
];

const V6_RANGES: readonly Range[] = [
  v6('::/128', 'unspecified address (::)'),
  v6('::1/128', 'loopback (::1)'),
  v6('64:ff9b:1::/48', 'local-use NAT64 (64:ff9b:1::/48)'),
  v6('100::/64', 'discard-only (100::/64)'),
  v6('2001::/32', 'Teredo tunnel (2001::/32)'),
  v6('2001:2::/48', 'benchmarking (2001:2::/48)'),
  v6('2001:10::/28', 'ORCHID (2001:10::/28)'),
  v6('2001:20::/28', 'ORCHIDv2 (2001:20::/28)'),
  v6('2001:db8::/32', 'documentation (2001:db8::/32)'),
  v6('3fff::/20', 'documentation (3fff::/20)'),
  v6('fc00::/7', 'unique-local (fc00::/7)'),
  v6('fe80::/10', 'link-local (fe80::/10)'),
  v6('fec0::/10', 'deprecated site-local (fec0::/10)'),
  v6('ff00::/8', 'multicast'),
];

// IPv6 prefixes whose low 32 bits (or, for 6to4, bits 16..47) are an IPv4 destination.
const EMBEDDED_V4: readonly { range: Range; offset: number }[] = [
  { range: v6('::ffff:0:0/96', 'IPv4-mapped'), offset: 12 },
  { range: v6('::ffff:0:0:0/96', 'IPv4-translated'), offset: 12 },
  { range: v6('64:ff9b::/96', 'NAT64'), offset: 12 },
  { range: v6('2002::/16', '6to4'), offset: 2 },
];
const V4_COMPATIBLE = v6('::/96', 'IPv4-compatible');
const GLOBAL_UNICAST = v6('2000::/3', 'global unicast');

function checkV4(bytes: Uint8Array): AddressVerdict {
  for (const r of V4_RANGES) {
    if (matchesPrefix(bytes, r.bytes, r.bits)) return { forbidden: true, reason: r.reason };
  }
  return { forbidden: false };
}

function checkV6(bytes: Uint8Array): AddressVerdict {
  // Exact specials first so "::" and "::1" are not reported as IPv4-compatible.
  for (const r of V6_RANGES.slice(0, 2)) {
    if (matchesPrefix(bytes, r.bytes, r.bits)) return { forbidden: true, reason: r.reason };
  }
  for (const { range, offset } of EMBEDDED_V4) {
    if (!matchesPrefix(bytes, range.bytes, range.bits)) continue;
    const inner = bytes.slice(offset, offset + 4);
    const verdict = checkV4(inner);
    if (!verdict.forbidden) return verdict;
    return { forbidden: true, reason: `${range.reason} ${formatIPv4(inner)}: ${verdict.reason}` };
  }
  if (matchesPrefix(bytes, V4_COMPATIBLE.bytes, V4_COMPATIBLE.bits)) {
    // Deprecated (RFC 4291) and routed unpredictably by kernels: never a legitimate target.
    return {
      forbidden: true,
      reason: `deprecated IPv4-compatible address (embeds ${formatIPv4(bytes.slice(12))})`,
    };
  }
  for (const r of V6_RANGES) {
    if (matchesPrefix(bytes, r.bytes, r.bits)) return { forbidden: true, reason: r.reason };
  }
  // Everything outside 2000::/3 is unallocated or special-purpose today.
  if (!matchesPrefix(bytes, GLOBAL_UNICAST.bytes, GLOBAL_UNICAST.bits)) {
    return { forbidden: true, reason: 'reserved IPv6 space (outside 2000::/3)' };
  }
  return { forbidden: false };
}

/**
 * Decides whether an IP literal is off limits for outbound requests (SSRF policy).
 * Anything that is not a strict IPv4 dotted quad or IPv6 literal is forbidden (fail closed);
 * IPv6 literals with a zone id are forbidden because they only make sense on a local link.
 */
export function isForbiddenAddress(ip: string): AddressVerdict {
  const parsed = parseIp(ip);
  if (!parsed) return { forbidden: true, reason: 'not an IP address literal' };
  if (parsed.family === 4) return checkV4(parsed.bytes);
  if (parsed.zone !== undefined) return { forbidden: true, reason: 'scoped IPv6 address (zone id)' };
  return checkV6(parsed.bytes);
}
