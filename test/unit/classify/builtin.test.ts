import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinModel } from '../../../src/pipeline/classify/builtin.js';
import { parseModel, serializeModel } from '../../../src/pipeline/classify/model.js';
import { classify } from '../../../src/pipeline/classify/predict.js';
import { loadSampleSet } from '../../../src/pipeline/classify/samples.js';
import { modelVersionFor } from '../../../src/pipeline/classify/train.js';
import { sampleSubset } from './fixtures.js';

describe('loadBuiltinModel', () => {
  let dir: string;
  let samples: string;
  let cachePath: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clf-builtin-'));
    samples = join(dir, 'samples');
    cachePath = join(dir, 'models', 'classifier.json');
    // A small copy of the real sample set keeps the test fast.
    for (const ex of await sampleSubset(8)) {
      await mkdir(join(samples, ex.type), { recursive: true });
      await writeFile(join(samples, ex.id), ex.text);
    }
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('trains on first call, writes the cache, and versions the model by content', async () => {
    const model = await loadBuiltinModel(samples, { cachePath });
    const examples = await loadSampleSet(samples);
    expect(model.version).toBe(modelVersionFor(examples));
    expect(model.trainedOn).toBe(64);
    expect(parseModel(await readFile(cachePath, 'utf8'))).toEqual(model);
  });

  it('returns the cached model on later calls without retraining', async () => {
    const first = await readFile(cachePath, 'utf8');
    const before = (await stat(cachePath)).mtimeMs;
    const again = await loadBuiltinModel(samples, { cachePath });
    // Same bytes, including trainedAt: the model was read back, not retrained.
    expect(serializeModel(again) === first).toBe(true);
    expect((await stat(cachePath)).mtimeMs).toBe(before);
    expect(classify(again, 'INVOICE\nInvoice No. 12\nAmount due 40.00').type).toBe('invoice');
  });

  it('retrains when the sample set changes', async () => {
    const old = parseModel(await readFile(cachePath, 'utf8'));
    await writeFile(
      join(samples, 'letter', '999.txt'),
      'Dear Ms Lee,\nThank you for your kind letter of 3 May.\nYours sincerely,\nTom Walsh\n',
    );
    const updated = await loadBuiltinModel(samples, { cachePath });
    expect(updated.version).not.toBe(old.version);
    expect(updated.trainedOn).toBe(65);
    expect(parseModel(await readFile(cachePath, 'utf8')).version).toBe(updated.version);
  });

  it('retrains over a corrupt cache file', async () => {
    await writeFile(cachePath, '{"format":');
    const model = await loadBuiltinModel(samples, { cachePath });
    expect(parseModel(await readFile(cachePath, 'utf8')).version).toBe(model.version);
  });

  it('fails clearly when there are no samples', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    await expect(loadBuiltinModel(empty)).rejects.toThrow(/no classifier samples/);
  });
});
