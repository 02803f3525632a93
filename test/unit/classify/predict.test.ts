import { beforeAll, describe, expect, it } from 'vitest';
import type { ClassifierModel } from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import type { SampleExample } from '../../../src/pipeline/classify/samples.js';
import { trainClassifier, type TrainingExample } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE, TYPES, sampleSubset, sum } from './fixtures.js';

/** Italian purchase orders: a language and phrasing the built-in samples never use. */
function italianOrder(i: number): string {
  const articles = [
    'Viti inox M6',
    'Carta A4 risma',
    'Guanti nitrile',
    'Toner nero',
    'Cavo di rete 5m',
    'Sedia ergonomica',
    'Bancale legno',
  ];
  const suppliers = [
    'Ferramenta Bianchi',
    'Rossi Forniture',
    'Verdi Ufficio',
    'Colombo Imballaggi',
    'Ricci Elettronica',
  ];
  const qty = 2 + i * 3;
  const price = 4 + i * 1.5;
  const euro = (v: number) => v.toFixed(2).replace('.', ',');
  return [
    i % 2 ? 'ORDINE DI ACQUISTO' : "Ordine d'acquisto",
    `Ordine n. OA-${300 + i}\nData ordine: ${(i % 27) + 1}/05/2024\nFornitore: ${suppliers[i % suppliers.length]}`,
    `Articolo   Quantità   Prezzo unitario\n${articles[i % articles.length]}   ${qty}   ${euro(price)}\n${articles[(i + 3) % articles.length]}   ${qty + 1}   ${euro(price * 2)}`,
    `Consegna entro il ${(i % 27) + 2}/06/2024 presso il nostro magazzino di Bologna.\nCondizioni di pagamento: bonifico a 60 giorni data fattura.`,
    "Si prega di indicare il numero d'ordine su bolla e fattura.\nIl responsabile acquisti",
  ].join('\n\n');
}

describe('classify edge cases', () => {
  let model: ClassifierModel;
  beforeAll(async () => {
    model = trainClassifier(await sampleSubset(10), { seed: 11, trainedAt: FIXED_DATE });
  });

  it.each(['', '   ', '\n\t \r\n', '---- ... ////'])('text %j → other with low confidence', (text) => {
    const r = classify(model, text);
    expect(r.type).toBe('other');
    expect(r.method).toBe('fallback');
    expect(r.confidence).toBeLessThan(0.3);
    expect(r.confidence).toBe(Math.max(...Object.values(r.distribution)));
    expect(Object.keys(r.distribution).sort()).toEqual(TYPES);
    expect(sum(Object.values(r.distribution))).toBeCloseTo(1, 12);
  });

  it('text with no known features also falls back instead of echoing the bias', () => {
    const r = classify(model, 'qzxv wqpk');
    expect(r.method).toBe('fallback');
    expect(r.type).toBe('other');
  });

  it('reads at most maxChars characters (a text that fits is read whole)', () => {
    const letter = 'Dear Mr Smith,\nThank you for your letter.\nYours sincerely,\nAnna';
    const padded = `${letter}\n${'Opening balance 1,000.00 Closing balance 900.00 IBAN DE89 3704 0044 0532 0130 00 Statement period\n'.repeat(50)}`;
    expect(classify(model, padded, { maxChars: letter.length }).distribution).toEqual(
      classify(model, letter).distribution,
    );
    expect(classify(model, padded).rules).toContain('bank_statement.balances');
  });
});

describe('retraining with an organisation’s confirmed documents', () => {
  let builtin: SampleExample[];
  let base: ClassifierModel;
  let retrained: ClassifierModel;
  const probe = italianOrder(9); // not among the confirmed examples below

  beforeAll(async () => {
    builtin = await sampleSubset(12);
    base = trainClassifier(builtin, { seed: 1, trainedAt: FIXED_DATE });
    const confirmed: TrainingExample[] = [0, 1, 2, 3, 4, 5].map((i) => ({
      text: italianOrder(i),
      type: 'purchase_order',
    }));
    const examples = [...builtin, ...confirmed];
    retrained = trainClassifier(examples, {
      seed: 1,
      trainedAt: FIXED_DATE,
      weights: examples.map((_, i) => (i < builtin.length ? 1 : 4)),
    });
  });

  it('the built-in model does not recognise the new phrasing', () => {
    const r = classify(base, probe);
    expect(r.type).not.toBe('purchase_order');
  });

  it('after retraining the same phrasing is classified as the confirmed type', () => {
    const before = classify(base, probe);
    const after = classify(retrained, probe);
    expect(after.type).toBe('purchase_order');
    expect(after.distribution.purchase_order).toBeGreaterThan(before.distribution.purchase_order + 0.3);
    expect(retrained.trainedOn).toBe(builtin.length + 6);
    expect(retrained.version).not.toBe(base.version);
  });

  it('weights matter: the same examples at weight 1 move the prediction less', () => {
    const confirmed = [0, 1, 2, 3, 4, 5].map((i) => ({ text: italianOrder(i), type: 'purchase_order' }));
    const light = trainClassifier([...builtin, ...confirmed], { seed: 1, trainedAt: FIXED_DATE });
    expect(classify(light, probe).distribution.purchase_order).toBeLessThan(
      classify(retrained, probe).distribution.purchase_order,
    );
  });

  it('still classifies the built-in kinds of documents', async () => {
    const others = (await sampleSubset(20)).filter((_, i) => i % 20 >= 12); // not in the 12-per-type training subset
    const correct = others.filter((e) => classify(retrained, e.text).type === e.type).length;
    expect(correct / others.length).toBeGreaterThanOrEqual(0.8);
  });
});
