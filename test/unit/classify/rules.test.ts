import { beforeAll, describe, expect, it } from 'vitest';
import type { ClassifierModel } from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import { DEFAULT_RULES, ruleEvidence, type ClassificationRule } from '../../../src/pipeline/classify/rules.js';
import { trainClassifier } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE, TYPES, sampleSubset } from './fixtures.js';

const STATEMENT = 'Account holder: J. Doe\nIBAN DE89 3704 0044 0532 0130 00\nStatement period 01.03.2024 - 31.03.2024';
const RESUME_SKELETON = 'Work experience\nEducation\nSkills\nLanguages';
const LETTER_ABOUT_INVOICE = `Harbor Foods Ltd
12 High Street
Leeds

4 March 2024

Re: Invoice no. 4471

Dear Mr Jones,

We refer to your invoice no. 4471 dated 3 February 2024 for £1,250.00. Our records show that it was paid in full on 1 March. Please check your records and confirm that the account is clear.

Yours sincerely,

Anna Weber
Head of Finance`;

describe('ruleEvidence', () => {
  it('IBAN + statement period is bank-statement evidence and nothing else', () => {
    const ev = ruleEvidence(STATEMENT, TYPES);
    expect(ev.fired.map((r) => r.id)).toEqual(['bank_statement.iban-period']);
    TYPES.forEach((t, i) => expect(ev.offsets[i] > 0).toBe(t === 'bank_statement'));
  });

  it('needs every "all" pattern: an IBAN alone or a period alone does not fire', () => {
    expect(ruleEvidence('IBAN DE89 3704 0044 0532 0130 00', TYPES).fired).toEqual([]);
    expect(ruleEvidence('Statement period 01.03.2024 - 31.03.2024', TYPES).fired).toEqual([]);
  });

  it('respects minAny (two resume section headings, not one)', () => {
    expect(ruleEvidence('Education\nBSc Physics', TYPES).fired).toEqual([]);
    expect(ruleEvidence(RESUME_SKELETON, TYPES).fired.map((r) => r.id)).toContain('resume.sections');
  });

  it('matches accent-folded, case-insensitive text (German and French phrasing)', () => {
    expect(ruleEvidence('MIT FREUNDLICHEN GRÜSSEN', TYPES).fired.map((r) => r.id)).toEqual(['letter.closing']);
    expect(ruleEvidence('Numéro de facture F-1001', TYPES).fired.map((r) => r.id)).toEqual(['invoice.number']);
  });

  it('adds the evidence of several rules and skips types the model does not know', () => {
    const ev = ruleEvidence(LETTER_ABOUT_INVOICE, TYPES);
    expect(ev.fired.map((r) => r.id).sort()).toEqual(['invoice.number', 'letter.closing', 'letter.salutation']);
    expect(ev.offsets[TYPES.indexOf('letter')]).toBeCloseTo(1.6, 12);
    const narrow = ruleEvidence(LETTER_ABOUT_INVOICE, ['invoice', 'other']);
    expect(narrow.offsets).toEqual([1, 0]);
  });

  it('accepts custom rules', () => {
    const custom: ClassificationRule[] = [
      { id: 'po.acme', type: 'purchase_order', weight: 2, any: [/acme order form/] },
    ];
    const ev = ruleEvidence('ACME Order Form #12', TYPES, custom);
    expect(ev.offsets[TYPES.indexOf('purchase_order')]).toBe(2);
    expect(DEFAULT_RULES.every((r) => TYPES.includes(r.type))).toBe(true);
  });
});

describe('rules inside classify', () => {
  let model: ClassifierModel;
  beforeAll(async () => {
    model = trainClassifier(await sampleSubset(12), { seed: 3, trainedAt: FIXED_DATE });
  });

  it('shift the distribution toward the rule type on a crafted statement header', () => {
    const withRules = classify(model, STATEMENT);
    const without = classify(model, STATEMENT, { rules: false });
    expect(withRules.rules).toEqual(['bank_statement.iban-period']);
    expect(without.rules).toEqual([]);
    // The rule adds its weight to the bank_statement logit before the temperature, so the log-odds
    // of bank_statement against every other type grow by exactly weight / T.
    for (const t of TYPES.filter((x) => x !== 'bank_statement')) {
      const lift =
        Math.log(withRules.distribution.bank_statement / withRules.distribution[t]) -
        Math.log(without.distribution.bank_statement / without.distribution[t]);
      expect(lift).toBeCloseTo(1.2 / model.temperature, 6);
    }
    expect(withRules.distribution.bank_statement).toBeGreaterThan(without.distribution.bank_statement);
    expect(withRules.type).toBe('bank_statement');
    expect(withRules.method).toBe('model+rules');
  });

  it('can change the predicted type when the text alone is ambiguous', () => {
    const without = classify(model, RESUME_SKELETON, { rules: false });
    const withRules = classify(model, RESUME_SKELETON);
    expect(without.type).not.toBe('resume');
    expect(withRules.type).toBe('resume');
  });

  it('do not override the model: a letter about an invoice stays a letter', () => {
    const r = classify(model, LETTER_ABOUT_INVOICE);
    expect(r.rules).toContain('invoice.number');
    expect(r.type).toBe('letter');
  });

  it('a model trained without rules ignores them', async () => {
    const plain = trainClassifier(await sampleSubset(6), { seed: 3, trainedAt: FIXED_DATE, useRules: false });
    expect(plain.rulesVersion).toBeNull();
    const r = classify(plain, STATEMENT);
    expect(r.rules).toEqual([]);
    expect(r.method).toBe('model');
  });
});
