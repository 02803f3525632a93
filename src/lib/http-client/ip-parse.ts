// Strict IP literal parsing into raw bytes. Hand-written rather than delegated to net.isIP so the
// policy code can look inside IPv6 addresses (embedded IPv4) and match arbitrary prefixes.

/** A parsed IP address: 4 bytes (IPv4) or 16 bytes (IPv6), network order. */
export interface ParsedIp {
  family: 4 | 6;
  bytes: Uint8Array;
  /** IPv6 zone identifier (`fe80::1%eth0` → `eth0`), when one was given. */
  zone?: string;
}

const V4_PART = /^(0|[1-9]\d{0,2})$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

/**
 * Parses a dotted-quad IPv4 address. Leading zeros, short forms (`127.1`) and hex/octal parts are
 * rejected: they mean different things to different parsers, and the policy must fail closed.
 */
export function parseIPv4(input: string): Uint8Array | null {
  const parts = input.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i];
    if (!V4_PART.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

function parseHextets(list: string): number[] | null {
  if (list === '') return [];
  const out: number[] = [];
  for (const part of list.split(':')) {
    if (!HEXTET.test(part)) return null;
    out.push(parseInt(part, 16));
  }
  return out;
}

/** Parses an IPv6 address (optionally bracketed, optionally with a `%zone`). */
export function parseIPv6(input: string): { bytes: Uint8Array; zone?: string } | null {
  let s = input;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  let zone: string | undefined;
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') return null;
  }
  // A trailing dotted quad stands for the last two hextets.
  let tailV4: Uint8Array | null = null;
  const lastColon = s.lastIndexOf(':');
  if (lastColon === -1) return null;
  if (s.indexOf('.', lastColon) !== -1) {
    tailV4 = parseIPv4(s.slice(lastColon + 1));
    if (!tailV4) return null;
    // Keep the colon so "::1.2.3.4" still splits around "::".
    s = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  let groups: number[];
  if (halves.length === 2) {
    const head = parseHextets(halves[0]);
    const tail = parseHextets(halves[1]);
    if (!head || !tail) return null;
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    const all = parseHextets(s);
    if (!all || all.length !== 8) return null;
    groups = all;
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tailV4) bytes.set(tailV4, 12);
  return zone === undefined ? { bytes } : { bytes, zone };
}

/** Parses either family; `null` when the input is not an IP literal. */
export function parseIp(input: string): ParsedIp | null {
  const s = input.trim();
  if (s.includes(':')) {
    const v6 = parseIPv6(s);
    return v6 ? { family: 6, ...v6 } : null;
  }
  const v4 = parseIPv4(s);
  return v4 ? { family: 4, bytes: v4 } : null;
}

/** True when the first `bits` bits of `addr` equal those of `prefix` (same length arrays). */
export function matchesPrefix(addr: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  if (addr.length !== prefix.length) return false;
  const whole = Math.floor(bits / 8);
  for (let i = 0; i < whole; i++) if (addr[i] !== prefix[i]) return false;
  const rest = bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (addr[whole] & mask) === (prefix[whole] & mask);
}

export function formatIPv4(bytes: Uint8Array): string {
  return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
}

/** Plain (uncompressed) IPv6 text; used in messages only. */
export function formatIPv6(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

/** `::ffff:a.b.c.d` (IPv4-mapped) → the IPv4 bytes; otherwise null. Same socket destination. */
export function unmapIPv4(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length !== 16) return null;
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return null;
  if (bytes[10] !== 0xff || bytes[11] !== 0xff) return null;
  return bytes.slice(12);
}

/** The IPv4-mapped IPv6 form of an IPv4 address. */
export function mapIPv4(v4: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  out.set(v4, 12);
  return out;
}
