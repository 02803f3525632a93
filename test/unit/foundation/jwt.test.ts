import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken, type AccessClaims } from '../../../src/modules/auth/jwt.js';

const SECRET = 'a'.repeat(48);
const NOW = 1_800_000_000;
const claims: AccessClaims = { sub: 'usr_1', org: 'org_1', sid: 'fam_1', typ: 'access', iat: NOW - 10, exp: NOW + 890 };

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const sign = (alg: 'sha256' | 'sha512', input: string, secret = SECRET) =>
  createHmac(alg, secret).update(input).digest('base64url');
/** Builds a token from raw parts, signed like HS256 unless told otherwise. */
function forge(header: unknown, payload: unknown, how: 'hs256' | 'hs512' | 'none' = 'hs256'): string {
  const input = `${b64(header)}.${b64(payload)}`;
  if (how === 'none') return `${input}.`;
  return `${input}.${sign(how === 'hs256' ? 'sha256' : 'sha512', input)}`;
}

describe('access tokens', () => {
  it('round-trips the claims', () => {
    const token = signAccessToken(claims, SECRET);
    expect(token.split('.')).toHaveLength(3);
    expect(verifyAccessToken(token, SECRET, NOW)).toEqual(claims);
  });

  it('a hand-made HS256 token with the same claims verifies (standard JWS, not a private format)', () => {
    expect(verifyAccessToken(forge({ alg: 'HS256', typ: 'JWT' }, claims), SECRET, NOW)).toEqual(claims);
  });

  it('rejects a token signed with another secret', () => {
    expect(verifyAccessToken(signAccessToken(claims, 'b'.repeat(48)), SECRET, NOW)).toBeNull();
  });

  it('rejects expired tokens, including exactly at exp', () => {
    const token = signAccessToken(claims, SECRET);
    expect(verifyAccessToken(token, SECRET, claims.exp - 1)).not.toBeNull();
    expect(verifyAccessToken(token, SECRET, claims.exp)).toBeNull();
    expect(verifyAccessToken(token, SECRET, claims.exp + 3600)).toBeNull();
  });

  it('rejects a changed payload with the original signature', () => {
    const [h, , s] = signAccessToken(claims, SECRET).split('.');
    expect(verifyAccessToken(`${h}.${b64({ ...claims, sub: 'usr_2' })}.${s}`, SECRET, NOW)).toBeNull();
    expect(verifyAccessToken(`${h}.${b64({ ...claims, exp: NOW + 99999 })}.${s}`, SECRET, NOW)).toBeNull();
  });

  it('rejects a change to any single character of the signature', () => {
    const token = signAccessToken(claims, SECRET);
    const [h, p, s] = token.split('.');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < s.length; i++) {
      // Every alternative for the last character: its low bits are padding in base64url, and a
      // lenient decoder would accept a different token string as the same signature.
      const choices = i === s.length - 1 ? [...alphabet].filter((c) => c !== s[i]) : [s[i] === 'A' ? 'B' : 'A'];
      for (const c of choices) {
        const changed = `${h}.${p}.${s.slice(0, i)}${c}${s.slice(i + 1)}`;
        expect(verifyAccessToken(changed, SECRET, NOW), `signature position ${i} -> ${c}`).toBeNull();
      }
    }
  });

  it('rejects padded or decorated signatures that decode to the same bytes', () => {
    const token = signAccessToken(claims, SECRET);
    for (const suffix of ['=', '==', '!', ' ', '\n']) {
      expect(verifyAccessToken(`${token}${suffix}`, SECRET, NOW), JSON.stringify(suffix)).toBeNull();
    }
    const [h, p, s] = token.split('.');
    expect(verifyAccessToken(`${h}.${p}.${s.slice(0, 10)}*${s.slice(10)}`, SECRET, NOW)).toBeNull();
  });

  it('rejects alg none, with or without a signature part', () => {
    expect(verifyAccessToken(forge({ alg: 'none', typ: 'JWT' }, claims, 'none'), SECRET, NOW)).toBeNull();
    const [, , s] = signAccessToken(claims, SECRET).split('.');
    expect(verifyAccessToken(`${b64({ alg: 'none' })}.${b64(claims)}.${s}`, SECRET, NOW)).toBeNull();
    expect(verifyAccessToken(`${b64({ alg: 'none' })}.${b64(claims)}`, SECRET, NOW)).toBeNull();
  });

  it('rejects other algorithms even when the HMAC is right for them', () => {
    expect(verifyAccessToken(forge({ alg: 'HS512', typ: 'JWT' }, claims, 'hs512'), SECRET, NOW)).toBeNull();
    // HS256 bytes under a different alg label are still refused: the header is trusted for nothing.
    expect(verifyAccessToken(forge({ alg: 'RS256', typ: 'JWT' }, claims), SECRET, NOW)).toBeNull();
    expect(verifyAccessToken(forge({ alg: 'hs256', typ: 'JWT' }, claims), SECRET, NOW)).toBeNull();
    expect(verifyAccessToken(forge({ typ: 'JWT' }, claims), SECRET, NOW)).toBeNull();
  });

  it('rejects malformed tokens', () => {
    for (const bad of [
      '',
      'abc',
      'a.b',
      'a.b.c.d',
      '..',
      'e30.e30.',
      `${b64('not json')}.${b64(claims)}.x`,
      `${b64({ alg: 'HS256' })}.${b64('{')}.x`,
    ]) {
      expect(verifyAccessToken(bad, SECRET, NOW), bad).toBeNull();
    }
    expect(verifyAccessToken(forge(null, claims), SECRET, NOW)).toBeNull();
    expect(verifyAccessToken(forge('HS256', claims), SECRET, NOW)).toBeNull();
  });

  it('rejects correctly signed tokens with missing or wrong claims', () => {
    const h = { alg: 'HS256', typ: 'JWT' };
    const { sub: _s, ...noSub } = claims;
    const { sid: _d, ...noSid } = claims;
    const { exp: _e, ...noExp } = claims;
    for (const payload of [
      noSub,
      noSid,
      noExp,
      { ...claims, typ: 'refresh' },
      { ...claims, exp: String(NOW + 100) },
      { ...claims, org: 5 },
      null,
      'x',
      42,
    ]) {
      expect(verifyAccessToken(forge(h, payload), SECRET, NOW), JSON.stringify(payload)).toBeNull();
    }
  });
});
