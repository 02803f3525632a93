// The temperature is fitted on out-of-fold scores: every calibration example is scored by a
// model that never saw it. Fitted on the training examples themselves, a model that memorises
// its data would look certain and report confidences near 1 on anything.
import { describe, expect, it } from 'vitest';
import { applyTemperature } from '../../../src/pipeline/classify/calibrate.js';
import { classify, rawScores, resolveRules } from '../../../src/pipeline/classify/predict.js';
import { seededRandom } from '../../../src/pipeline/classify/random.js';
import { stratifiedFolds } from '../../../src/pipeline/classify/samples.js';
import { trainClassifier } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE } from './fixtures.js';

const WORDS = [
  'amber',
  'basalt',
  'cobalt',
  'dune',
  'ember',
  'fjord',
  'glacier',
  'harbour',
  'indigo',
  'juniper',
  'kelp',
  'lagoon',
  'meadow',
  'nectar',
  'orchid',
  'prairie',
  'quartz',
  'reef',
  'sierra',
  'tundra',
  'umber',
  'valley',
  'willow',
  'yarrow',
  'zephyr',
];

/** Texts of random words with labels drawn independently of them: nothing to learn. */
function noise(n: number, seed: number) {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    text: Array.from({ length: 30 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '),
    type: i % 2 === 0 ? 'alpha' : 'beta',
  }));
}

describe('temperature fitted on held-out folds', () => {
  const examples = noise(120, 3);
  const model = trainClassifier(examples, { trainedAt: FIXED_DATE, useRules: false });

  it('the final model memorises its training data', () => {
    const rules = resolveRules(model, undefined);
    const right = examples.filter((e) => {
      const z = rawScores(model, e.text, rules).logits;
      return model.types[z.indexOf(Math.max(...z))] === e.type;
    }).length;
    expect(right / examples.length).toBeGreaterThan(0.9);
    // At temperature 1 it is sure of those memorised answers.
    const sure = examples.map((e) => Math.max(...applyTemperature(rawScores(model, e.text, rules).logits, 1)));
    expect(sure.reduce((s, p) => s + p, 0) / sure.length).toBeGreaterThan(0.7);
  });

  it('but its out-of-fold accuracy is chance, and the confidence it reports is close to a coin toss', () => {
    expect(model.calibration.size).toBe(examples.length);
    expect(model.calibration.accuracy).toBeLessThan(0.65);
    expect(model.temperature).toBeGreaterThan(2);
    for (const e of noise(40, 99)) expect(classify(model, e.text).confidence).toBeLessThan(0.62);
  });

  it('calibrationFolds 0 leaves the temperature at 1', () => {
    const plain = trainClassifier(examples, { trainedAt: FIXED_DATE, useRules: false, calibrationFolds: 0 });
    expect(plain.temperature).toBe(1);
    expect(plain.calibration.size).toBe(0);
  });
});

describe('stratifiedFolds', () => {
  const items = Array.from({ length: 53 }, (_, i) => ({ type: i < 30 ? 'a' : i < 50 ? 'b' : 'c' }));

  it('partitions the examples, spreading every type over the folds', () => {
    const folds = stratifiedFolds(items, 5, 1);
    expect(folds.flat().sort((x, y) => x - y)).toEqual(items.map((_, i) => i));
    for (const t of ['a', 'b', 'c']) {
      const per = folds.map((f) => f.filter((i) => items[i].type === t).length);
      expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(1);
    }
    const sizes = folds.map((f) => f.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('is deterministic per seed and different across seeds', () => {
    expect(stratifiedFolds(items, 5, 1)).toEqual(stratifiedFolds(items, 5, 1));
    expect(stratifiedFolds(items, 5, 2)).not.toEqual(stratifiedFolds(items, 5, 1));
    expect(() => stratifiedFolds(items, 0, 1)).toThrow(RangeError);
  });
});
