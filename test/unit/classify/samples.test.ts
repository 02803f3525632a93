import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSampleSet, splitDeterministic, type SampleExample } from '../../../src/pipeline/classify/samples.js';
import { wordTokens } from '../../../src/pipeline/classify/tokenize.js';
import { SAMPLES_DIR, TYPES } from './fixtures.js';

describe('samples/classifier', () => {
  let all: SampleExample[];
  beforeAll(async () => {
    all = await loadSampleSet(SAMPLES_DIR);
  });

  it('has at least 40 documents for each of the 8 types and nothing else', () => {
    expect([...new Set(all.map((e) => e.type))].sort()).toEqual(TYPES);
    for (const t of TYPES) expect(all.filter((e) => e.type === t).length).toBeGreaterThanOrEqual(40);
    expect(all.every((e) => /^[a-z_]+\/(?:[a-z]+-)?\d{3}\.(?:txt|eml)$/.test(e.id))).toBe(true);
  });

  it('contains no duplicate or empty documents', () => {
    expect(new Set(all.map((e) => e.text)).size).toBe(all.length);
    expect(all.every((e) => e.text.trim().length > 40)).toBe(true);
  });

  it('is not separable by one fixed word: no token has recall >= 0.9 and precision >= 0.95 for a type', () => {
    const docFreq = new Map<string, Map<string, number>>();
    for (const ex of all) {
      for (const tok of new Set(wordTokens(ex.text))) {
        const m = docFreq.get(tok) ?? new Map<string, number>();
        m.set(ex.type, (m.get(ex.type) ?? 0) + 1);
        docFreq.set(tok, m);
      }
    }
    const offenders: string[] = [];
    for (const t of TYPES) {
      const n = all.filter((e) => e.type === t).length;
      for (const [tok, m] of docFreq) {
        const tp = m.get(t) ?? 0;
        const total = [...m.values()].reduce((s, v) => s + v, 0);
        if (tp / n >= 0.9 && tp / total >= 0.95) offenders.push(`${t}:${tok}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('includes non-English documents and hard negatives', () => {
    const has = (type: string, re: RegExp) => all.some((e) => e.type === type && re.test(e.text));
    expect(has('invoice', /Rechnung|Facture|Factura/i)).toBe(true);
    expect(has('receipt', /Kassenbon|Ticket|Recibo|Quittung|Reçu/i)).toBe(true);
    expect(has('letter', /invoice/i)).toBe(true);
    expect(has('contract', /invoice/i)).toBe(true);
    expect(has('other', /invoice|purchase/i)).toBe(true);
  });

  it('is exactly what generate.mjs produces (the committed files are reproducible)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'clf-samples-'));
    try {
      await promisify(execFile)(process.execPath, [join(SAMPLES_DIR, 'generate.mjs'), '--out', out]);
      const regenerated = await loadSampleSet(out);
      expect(regenerated.map((e) => e.id)).toEqual(all.map((e) => e.id));
      expect(regenerated.map((e) => e.text)).toEqual(all.map((e) => e.text));
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('splitDeterministic', () => {
  const examples = Array.from({ length: 50 }, (_, i) => ({ type: i < 20 ? 'a' : i < 45 ? 'b' : 'c', n: i }));

  it('is stratified: round(fraction × count) of each type goes to test', () => {
    const { train, test } = splitDeterministic(examples, 0.25, 1);
    const count = (xs: typeof examples, t: string) => xs.filter((x) => x.type === t).length;
    expect([count(test, 'a'), count(test, 'b'), count(test, 'c')]).toEqual([5, 6, 1]);
    expect(train.length + test.length).toBe(50);
    expect(new Set([...train, ...test].map((x) => x.n)).size).toBe(50);
  });

  it('is deterministic per seed and different across seeds', () => {
    const a = splitDeterministic(examples, 0.3, 42).test.map((x) => x.n);
    const b = splitDeterministic(examples, 0.3, 42).test.map((x) => x.n);
    const c = splitDeterministic(examples, 0.3, 43).test.map((x) => x.n);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('keeps input order inside each part and rejects bad fractions', () => {
    const { train } = splitDeterministic(examples, 0.5, 9);
    expect(train.map((x) => x.n)).toEqual([...train.map((x) => x.n)].sort((p, q) => p - q));
    expect(splitDeterministic(examples, 0, 9).test).toEqual([]);
    expect(() => splitDeterministic(examples, 1, 9)).toThrow(RangeError);
  });
});
