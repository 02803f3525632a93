import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBuiltinModel, sourceKeyFor } from '../../../src/pipeline/classify/builtin.js';
import * as eml from '../../../src/pipeline/parse/eml.js';
import { childPids, memoryTrackingAvailable } from '../../helpers/memory.js';
import { createClassifierService } from '../../../src/modules/classifier/classifier.service.js';
import { createLogger } from '../../../src/lib/logger.js';
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

  it('trains on first call in a child process, writes the cache, and versions the model by content', async () => {
    const children = new Set<number>();
    const sample = setInterval(() => childPids().forEach((p) => children.add(p)), 5);
    const model = await loadBuiltinModel(samples, { cachePath });
    clearInterval(sample);
    const examples = await loadSampleSet(samples);
    expect(model.version).toBe(modelVersionFor(examples));
    expect(model.trainedOn).toBe(64);
    expect(parseModel(await readFile(cachePath, 'utf8'))).toEqual(model);
    // The cache names what it was trained from by the raw files, so a later process can use it
    // without converting a sample.
    expect(JSON.parse(await readFile(cachePath, 'utf8')).sourceKey).toBe(await sourceKeyFor(samples));
    if (memoryTrackingAvailable) expect(children.size).toBeGreaterThan(0);
  });

  it('returns the cached model on later calls without retraining', async () => {
    const first = await readFile(cachePath, 'utf8');
    const before = (await stat(cachePath)).mtimeMs;
    const again = await loadBuiltinModel(samples, { cachePath });
    // Same model, including trainedAt: it was read back, not retrained.
    expect(serializeModel(again) === serializeModel(parseModel(first))).toBe(true);
    expect((await stat(cachePath)).mtimeMs).toBe(before);
    expect(classify(again, 'INVOICE\nInvoice No. 12\nAmount due 40.00').type).toBe('invoice');
  });

  it('retrains when the sample set changes', async () => {
    await loadBuiltinModel(samples, { cachePath });
    const old = parseModel(await readFile(cachePath, 'utf8'));
    await writeFile(
      join(samples, 'letter', '999.txt'),
      'Dear Ms Lee,\nThank you for your kind letter of 3 May.\nYours sincerely,\nTom Walsh\n',
    );
    const updated = await loadBuiltinModel(samples, { cachePath });
    expect(updated.version).not.toBe(old.version);
    expect(updated.trainedOn).toBe(65);
    await rm(join(samples, 'letter', '999.txt'));
    expect(parseModel(await readFile(cachePath, 'utf8')).version).toBe(updated.version);
  });

  it('retrains over a corrupt cache file', async () => {
    await writeFile(cachePath, '{"format":');
    const model = await loadBuiltinModel(samples, { cachePath });
    expect(parseModel(await readFile(cachePath, 'utf8')).version).toBe(model.version);
  });

  it('reads a fresh cache without converting any sample', async () => {
    // An e-mail sample that cannot be converted would fail loadSampleSet; a cache hit never
    // reads it as text. It changes the raw files, so the cache is first refreshed for them.
    await writeFile(
      join(samples, 'letter', 'later.eml'),
      'From: a@example.com\r\nSubject: hi\r\n\r\nDear Tom, yours sincerely\r\n',
    );
    const refreshed = await loadBuiltinModel(samples, { cachePath, trainInChild: false });
    expect(refreshed.trainedOn).toBe(65);
    const readSpy = vi.spyOn(eml, 'emlToText');
    try {
      expect((await loadBuiltinModel(samples, { cachePath })).version).toBe(refreshed.version);
      expect(readSpy).not.toHaveBeenCalled();
    } finally {
      readSpy.mockRestore();
      await rm(join(samples, 'letter', 'later.eml'));
    }
  });

  it('names the failure when training in the child fails', async () => {
    const empty = join(dir, 'no-samples');
    await mkdir(empty, { recursive: true });
    await expect(loadBuiltinModel(empty, { cachePath: join(dir, 'none.json') })).rejects.toThrow(
      /training the classifier failed \(exit 1\): no classifier samples/,
    );
  });

  it('the classifier service tries a failed load again instead of keeping the failure', async () => {
    const later = join(dir, 'later-samples');
    await mkdir(later, { recursive: true });
    const service = createClassifierService({
      repo: {} as never,
      documents: {} as never,
      logger: createLogger({ level: 'silent' }),
      cacheDir: join(dir, 'service-cache'),
      samplesDir: later,
    });
    await expect(service.builtin()).rejects.toThrow(/no classifier samples/);
    for (const ex of await sampleSubset(4)) {
      await mkdir(join(later, ex.type), { recursive: true });
      await writeFile(join(later, ex.id), ex.text);
    }
    expect((await service.builtin()).trainedOn).toBe(32);
  });

  it('fails clearly when there are no samples', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    await expect(loadBuiltinModel(empty)).rejects.toThrow(/no classifier samples/);
  });
});
