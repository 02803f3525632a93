import { describe, expect, it } from 'vitest';
import { ipRange, ruleCovers } from '../../../src/modules/api-keys/key-bounds.js';
import { parseEndpointRule, type EndpointRule } from '../../../src/modules/api-keys/endpoint-rules.js';

const rule = (raw: string) => parseEndpointRule(raw) as EndpointRule;

describe('key bounds: address ranges', () => {
  it.each([
    ['10.1.0.0/16', 4, 0x0a010000n, 0x0a01ffffn],
    ['10.1.2.3', 4, 0x0a010203n, 0x0a010203n],
    ['10.1.2.3/8', 4, 0x0a000000n, 0x0affffffn],
    ['0.0.0.0/0', 4, 0n, 0xffffffffn],
    ['2001:db8::/32', 6, 0x20010db8n << 96n, ((0x20010db8n + 1n) << 96n) - 1n],
    ['::1', 6, 1n, 1n],
    ['::ffff:10.0.0.1', 6, (0xffffn << 32n) | 0x0a000001n, (0xffffn << 32n) | 0x0a000001n],
    ['fe80::1:2', 6, (0xfe80n << 112n) | (1n << 16n) | 2n, (0xfe80n << 112n) | (1n << 16n) | 2n],
  ])('%s', (raw, family, first, last) => {
    expect(ipRange(raw)).toEqual({ family, first, last });
  });
});

describe('key bounds: endpoint rule containment', () => {
  it.each([
    ['*', 'DELETE /projects/*', true],
    ['/projects/*', 'GET /projects/*/stats', true],
    ['/projects/*', '/projects', true],
    ['GET /projects/*', 'HEAD /projects/prj_1', true],
    ['GET /projects/*', '/projects/prj_1', false],
    ['GET /projects/*/stats', 'GET /projects/prj_1/stats', true],
    ['GET /projects/prj_1/stats', 'GET /projects/*/stats', false],
    ['GET /projects', 'GET /projects/*', false],
    ['POST /documents', 'POST /documents', true],
    ['GET /projects/*', 'GET *', false],
  ])('%s covers %s: %s', (p, c, expected) => {
    expect(ruleCovers(rule(p), rule(c))).toBe(expected);
  });
});
