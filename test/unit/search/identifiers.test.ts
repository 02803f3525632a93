// Identifiers (long numbers) tell one issuer's distinct documents apart where shingles cannot,
// and survive OCR noise.
import { describe, expect, it } from 'vitest';
import { differentIdentifiers, identifiers } from '../../../src/pipeline/dedup/index.js';

describe('document identifiers', () => {
  it('takes tokens with six or more digits, reading OCR letter confusions as digits', () => {
    expect(identifiers('Invoice # INV-20260301-4471, total 12.50, ref AB120O0345')).toEqual(['20260301', 'a812000345']);
    expect(identifiers('Order 12345 of 01.03.2026')).toEqual([]);
  });

  it('calls two texts different only when each names a number the other lacks', () => {
    const a = identifiers('Receipt OR18030502160349 cashier 1101083');
    const b = identifiers('Receipt OR18031402160311 cashier 1101083');
    expect(differentIdentifiers(a, b)).toBe(true);
    // An OCR-misread copy: a letter for a digit, one digit wrong.
    expect(differentIdentifiers(a, identifiers('Receipt 0R18O30502160359 cashier ll01083'))).toBe(false);
    // A copy in which noise split the number: the parts are in the whole.
    expect(differentIdentifiers(a, identifiers('Receipt OR1803050 2160349 cashier 1101083'))).toBe(false);
    // One side without numbers decides nothing.
    expect(differentIdentifiers(a, [])).toBe(false);
  });
});
