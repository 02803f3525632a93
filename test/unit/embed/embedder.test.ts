import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTransformersEmbedder, type Embedder } from '../../../src/pipeline/embed/embedder.js';
import { EmbedderUnavailableError } from '../../../src/pipeline/embed/errors.js';
import { generateTinyModel } from '../../helpers/tiny-model.js';

const norm = (v: number[]) => Math.hypot(...v);
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / (norm(a) * norm(b));
const closeVectors = (a: number[][], b: number[][], tol = 1e-5) => {
  expect(a.length).toBe(b.length);
  a.forEach((v, i) => v.forEach((x, j) => expect(Math.abs(x - b[i][j])).toBeLessThan(tol)));
};

let root: string;
let model: { modelId: string; dims: number };
let embedder: Embedder;
// Both the library's fetch hook and the global one: any network attempt would show up here.
// It fails the way Node's fetch does offline.
const offline = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) });
const libFetch = vi.fn(async (_url: unknown) => {
  throw offline();
});
let globalFetch: ReturnType<typeof vi.spyOn>;
// The library's settings are process-wide and test files share the process: put them back after.
const saved = { fetch: env.fetch, localModelPath: env.localModelPath };

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'docpipe-embed-'));
  model = await generateTinyModel(root);
  env.fetch = libFetch as typeof env.fetch;
  globalFetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    throw offline();
  });
  embedder = await createTransformersEmbedder({
    modelId: model.modelId,
    modelDir: root,
    allowDownload: false,
    batchSize: 4,
  });
});

afterAll(async () => {
  await embedder?.dispose?.();
  globalFetch?.mockRestore();
  env.fetch = saved.fetch;
  env.localModelPath = saved.localModelPath;
  await rm(root, { recursive: true, force: true });
});

// Braces matter: a function returned from beforeEach is run as a cleanup hook.
beforeEach(() => {
  libFetch.mockClear();
});

const sampleTexts = [
  'Invoice INV-2024-001 from ACME GmbH, total 1,234.50 EUR, due 2024-03-31.',
  'Dear customer, thank you for your order.',
  'x',
  '',
  'Zürich — Straße 12, 8000; naïve café №5 🚀',
  'Payment received. Balance: 0.00',
  'Purchase order 4711 for 12 units of product A at 9.99 each',
  'Contract agreement between the parties',
  'Bank account IBAN DE89 3704 0044 0532 0130 00',
  'Report for the period January to March',
];

describe('createTransformersEmbedder with the generated tiny model', () => {
  it('loads from the local folder with downloads disabled and reports its dims', () => {
    expect(embedder.modelId).toBe(model.modelId);
    expect(embedder.dims).toBe(model.dims);
    expect(libFetch).not.toHaveBeenCalled();
    expect(globalFetch).not.toHaveBeenCalled();
  });

  it('returns one unit-length vector of the right size per text, including odd and empty text', async () => {
    const vectors = await embedder.embed(sampleTexts);
    expect(vectors).toHaveLength(sampleTexts.length);
    for (const v of vectors) {
      expect(v).toHaveLength(model.dims);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Different texts give different vectors (the model is not constant).
    expect(cosine(vectors[0], vectors[1])).toBeLessThan(0.999);
    expect(await embedder.embed([])).toEqual([]);
    expect(libFetch).not.toHaveBeenCalled();
  });

  it('is deterministic, across calls and across separately generated models with the same seed', async () => {
    const a = await embedder.embed(sampleTexts.slice(0, 3));
    const b = await embedder.embed(sampleTexts.slice(0, 3));
    expect(b).toEqual(a);
    const otherRoot = await mkdtemp(path.join(tmpdir(), 'docpipe-embed-'));
    try {
      await generateTinyModel(otherRoot, 'docpipe-test/tiny-bert-copy');
      const twin = await createTransformersEmbedder({
        modelId: 'docpipe-test/tiny-bert-copy',
        modelDir: otherRoot,
        allowDownload: false,
      });
      closeVectors(await twin.embed(sampleTexts.slice(0, 3)), a, 1e-6);
      await twin.dispose?.();
    } finally {
      await rm(otherRoot, { recursive: true, force: true });
    }
  });

  it('gives the same vectors batched (with padding) as one by one', async () => {
    const batched = await embedder.embed(sampleTexts); // batchSize 4 -> 3 padded batches
    const single: number[][] = [];
    for (const t of sampleTexts) single.push(...(await embedder.embed([t])));
    closeVectors(batched, single);
  });

  it("gives the library's own mean-pooled, normalised vectors", async () => {
    // The reference: transformers.js' feature-extraction pipeline with its own pooling.
    const { pipeline } = await import('@huggingface/transformers');
    // An earlier test pointed the library's (process-wide) model folder elsewhere.
    env.localModelPath = root;
    const reference = await pipeline('feature-extraction', model.modelId, {
      local_files_only: true,
      dtype: 'fp32',
      device: 'cpu',
    });
    try {
      for (let i = 0; i < sampleTexts.length; i += 4) {
        const batch = sampleTexts.slice(i, i + 4);
        const theirs = (await reference(batch, { pooling: 'mean', normalize: true })).tolist() as number[][];
        closeVectors(await embedder.embed(batch), theirs);
      }
    } finally {
      await reference.dispose();
    }
  });

  it('truncates long text at the model limit instead of failing', async () => {
    const head = Array.from({ length: 700 }, (_, i) => `word${i % 50}`).join(' ');
    const [a, b, short] = await embedder.embed([`${head} invoice total`, `${head} contract agreement`, 'word1 word2']);
    expect(a).toHaveLength(model.dims);
    // Everything past 512 tokens is cut, so the differing tails cannot change the vector.
    closeVectors([a], [b]);
    expect(cosine(a, short)).toBeLessThan(0.999);
  });

  it('loads the q8 file too, giving vectors close to fp32', async () => {
    const q8 = await createTransformersEmbedder({
      modelId: model.modelId,
      modelDir: root,
      allowDownload: false,
      dtype: 'q8',
    });
    const [fp, qv] = [await embedder.embed([sampleTexts[0]]), await q8.embed([sampleTexts[0]])];
    expect(qv[0]).not.toEqual(fp[0]);
    expect(cosine(fp[0], qv[0])).toBeGreaterThan(0.99);
    await q8.dispose?.();
  });
});

describe('createTransformersEmbedder failures', () => {
  it('fails before touching the network when the model is missing and downloads are disabled', async () => {
    const err = await createTransformersEmbedder({
      modelId: 'nobody/missing-model',
      modelDir: root,
      allowDownload: false,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbedderUnavailableError);
    expect((err as EmbedderUnavailableError).reason).toBe('not_found');
    expect((err as Error).message).toMatch(/missing config\.json.*downloads are disabled/);
    expect((err as Error).message).toContain(path.join(root, 'nobody/missing-model'));
    expect(libFetch).not.toHaveBeenCalled();
    expect(globalFetch).not.toHaveBeenCalled();
  });

  it('names the missing file when the folder is incomplete', async () => {
    const dir = path.join(root, 'partial/model');
    await cp(path.join(root, model.modelId), dir, { recursive: true });
    await rm(path.join(dir, 'onnx', 'model.onnx'));
    const err = await createTransformersEmbedder({
      modelId: 'partial/model',
      modelDir: root,
      allowDownload: false,
    }).catch((e: unknown) => e);
    expect((err as EmbedderUnavailableError).reason).toBe('not_found');
    expect((err as Error).message).toMatch(/missing onnx\/model\.onnx in/);
  });

  it.each([
    ['onnx/model.onnx', Buffer.from('this is not a protobuf model at all')],
    ['tokenizer.json', Buffer.from('{"version": "1.0", "model": ')],
    ['config.json', Buffer.from('{ nope')],
  ])('reports corrupt files (%s) as corrupt', async (file, bytes) => {
    const id = `corrupt/${file.replace(/\W/g, '-')}`;
    await cp(path.join(root, model.modelId), path.join(root, id), { recursive: true });
    await writeFile(path.join(root, id, file), bytes);
    const err = await createTransformersEmbedder({ modelId: id, modelDir: root, allowDownload: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EmbedderUnavailableError);
    expect((err as EmbedderUnavailableError).reason).toBe('corrupt');
    expect(libFetch).not.toHaveBeenCalled();
  });

  it('with downloads allowed, tries the download and reports download_failed when it fails', async () => {
    const err = await createTransformersEmbedder({
      modelId: 'nobody/not-here',
      modelDir: root,
      allowDownload: true,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbedderUnavailableError);
    expect((err as EmbedderUnavailableError).reason).toBe('download_failed');
    expect(libFetch).toHaveBeenCalled();
    expect((err as Error).message).toMatch(/fetch failed/);
  });
});

describe('createTransformersEmbedder under concurrent callers', () => {
  it('answers each caller with its own vectors, in order, when their texts share model calls', async () => {
    const single = new Map<string, number[]>();
    for (const t of sampleTexts) single.set(t, (await embedder.embed([t]))[0]);
    // Ten callers at once, each with a slice of the samples (batchSize 4: texts from several
    // callers go into one call).
    const calls = Array.from({ length: 10 }, (_, i) => sampleTexts.slice(i % 5, (i % 5) + 1 + (i % 3)));
    const results = await Promise.all(calls.map((texts) => embedder.embed(texts)));
    results.forEach((vectors, i) =>
      closeVectors(
        vectors,
        calls[i].map((t) => single.get(t)!),
      ),
    );
    expect(await embedder.embed([])).toEqual([]);
  });
});
