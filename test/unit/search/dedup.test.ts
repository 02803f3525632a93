// Near-duplicate fingerprints and the weighted comparison, on generated receipts of one bakery
// and (when ../shared is there) on the dev corpus receipts.
import { describe, expect, it } from 'vitest';
import { compareCandidates, fingerprint, NEAR_DUPLICATE_THRESHOLD } from '../../../src/pipeline/dedup/index.js';
import { fingerprintOf, resample, sampleAt, shingleHashes } from '../../../src/pipeline/dedup/minhash.js';
import { measureDedupOnDevReceipts } from '../../helpers/dedup-dev.js';
import { bakeryReceipt, ocrNoise } from '../../integration/search/fixtures.js';

const candidate = (id: string, text: string) => {
  const fp = fingerprint(text, 'org/live')!;
  return { id, sample: fp.sample, level: fp.level, flagged: false };
};

describe('near-duplicate fingerprints', () => {
  it('gives the same text the same signature and band keys, salted by tenant', () => {
    const a = fingerprint(bakeryReceipt(1), 'org_a/live')!;
    const b = fingerprint(`  ${bakeryReceipt(1).replace(/\n/g, '  ')}  `, 'org_a/live')!;
    expect(b.signature).toEqual(a.signature);
    expect(b.bandKeys).toEqual(a.bandKeys);
    const other = fingerprint(bakeryReceipt(1), 'org_b/live')!;
    expect(other.signature).toEqual(a.signature);
    expect(other.bandKeys.some((k) => a.bandKeys.includes(k))).toBe(false);
    for (const k of a.bandKeys) expect(Number.isSafeInteger(k)).toBe(true);
    expect(fingerprint('  ,. ', 'x')).toBeNull();
  });

  it('fingerprints from its reused tables exactly as from a Set of the shingles, call after call', () => {
    const texts = [
      'abc',
      'Total 12.50',
      bakeryReceipt(1),
      ocrNoise(bakeryReceipt(2)),
      Array.from({ length: 60 }, (_, n) => bakeryReceipt(n)).join('\n'), // past MAX_CHARS
      bakeryReceipt(1),
    ];
    for (const text of texts) {
      const fast = fingerprint(text, 'org/live');
      const reference = fingerprintOf([...shingleHashes(text)], 'org/live');
      expect(fast).toEqual(reference);
    }
    expect(fingerprint(' .,; ', 'org/live')).toBeNull();
  });

  it('re-samples a sample at a higher level as sampling the shingles there would', () => {
    const text = Array.from({ length: 40 }, (_, n) => bakeryReceipt(n)).join('\n');
    const hashes = shingleHashes(text);
    const base = sampleAt(hashes, 0);
    expect(base.length).toBeGreaterThan(1000);
    for (const level of [1, 2, 3, 5]) {
      const direct = sampleAt(hashes, level);
      expect(direct.length).toBeGreaterThan(0);
      expect(direct.length).toBeLessThan(base.length);
      expect(resample(base, level)).toEqual(direct);
      expect(resample(sampleAt(hashes, 1), level)).toEqual(direct);
    }
  });

  it('matches an OCR-noisy copy and none of the same bakery’s other receipts', () => {
    const pool = [0, 1, 2, 3, 4, 5].map((n) => candidate(`r${n}`, bakeryReceipt(n)));
    // Each receipt against the ones before it (as intake meets them): never a near-duplicate.
    for (let n = 1; n < pool.length; n++) {
      const [best] = compareCandidates(fingerprint(bakeryReceipt(n), 'org/live')!, pool.slice(0, n));
      expect(best.similarity, `receipt ${n}`).toBeLessThan(NEAR_DUPLICATE_THRESHOLD);
    }
    const [best] = compareCandidates(fingerprint(ocrNoise(bakeryReceipt(3)), 'org/live')!, pool);
    expect(best.id).toBe('r3');
    expect(best.similarity).toBeGreaterThanOrEqual(NEAR_DUPLICATE_THRESHOLD);
  });

  it('discounts content the other candidates share', () => {
    const pool = [0, 1, 2, 3, 4, 5].map((n) => candidate(`r${n}`, bakeryReceipt(n)));
    const fp = fingerprint(bakeryReceipt(7), 'org/live')!;
    const alone = compareCandidates(fp, [pool[0]])[0].similarity;
    const amongMany = compareCandidates(fp, pool).find((r) => r.id === 'r0')!.similarity;
    expect(amongMany).toBeLessThan(alone);
  });
});

const dev = measureDedupOnDevReceipts();
if (!dev) console.warn('dev receipts near-duplicate check skipped: ../shared/corpora/dev/sroie is not present');

describe.skipIf(!dev)('near-duplicates on the dev corpus receipts', () => {
  it('finds OCR-noisy copies and flags almost no distinct receipt of the same merchant', () => {
    const r = dev!;
    console.info(
      `dev receipts: ${r.copiesFound}/${r.receipts} noisy copies found; ${r.falsePositives.length} distinct-receipt flags ` +
        `(${r.merchantsWithSeveral} merchants with several receipts): ${JSON.stringify(r.falsePositives)}`,
    );
    expect(r.copiesFound / r.receipts).toBeGreaterThanOrEqual(0.95);
    // Known: one pair of one merchant's receipts with the very same items and total (only the
    // date and invoice number differ) is flagged, in both directions. Nothing else may be.
    expect(r.falsePositives.length).toBeLessThanOrEqual(2);
    expect(new Set(r.falsePositives.map((f) => f.merchant)).size).toBeLessThanOrEqual(1);
  });
});
