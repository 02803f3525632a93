import { describe, expect, it } from 'vitest';
import { compileIpRules, normaliseIp, validateIpRule } from '../../../src/modules/api-keys/ip-rules.js';

describe('validateIpRule', () => {
  it.each([
    '10.0.0.1',
    '10.0.0.0/8',
    '0.0.0.0/0',
    '192.168.1.0/24',
    '203.0.113.7/32',
    ' 10.0.0.1 ',
    '::1',
    '2001:db8::/32',
    '2001:DB8::1',
    '::/0',
    '2001:db8::1/128',
    '::ffff:10.0.0.1',
    '::ffff:10.0.0.0/104',
  ])('accepts %s', (rule) => {
    expect(validateIpRule(rule)).toBeNull();
  });

  it.each([
    ['not-an-ip', /not an IP/],
    ['10.0.0', /not an IP/],
    ['256.1.1.1', /not an IP/],
    ['10.0.0.0/33', /prefix length/],
    ['10.0.0.0/-1', /prefix length/],
    ['10.0.0.0/abc', /prefix length/],
    ['10.0.0.0/', /prefix length/],
    ['2001:db8::/129', /prefix length/],
    ['10.0.0.0/8/8', /not an IP/],
    ['', /not an IP/],
    ['example.com', /not an IP/],
  ])('rejects %s', (rule, message) => {
    expect(validateIpRule(rule)).toMatch(message);
  });
});

describe('normaliseIp', () => {
  it('strips the IPv4-mapped IPv6 form and leaves everything else alone', () => {
    expect(normaliseIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseIp('::FFFF:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseIp('10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseIp('2001:db8::1')).toBe('2001:db8::1');
  });
});

describe('compileIpRules', () => {
  it('an empty list allows every address', () => {
    expect(compileIpRules([]).allows('198.51.100.1')).toBe(true);
  });

  it('single IPv4 addresses match exactly', () => {
    const m = compileIpRules(['203.0.113.5']);
    expect(m.allows('203.0.113.5')).toBe(true);
    expect(m.allows('203.0.113.6')).toBe(false);
  });

  it('IPv4 CIDR ranges, including from an IPv4-mapped IPv6 client address', () => {
    const m = compileIpRules(['10.0.0.0/8', '192.168.1.0/24']);
    expect(m.allows('10.255.1.2')).toBe(true);
    expect(m.allows('192.168.1.77')).toBe(true);
    expect(m.allows('192.168.2.1')).toBe(false);
    expect(m.allows('11.0.0.1')).toBe(false);
    expect(m.allows('::ffff:10.1.2.3')).toBe(true);
    expect(m.allows('::ffff:11.1.2.3')).toBe(false);
  });

  it('IPv6 addresses and ranges, case and zero-compression insensitive', () => {
    const m = compileIpRules(['2001:db8::/32', '::1', 'FE80::ABCD']);
    expect(m.allows('2001:db8:1:2::3')).toBe(true);
    expect(m.allows('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(m.allows('2001:db9::1')).toBe(false);
    expect(m.allows('::1')).toBe(true);
    expect(m.allows('fe80::abcd')).toBe(true);
    expect(m.allows('10.0.0.1')).toBe(false);
  });

  it('a rule written in IPv4-mapped form matches the plain IPv4 client and vice versa', () => {
    expect(compileIpRules(['::ffff:192.0.2.7']).allows('192.0.2.7')).toBe(true);
    expect(compileIpRules(['::ffff:192.0.2.7']).allows('192.0.2.8')).toBe(false);
    expect(compileIpRules(['192.0.2.7']).allows('::ffff:192.0.2.7')).toBe(true);
  });

  it('an IPv4-mapped IPv6 CIDR covers the matching IPv4 range', () => {
    const m = compileIpRules(['::ffff:10.0.0.0/104']);
    expect(m.allows('10.9.8.7')).toBe(true);
    expect(m.allows('::ffff:10.9.8.7')).toBe(true);
    expect(m.allows('11.0.0.1')).toBe(false);
  });

  it('garbage client addresses are refused, not allowed', () => {
    const m = compileIpRules(['0.0.0.0/0']);
    expect(m.allows('')).toBe(false);
    expect(m.allows('unknown')).toBe(false);
    expect(m.allows('1.2.3.4')).toBe(true);
  });
});
