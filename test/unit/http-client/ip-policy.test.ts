import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isForbiddenAddress } from '../../../src/lib/http-client/ip-policy.js';
import { createAllowList, parseAllowList } from '../../../src/lib/http-client/allow-list.js';
import { parseIp } from '../../../src/lib/http-client/ip-parse.js';

// Policy function only: nothing here opens a connection.
describe('isForbiddenAddress', () => {
  const forbidden: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /carrier-grade/],
    ['100.127.255.255', /carrier-grade/],
    ['0.0.0.0', /this network/],
    ['0.1.2.3', /this network/],
    ['255.255.255.255', /broadcast/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['192.0.2.10', /documentation/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.99', /documentation/],
    ['198.18.0.1', /benchmarking/],
    ['198.19.255.255', /benchmarking/],
    ['192.0.0.8', /IETF/],
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['0:0:0:0:0:0:0:1', /loopback/],
    ['[::1]', /loopback/],
    ['::ffff:127.0.0.1', /IPv4-mapped 127\.0\.0\.1: loopback/],
    ['::ffff:7f00:1', /IPv4-mapped 127\.0\.0\.1: loopback/],
    ['::FFFF:A9FE:A9FE', /IPv4-mapped 169\.254\.169\.254/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:0:7f00:1', /IPv4-translated 127\.0\.0\.1/],
    ['::127.0.0.1', /IPv4-compatible/],
    ['::8.8.8.8', /IPv4-compatible/],
    ['64:ff9b::7f00:1', /NAT64 127\.0\.0\.1: loopback/],
    ['64:ff9b::192.168.0.1', /NAT64 192\.168\.0\.1: private/],
    ['64:ff9b:1::1', /local-use NAT64/],
    ['2002:7f00:1::1', /6to4 127\.0\.0\.1/],
    ['2002:a00:1::', /6to4 10\.0\.0\.1/],
    ['fe80::1', /link-local/],
    ['febf:ffff::1', /link-local/],
    ['fe80::1%eth0', /zone/],
    ['fc00::1', /unique-local/],
    ['fd12:3456::1', /unique-local/],
    ['fec0::1', /site-local/],
    ['ff02::1', /multicast/],
    ['2001:db8::1', /documentation/],
    ['3fff::1', /documentation/],
    ['2001::1', /Teredo/],
    ['2001:2::1', /benchmarking/],
    ['100::1', /discard/],
    ['4000::1', /reserved IPv6/],
    ['::2', /IPv4-compatible/],
  ];
  it.each(forbidden)('forbids %s', (ip, reason) => {
    const v = isForbiddenAddress(ip);
    expect(v.forbidden).toBe(true);
    expect(v.reason).toMatch(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81a::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('allows public %s', (ip) => expect(isForbiddenAddress(ip)).toEqual({ forbidden: false }));

  it.each([
    'localhost',
    '',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
    '010.0.0.1',
    '256.1.1.1',
    '1.2.3.4.5',
    ':::1',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    'example.com',
  ])('fails closed on non-literal %j', (s) => {
    const v = isForbiddenAddress(s);
    expect(v.forbidden).toBe(true);
    expect(v.reason).toMatch(/not an IP/);
  });

  it('parses IPv6 exactly like node for a spread of spellings', () => {
    const samples = [
      '::',
      '::1',
      '1::',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7::',
      '::2:3:4:5:6:7:8',
      '1::8',
      '::ffff:1.2.3.4',
      '1:2:3:4:5:6:1.2.3.4',
      'abcd:ef01::',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::',
      ':1::',
      '1:',
      '::1.2.3',
      '::1.2.3.4.5',
      'g::1',
      '1:2:3:4:5:6:7:1.2.3.4',
    ];
    for (const s of samples) expect(parseIp(s) !== null, s).toBe(isIP(s) === 6);
  });
});

describe('createAllowList', () => {
  const allow = createAllowList([
    '127.0.0.1',
    'localhost',
    '10.0.0.0/8',
    ' ',
    'fd00::/8',
    '*.corp.example',
    'Hooks.Internal.',
  ]);

  it('matches addresses by IP and CIDR, including the IPv4-mapped spelling', () => {
    expect(allow.allowsAddress('127.0.0.1')).toBe(true);
    expect(allow.allowsAddress('::ffff:127.0.0.1')).toBe(true);
    expect(allow.allowsAddress('127.0.0.2')).toBe(false);
    expect(allow.allowsAddress('10.200.3.4')).toBe(true);
    expect(allow.allowsAddress('11.0.0.1')).toBe(false);
    expect(allow.allowsAddress('fd00::5')).toBe(true);
    expect(allow.allowsAddress('fc00::5')).toBe(false);
    expect(allow.allowsAddress('::1')).toBe(false);
    expect(allow.allowsAddress('localhost')).toBe(false);
  });

  it('matches hostnames exactly or by *. suffix, case- and trailing-dot-insensitive', () => {
    expect(allow.allowsHost('localhost')).toBe(true);
    expect(allow.allowsHost('LOCALHOST.')).toBe(true);
    expect(allow.allowsHost('hooks.internal')).toBe(true);
    expect(allow.allowsHost('a.corp.example')).toBe(true);
    expect(allow.allowsHost('corp.example')).toBe(false);
    expect(allow.allowsHost('evilcorp.example')).toBe(false);
    expect(allow.allowsHost('localhost.evil.test')).toBe(false);
  });

  it('rejects malformed entries loudly', () => {
    expect(() => createAllowList(['10.0.0.0/33'])).toThrow(/prefix length/);
    expect(() => createAllowList(['300.1.1.1'])).toThrow(/not an IP/);
    expect(() => createAllowList(['http://x'])).toThrow(/invalid allow-list entry/);
  });

  it('parses an operator setting and gives equal lists the same key', () => {
    const a = parseAllowList('127.0.0.1, localhost 10.0.0.0/8');
    expect(a.entries).toEqual(['127.0.0.1', 'localhost', '10.0.0.0/8']);
    expect(a.key).toBe(parseAllowList('10.0.0.0/8,localhost,127.0.0.1').key);
    expect(a.key).not.toBe(parseAllowList('').key);
    expect(parseAllowList(undefined).entries).toEqual([]);
  });
});
