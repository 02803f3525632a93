import { isIP } from 'node:net';
import type { FieldIssue } from '../../lib/errors.js';
import type { ApiKeyRow } from './api-keys.types.js';
import { parseEndpointRule, type EndpointRule } from './endpoint-rules.js';

/**
 * Keys made or changed by an API key stay within that key's own bounds: expiry no later,
 * allowed_ips and allowed_endpoints within its own, rate limits no higher. Without this, a key
 * limited to one network could mint an unrestricted key and use it from anywhere.
 *
 * Containment is decided rule by rule (a child rule must fit inside one parent rule), which can
 * refuse a child that only the union of several parent rules would cover; that errs on the safe
 * side and the message says which entry to change.
 */

interface Range {
  family: 4 | 6;
  first: bigint;
  last: bigint;
}

function ipToBigint(addr: string, family: 4 | 6): bigint {
  if (family === 4) return addr.split('.').reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
  let text = addr;
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipToBigint(v4[1], 4);
    text = `${text.slice(0, -v4[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const tl = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - tl.length).fill('0'), ...tl];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

/** The address range of a validated IP or CIDR entry. */
export function ipRange(rule: string): Range | null {
  const [addr, bits] = rule.trim().split('/');
  const family = isIP(addr);
  if (family !== 4 && family !== 6) return null;
  const width = family === 4 ? 32 : 128;
  const prefix = bits === undefined ? width : Number(bits);
  const host = BigInt(width - prefix);
  const n = ipToBigint(addr, family);
  const first = (n >> host) << host;
  return { family, first, last: first + (1n << host) - 1n };
}

function ipWithin(child: string, parents: string[]): boolean {
  const c = ipRange(child);
  if (!c) return false;
  return parents.some((p) => {
    const r = ipRange(p);
    return !!r && r.family === c.family && r.first <= c.first && c.last <= r.last;
  });
}

/** Does parent rule `p` allow every request child rule `c` allows? */
export function ruleCovers(p: EndpointRule, c: EndpointRule): boolean {
  if (p.method !== null && p.method !== c.method && !(p.method === 'GET' && c.method === 'HEAD')) return false;
  const segOk = (ps: string, cs: string | undefined) => ps === '*' || (cs !== undefined && cs !== '*' && ps === cs);
  if (p.openEnded) {
    if (c.segments.length < p.segments.length) return false;
  } else if (c.openEnded || c.segments.length !== p.segments.length) {
    return false;
  }
  return p.segments.every((s, i) => segOk(s, c.segments[i]));
}

function rulesOf(list: string[]): EndpointRule[] {
  return list.map(parseEndpointRule).filter((r): r is EndpointRule => typeof r !== 'string');
}

export interface BoundedFields {
  expiresAt?: Date | null;
  allowedIps?: string[];
  allowedEndpoints?: string[];
  rateLimitPerMinute?: number | null;
  rateLimitPerDay?: number | null;
}

/**
 * Fills what `wanted` leaves out (undefined) from the parent key and lists every field that
 * would be more permissive than the parent. Only fields present in `wanted` or filled are
 * returned, so an update changes only what it names.
 */
export function boundByParent(
  parent: ApiKeyRow,
  wanted: BoundedFields,
  opts: { fill: boolean },
): { values: BoundedFields; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const values: BoundedFields = { ...wanted };

  if (parent.expires_at) {
    if (wanted.expiresAt === undefined) {
      if (opts.fill) values.expiresAt = parent.expires_at;
    } else if (wanted.expiresAt === null || wanted.expiresAt > parent.expires_at) {
      issues.push({
        field: 'expires_in_days',
        message: `must not end after the creating key expires (${parent.expires_at.toISOString()})`,
      });
    }
  }

  if (parent.allowed_ips.length > 0) {
    if (wanted.allowedIps === undefined) {
      if (opts.fill) values.allowedIps = parent.allowed_ips;
    } else if (wanted.allowedIps.length === 0) {
      issues.push({
        field: 'allowed_ips',
        message: `must not be empty: this key is itself limited to ${parent.allowed_ips.join(', ')}`,
      });
    } else {
      wanted.allowedIps.forEach((ip, i) => {
        if (!ipWithin(ip, parent.allowed_ips))
          issues.push({
            field: `allowed_ips[${i}]`,
            message: `"${ip}" is not within this key's own allowed_ips (${parent.allowed_ips.join(', ')})`,
          });
      });
    }
  }

  const parentRules = rulesOf(parent.allowed_endpoints);
  const unrestricted =
    parentRules.length === 0 || parentRules.some((r) => r.method === null && r.openEnded && r.segments.length === 0);
  if (!unrestricted) {
    if (wanted.allowedEndpoints === undefined) {
      if (opts.fill) values.allowedEndpoints = parent.allowed_endpoints;
    } else if (wanted.allowedEndpoints.length === 0) {
      issues.push({
        field: 'allowed_endpoints',
        message: `must not be empty: this key is itself limited to ${parent.allowed_endpoints.join(', ')}`,
      });
    } else {
      wanted.allowedEndpoints.forEach((raw, i) => {
        const c = parseEndpointRule(raw);
        if (typeof c === 'string' || !parentRules.some((p) => ruleCovers(p, c))) {
          issues.push({
            field: `allowed_endpoints[${i}]`,
            message: `"${raw}" allows more than this key's own allowed_endpoints (${parent.allowed_endpoints.join(', ')})`,
          });
        }
      });
    }
  }

  const limits = [
    ['rateLimitPerMinute', 'rate_limit_per_minute', parent.rate_limit_per_minute],
    ['rateLimitPerDay', 'rate_limit_per_day', parent.rate_limit_per_day],
  ] as const;
  for (const [key, field, own] of limits) {
    if (own === null) continue;
    const v = wanted[key];
    if (v === undefined) {
      if (opts.fill) values[key] = own;
    } else if (v === null || v > own) {
      issues.push({ field, message: `must be at most ${own}, this key's own limit` });
    }
  }
  return { values, issues };
}
