import { beforeAll, describe, expect, it } from 'vitest';
import { classificationText, DEFAULT_MAX_CHARS } from '../../../src/pipeline/classify/long-text.js';
import { parseModel, serializeModel, type ClassifierModel } from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import { trainClassifier } from '../../../src/pipeline/classify/train.js';
import { FIXED_DATE, sampleSubset } from './fixtures.js';

/** `n` numbered lines of 50 characters, so a window's position can be read off its first line. */
function numbered(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(37)}`).join('\n');
}

describe('classificationText', () => {
  it('returns a text that fits the budget unchanged', () => {
    const t = numbered(100);
    expect(classificationText(t, t.length)).toBe(t);
    expect(classificationText('', 100)).toBe('');
  });

  it('reads a longer text as eight windows spread evenly from its first line to its last', () => {
    const text = numbered(20_000); // ~1 MB
    const read = classificationText(text, 24_000);
    const windows = read.split('\n\n');
    expect(windows).toHaveLength(8);
    expect(read.length).toBeLessThanOrEqual(24_000 + 7 * 2);
    expect(read.startsWith('line 000000 ')).toBe(true);
    expect(read.endsWith(text.slice(-50))).toBe(true);
    // Every window starts on a line of its own and they are about equally far apart.
    const starts = windows.map((w) => Number(/^line (\d{6}) /.exec(w)?.[1]));
    expect(starts.every(Number.isInteger)).toBe(true);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]);
    for (const g of gaps) expect(Math.abs(g - gaps[0])).toBeLessThanOrEqual(2);
    expect(gaps[0]).toBeGreaterThan(2_500);
  });

  it('falls back to the leading characters when the budget is too small for windows', () => {
    expect(classificationText(numbered(100), 120)).toBe(numbered(100).slice(0, 120));
  });
});

describe('long documents are classified from their whole text', () => {
  let model: ClassifierModel;
  let resume: string;
  beforeAll(async () => {
    const samples = await sampleSubset(12);
    model = trainClassifier(samples, { seed: 5, trainedAt: FIXED_DATE });
    resume = samples
      .filter((s) => s.type === 'resume')
      .map((s) => s.text)
      .sort((a, b) => b.length - a.length)[0];
  });

  // Pages of nothing in particular in front, so the type only shows towards the end.
  const filler = (chars: number) => 'This page is intentionally left blank.\n'.repeat(Math.ceil(chars / 39));

  it('finds a resume behind 15,000 characters of blank pages, which the first 10,000 would miss', () => {
    const doc = `${filler(15_000)}${resume}`;
    expect(classify(model, doc).type).toBe('resume');
    expect(classify(model, doc.slice(0, 10_000)).type).not.toBe('resume');
  });

  it('still finds it at the end of a 200,000-character document, reading only the budget', () => {
    const doc = `${filler(200_000)}${resume}`;
    expect(classify(model, doc).type).toBe('resume');
  });

  it('trains on the same reading and keeps the budget in the model', () => {
    expect(model.tokenizer.maxChars).toBe(DEFAULT_MAX_CHARS);
    const restored = parseModel(serializeModel(model));
    expect(restored.tokenizer.maxChars).toBe(DEFAULT_MAX_CHARS);
    const doc = `${filler(60_000)}${resume}`;
    expect(classify(restored, doc)).toEqual(classify(model, doc));
  });
});
