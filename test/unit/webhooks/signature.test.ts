import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildSignatureHeaders,
  generateWebhookSecret,
  signSeed,
  signStandard,
  verifyWebhookSignature,
} from '../../../src/modules/webhooks/signature.js';
import { createAllowList } from '../../../src/lib/http-client/allow-list.js';
import { safePost } from '../../../src/lib/http-client/safe-fetch.js';
import { startWebhookSink } from '../../helpers/webhook-sink.js';

const now = new Date('2026-11-02T10:00:00Z');
const body = JSON.stringify({
  id: 'evt_1',
  type: 'document.processed',
  createdAt: now.toISOString(),
  data: { filename: 'ü.pdf' },
});

describe('signing primitives', () => {
  it('matches the Standard Webhooks known-answer vector', () => {
    expect(
      signStandard(
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    // Buffer bodies sign the same bytes.
    expect(
      signStandard(
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        Buffer.from('{"test": 2432232314}'),
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs the seed way: hex HMAC of the raw body keyed with the secret string', () => {
    const expected = createHmac('sha256', 'whsec_abc').update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signSeed(body, 'whsec_abc')).toBe(expected);
    expect(signSeed(body, 'whsec_abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});

describe('buildSignatureHeaders + verifyWebhookSignature', () => {
  const secret = generateWebhookSecret();
  const headers = buildSignatureHeaders({
    eventId: 'evt_1',
    eventType: 'document.processed',
    rawBody: body,
    secrets: [secret],
    now,
  });

  it('emits the seed and Standard Webhooks headers', () => {
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'X-Service-Signature': `sha256=${signSeed(body, secret)}`,
      'X-Service-Event-Id': 'evt_1',
      'X-Service-Event-Type': 'document.processed',
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(now.getTime() / 1000),
      'webhook-signature': signStandard('evt_1', now.getTime() / 1000, body, secret),
    });
  });

  it('verifies the full header set, case-insensitively', () => {
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhookSignature(body, headers, secret, { now })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), upper, secret, { now })).toBe(true);
  });

  it('accepts both seed header forms and comma-separated values', () => {
    const hex = signSeed(body, secret);
    expect(verifyWebhookSignature(body, { 'x-service-signature': `sha256=${hex}` }, secret)).toBe(true);
    expect(verifyWebhookSignature(body, { 'X-Service-Signature': hex }, secret)).toBe(true);
    expect(verifyWebhookSignature(body, { 'x-service-signature': hex.toUpperCase() }, secret)).toBe(true);
    expect(
      verifyWebhookSignature(body, { 'x-service-signature': `sha256=${'0'.repeat(64)}, sha256=${hex}` }, secret),
    ).toBe(true);
    expect(verifyWebhookSignature(body, { 'x-service-signature': ['sha256=abc', hex] }, secret)).toBe(true);
    expect(verifyWebhookSignature(body, { 'x-service-signature': hex.slice(0, 63) }, secret)).toBe(false);
    expect(verifyWebhookSignature(body, {}, secret)).toBe(false);
  });

  it('fails on a one-byte body change, either scheme', () => {
    const tampered = body.replace('evt_1', 'evt_2');
    expect(tampered).toHaveLength(body.length);
    expect(verifyWebhookSignature(tampered, headers, secret, { now })).toBe(false);
    expect(verifyWebhookSignature(tampered, { 'x-service-signature': headers['X-Service-Signature'] }, secret)).toBe(
      false,
    );
    // Same characters, different bytes (NFD vs NFC) must also fail: the raw body is what counts.
    expect(verifyWebhookSignature(body.normalize('NFD'), headers, secret, { now })).toBe(false);
  });

  it('fails with the wrong secret', () => {
    const other = generateWebhookSecret();
    expect(verifyWebhookSignature(body, headers, other, { now })).toBe(false);
    expect(verifyWebhookSignature(body, { 'x-service-signature': headers['X-Service-Signature'] }, other)).toBe(false);
  });

  it('enforces the timestamp tolerance in both directions', () => {
    const at = (sec: number) => new Date(now.getTime() + sec * 1000);
    expect(verifyWebhookSignature(body, headers, secret, { now: at(300) })).toBe(true);
    expect(verifyWebhookSignature(body, headers, secret, { now: at(301) })).toBe(false);
    expect(verifyWebhookSignature(body, headers, secret, { now: at(-301) })).toBe(false);
    expect(verifyWebhookSignature(body, headers, secret, { now: at(3600), toleranceSec: 7200 })).toBe(true);
  });

  it('does not let the seed header rescue a stale or forged Standard header set', () => {
    const stale = buildSignatureHeaders({
      eventId: 'evt_1',
      eventType: 'x',
      rawBody: body,
      secrets: [secret],
      now: new Date(now.getTime() - 3600_000),
    });
    expect(verifyWebhookSignature(body, stale, secret, { now })).toBe(false);
    const forgedTs = { ...headers, 'webhook-timestamp': String(now.getTime() / 1000 + 1) };
    expect(verifyWebhookSignature(body, forgedTs, secret, { now })).toBe(false);
    const seedOnly = { 'x-service-signature': headers['X-Service-Signature'] };
    expect(verifyWebhookSignature(body, seedOnly, secret, { requireTimestamp: true })).toBe(false);
  });

  it('keeps the old secret valid during rotation; the seed header carries only the current one', () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const rotated = buildSignatureHeaders({
      eventId: 'evt_9',
      eventType: 't',
      rawBody: body,
      secrets: [newSecret, oldSecret],
      now,
    });
    expect(rotated['webhook-signature'].split(' ')).toHaveLength(2);
    expect(rotated['X-Service-Signature']).toBe(`sha256=${signSeed(body, newSecret)}`);
    expect(verifyWebhookSignature(body, rotated, newSecret, { now })).toBe(true);
    expect(verifyWebhookSignature(body, rotated, oldSecret, { now })).toBe(true);
    expect(verifyWebhookSignature(body, rotated, generateWebhookSecret(), { now })).toBe(false);
    // After the grace period only the current secret signs.
    const after = buildSignatureHeaders({ eventId: 'evt_9', eventType: 't', rawBody: body, secrets: [newSecret], now });
    expect(verifyWebhookSignature(body, after, oldSecret, { now })).toBe(false);
  });

  it('refuses an empty secret list', () => {
    expect(() => buildSignatureHeaders({ eventId: 'e', eventType: 't', rawBody: body, secrets: [] })).toThrow(/secret/);
  });
});

describe('end to end over loopback', () => {
  it('a receiver verifies what safePost delivered, from the raw bytes it got', async () => {
    const sink = await startWebhookSink();
    try {
      const secret = generateWebhookSecret();
      const headers = buildSignatureHeaders({
        eventId: 'evt_e2e',
        eventType: 'document.processed',
        rawBody: body,
        secrets: [secret],
      });
      const res = await safePost(sink.url, { body, headers, allow: createAllowList(['127.0.0.1']), timeoutMs: 2000 });
      expect(res.status).toBe(200);
      const got = sink.requests[0];
      expect(verifyWebhookSignature(got.body, got.headers, secret)).toBe(true);
      expect(verifyWebhookSignature(got.body, got.headers, generateWebhookSecret())).toBe(false);
    } finally {
      await sink.close();
    }
  });
});
