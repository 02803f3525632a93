import { BlockList, isIP } from 'node:net';

/** Strips the IPv4-mapped IPv6 form so `::ffff:10.0.0.1` matches a rule for `10.0.0.1`. */
export function normaliseIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1] : ip;
}

/** Returns the problem with an entry, or null when it is a valid IP or CIDR. */
export function validateIpRule(rule: string): string | null {
  const [addr, bits, extra] = rule.trim().split('/');
  if (extra !== undefined) return 'is not an IP address or CIDR';
  // The rule's own family bounds its prefix: `::ffff:10.0.0.0/104` is a valid IPv6 CIDR.
  const family = isIP(addr);
  if (!family) return 'is not an IP address or CIDR';
  if (bits === undefined) return null;
  if (!/^\d+$/.test(bits)) return 'has an invalid prefix length';
  const n = Number(bits);
  if (n < 0 || n > (family === 4 ? 32 : 128)) return 'has an invalid prefix length';
  return null;
}

export interface IpMatcher {
  allows(ip: string): boolean;
}

/** An empty rule list allows every address. */
export function compileIpRules(rules: string[]): IpMatcher {
  if (rules.length === 0) return { allows: () => true };
  const list = new BlockList();
  for (const raw of rules) {
    // Rules keep the form they were written in: BlockList matches IPv4-mapped IPv6 rules
    // against IPv4 clients itself, and normalising would break mapped CIDRs such as /104.
    const [addr, bits] = raw.trim().split('/');
    const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr, family);
    else list.addSubnet(addr, Number(bits), family);
  }
  return {
    allows(ip) {
      const addr = normaliseIp(ip);
      const family = isIP(addr);
      if (!family) return false;
      return list.check(addr, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
