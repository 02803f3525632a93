import { describe, expect, it } from 'vitest';
import { buildVocabulary, indexVocabulary, vectorize } from '../../../src/pipeline/classify/tfidf.js';
import { featureTokens, normalizeText, wordTokens } from '../../../src/pipeline/classify/tokenize.js';

describe('tokenizer', () => {
  it('folds accents and case', () => {
    expect(normalizeText('Numéro de FACTURE – Grüße')).toBe(
      'numero de facture – gruße'.normalize('NFKD').replace(/\p{M}+/gu, ''),
    );
    expect(wordTokens('Numéro NUMERO numero')).toEqual(['numero', 'numero', 'numero']);
  });

  it('replaces values with shape tokens', () => {
    const toks = wordTokens(
      'IBAN DE89 3704 0044 0532 0130 00 on 12.03.2024 at 14:05, total €1,234.56 (20%) mail a.b@x.de card ****1234 ref 4471 in 2023',
    );
    expect(toks).toEqual([
      'iban',
      '_iban_',
      'on',
      '_date_',
      'at',
      '_time_',
      'total',
      '_cur_',
      '_amount_',
      '_pct_',
      'mail',
      '_email_',
      'card',
      '_masked_',
      'ref',
      '_num4_',
      'in',
      '_year_',
    ]);
  });

  it('adds bigrams and boundary-marked character 4-grams', () => {
    const toks = featureTokens('Invoice due');
    expect(toks).toContain('invoice due');
    expect(toks).toContain('#<inv');
    expect(toks).toContain('#ice>');
    expect(featureTokens('Invoice due', { bigrams: false, charNgrams: [] })).toEqual(['invoice', 'due']);
  });

  it('keeps OCR-damaged words close to the clean ones via character n-grams', () => {
    const clean = new Set(featureTokens('Invoice', { bigrams: false }));
    const damaged = featureTokens('lnvoice', { bigrams: false });
    expect(damaged.filter((t) => clean.has(t)).length).toBeGreaterThanOrEqual(3);
  });
});

describe('tf-idf', () => {
  const docs = [['a', 'b', 'b'], ['a', 'c'], ['a', 'b', 'd'], ['e']];

  it('keeps features with enough document frequency, sorted', () => {
    const { vocab, idf } = buildVocabulary(docs, { minDf: 2 });
    expect(vocab).toEqual(['a', 'b']);
    expect(idf[0]).toBeLessThan(idf[1]); // 'a' is in more documents
    expect(buildVocabulary(docs, { minDf: 1, maxFeatures: 2 }).vocab).toEqual(['a', 'b']);
  });

  it('produces L2-normalised sparse vectors and ignores unknown features', () => {
    const { vocab, idf } = buildVocabulary(docs, { minDf: 1 });
    const v = vectorize(['b', 'b', 'zzz', 'a'], indexVocabulary(vocab), idf);
    expect(v.indices).toEqual([0, 1]);
    expect(Math.hypot(...v.values)).toBeCloseTo(1, 12);
    expect(vectorize(['zzz'], indexVocabulary(vocab), idf)).toEqual({ indices: [], values: [] });
  });
});
