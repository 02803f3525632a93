import { describe, expect, it } from 'vitest';
import { createSecretBox, randomBase62, safeEqual, sha256Hex } from '../../../src/lib/crypto.js';
import { generateApiKey, looksLikeApiKey, parseApiKey } from '../../../src/modules/api-keys/key-format.js';

describe('SecretBox (AES-256-GCM)', () => {
  const box = createSecretBox('k'.repeat(40));

  it('round-trips, including empty and non-ASCII text', () => {
    for (const plain of ['imap-password', '', 'pässwörd ✓ 密码', 'x'.repeat(10_000)]) {
      expect(box.decrypt(box.encrypt(plain))).toBe(plain);
    }
  });

  it('uses a fresh IV each time and never contains the plaintext', () => {
    const a = box.encrypt('same secret');
    const b = box.encrypt('same secret');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain('same secret');
  });

  it('detects tampering with ciphertext, tag or IV', () => {
    const sealed = box.encrypt('webhook secret');
    const parts = sealed.split('.');
    const flip = (s: string) => {
      const buf = Buffer.from(s, 'base64url');
      buf[0] ^= 1;
      return buf.toString('base64url');
    };
    for (const idx of [1, 2, 3]) {
      const changed = [...parts];
      changed[idx] = flip(changed[idx]);
      expect(() => box.decrypt(changed.join('.')), `part ${idx}`).toThrow();
    }
  });

  it('a different key cannot open it', () => {
    expect(() => createSecretBox('z'.repeat(40)).decrypt(box.encrypt('x'))).toThrow();
  });

  it('refuses unknown formats', () => {
    expect(() => box.decrypt('v2.a.b.c')).toThrow(/unknown format/);
    expect(() => box.decrypt('garbage')).toThrow(/unknown format/);
  });
});

describe('helpers', () => {
  it('randomBase62 has the asked length and alphabet', () => {
    const s = randomBase62(500);
    expect(s).toMatch(/^[0-9A-Za-z]{500}$/);
    expect(new Set(s).size).toBeGreaterThan(50);
  });

  it('safeEqual compares content and length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('API key format', () => {
  it('live and test keys: prefix, 32 base62 characters, sha256 stored, masked display', () => {
    for (const env of ['live', 'test'] as const) {
      const k = generateApiKey(env);
      expect(k.secret).toMatch(new RegExp(`^svc_${env}_[0-9A-Za-z]{32}$`));
      expect(k.hash).toBe(sha256Hex(k.secret));
      const body = k.secret.slice(`svc_${env}_`.length);
      expect(k.masked).toBe(`svc_${env}_${body.slice(0, 4)}…${body.slice(-4)}`);
      expect(parseApiKey(k.secret)).toEqual({ env, hash: k.hash });
    }
  });

  it('parses only well-formed keys', () => {
    const body = 'A'.repeat(32);
    expect(parseApiKey(`svc_live_${body}`)).not.toBeNull();
    for (const bad of [
      `svc_prod_${body}`,
      `svc_live_${body}A`,
      `svc_live_${body.slice(1)}`,
      `svc_live_${body.slice(1)}-`,
      `SVC_LIVE_${body}`,
      'svc_live_',
    ]) {
      expect(parseApiKey(bad), bad).toBeNull();
    }
    expect(looksLikeApiKey('svc_anything')).toBe(true);
    expect(looksLikeApiKey('eyJhbGciOi')).toBe(false);
  });
});
