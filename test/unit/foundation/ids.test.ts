import { describe, expect, it } from 'vitest';
import { hasPrefix, newId } from '../../../src/lib/ids.js';

const FORMAT = /^[a-z]+_[0-9ABCDEFGHJKMNPQRSTVWXYZ]{26}$/;

describe('ids', () => {
  it('prefix + 26 Crockford base32 characters', () => {
    for (const p of ['org', 'usr', 'key', 'prj', 'doc', 'req', 'wf'] as const) {
      const id = newId(p);
      expect(id).toMatch(FORMAT);
      expect(id.startsWith(`${p}_`)).toBe(true);
      expect(hasPrefix(id, p)).toBe(true);
    }
    expect(hasPrefix(newId('prj'), 'doc')).toBe(false);
  });

  it('encodes the time like a ULID (48-bit ms, 10 characters)', () => {
    // The ULID specification's example time.
    expect(newId('prj', 1469918176385).slice(4, 14)).toBe('01ARYZ6S41');
    expect(newId('prj', 0).slice(4, 14)).toBe('0000000000');
  });

  it('sorts by creation time across milliseconds', () => {
    const ids = [1_700_000_000_000, 1_700_000_000_001, 1_700_000_001_000, 1_800_000_000_000].map((t) =>
      newId('doc', t),
    );
    expect([...ids].sort()).toEqual(ids);
  });

  it('stays ordered and unique within one millisecond', () => {
    const t = 1_750_000_000_000;
    const ids = Array.from({ length: 1000 }, () => newId('evt', t));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws a fresh random part for each millisecond, past the end of one batch of random bytes', () => {
    const parts = Array.from({ length: 2000 }, (_, i) => newId('doc', 1_770_000_000_000 + i).slice(14));
    expect(new Set(parts).size).toBe(2000);
  });

  it('is not guessable: the random part differs between milliseconds', () => {
    const a = newId('key', 1_760_000_000_000).slice(14);
    const b = newId('key', 1_760_000_000_001).slice(14);
    expect(a).not.toBe(b);
  });
});
