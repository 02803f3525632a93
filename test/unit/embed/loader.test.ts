import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../../../src/pipeline/embed/embedder.js';
import { EmbedderUnavailableError } from '../../../src/pipeline/embed/errors.js';
import { createEmbedderLoader } from '../../../src/pipeline/embed/loader.js';
import { generateTinyModel } from '../../helpers/tiny-model.js';

const fake: Embedder = { modelId: 'fake/model', dims: 2, embed: async (t) => t.map(() => [1, 0]) };

let root: string;
const libFetch = vi.fn(async () => {
  throw new TypeError('fetch failed');
});
let globalFetch: ReturnType<typeof vi.spyOn>;
// The library's settings are process-wide and test files share the process: put them back after.
const saved = { fetch: env.fetch, localModelPath: env.localModelPath };

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'docpipe-loader-'));
  env.fetch = libFetch as typeof env.fetch;
  globalFetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    throw new TypeError('fetch failed');
  });
});
afterAll(async () => {
  globalFetch?.mockRestore();
  env.fetch = saved.fetch;
  env.localModelPath = saved.localModelPath;
  await rm(root, { recursive: true, force: true });
});

describe('createEmbedderLoader (real transformers embedder)', () => {
  it('reports unavailable with a reason for a missing model with downloads disabled, never touching the network', async () => {
    const loader = createEmbedderLoader({ modelId: 'nobody/missing', modelDir: root, allowDownload: false });
    expect(await loader.get()).toBeNull();
    const s = loader.status();
    expect(s).toMatchObject({ state: 'unavailable', modelId: 'nobody/missing', code: 'not_found' });
    expect(s.reason).toMatch(/nobody\/missing.*not found.*downloads are disabled/);
    expect(libFetch).not.toHaveBeenCalled();
    expect(globalFetch).not.toHaveBeenCalled();
  });

  it('becomes ready once the model folder appears and the retry interval has passed', async () => {
    let t = 0;
    const loader = createEmbedderLoader({
      modelId: 'late/model',
      modelDir: root,
      allowDownload: false,
      retryAfterMs: 1000,
      now: () => t,
    });
    expect(await loader.get()).toBeNull();
    await generateTinyModel(root, 'late/model');
    t = 999;
    expect(await loader.get()).toBeNull(); // still inside the back-off: not retried
    t = 1000;
    const e = await loader.get();
    expect(e?.dims).toBe(32);
    expect(loader.status()).toEqual({ state: 'ready', modelId: 'late/model' });
    expect((await e!.embed(['hello']))[0]).toHaveLength(32);
    await loader.close();
  });
});

describe('createEmbedderLoader (fake factory)', () => {
  it('loads once, shares the in-flight load, and reports loading then ready', async () => {
    let release!: () => void;
    const create = vi.fn(
      () =>
        new Promise<Embedder>((r) => {
          release = () => r(fake);
        }),
    );
    const loader = createEmbedderLoader({ modelId: 'fake/model', allowDownload: false, create });
    const [a, b] = [loader.get(), loader.get()];
    expect(loader.status()).toEqual({ state: 'loading', modelId: 'fake/model' });
    release();
    expect(await a).toBe(fake);
    expect(await b).toBe(fake);
    expect(await loader.get()).toBe(fake);
    expect(create).toHaveBeenCalledTimes(1);
    expect(loader.status().state).toBe('ready');
  });

  it('status() starts the first load, so a readiness probe warms the model', async () => {
    const create = vi.fn(async () => fake);
    const loader = createEmbedderLoader({ modelId: 'fake/model', allowDownload: false, create });
    expect(loader.status().state).toBe('loading');
    expect(create).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(loader.status().state).toBe('ready'));
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('remembers a failure and retries at most once per interval', async () => {
    let t = 0;
    const create = vi.fn(async (): Promise<Embedder> => {
      throw new EmbedderUnavailableError('corrupt', 'fake/model', 'bad bytes');
    });
    const loader = createEmbedderLoader({
      modelId: 'fake/model',
      allowDownload: false,
      create,
      retryAfterMs: 5000,
      now: () => t,
    });
    for (let i = 0; i < 5; i++) expect(await loader.get()).toBeNull();
    expect(create).toHaveBeenCalledTimes(1);
    expect(loader.status()).toEqual({
      state: 'unavailable',
      modelId: 'fake/model',
      reason: 'bad bytes',
      code: 'corrupt',
    });
    t = 5000;
    expect(await loader.get()).toBeNull();
    expect(create).toHaveBeenCalledTimes(2);
  });

  it('status() retries in the background once due, reporting the old failure until it succeeds', async () => {
    let t = 0;
    let fail = true;
    const create = vi.fn(async (): Promise<Embedder> => {
      if (fail) throw new EmbedderUnavailableError('not_found', 'fake/model', 'no files');
      return fake;
    });
    const loader = createEmbedderLoader({
      modelId: 'fake/model',
      allowDownload: false,
      create,
      retryAfterMs: 100,
      now: () => t,
    });
    expect(await loader.get()).toBeNull();
    fail = false;
    expect(loader.status()).toMatchObject({ state: 'unavailable', reason: 'no files' });
    expect(create).toHaveBeenCalledTimes(1); // not due yet
    t = 100;
    expect(loader.status()).toMatchObject({ state: 'unavailable', reason: 'no files' }); // retry started
    expect(create).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(loader.status().state).toBe('ready'));
    expect(create).toHaveBeenCalledTimes(2);
  });

  it('keeps the message of unexpected errors too', async () => {
    const loader = createEmbedderLoader({
      modelId: 'x/y',
      allowDownload: false,
      create: async () => {
        throw new Error('boom');
      },
    });
    expect(await loader.get()).toBeNull();
    expect(loader.status()).toEqual({ state: 'unavailable', modelId: 'x/y', reason: 'boom' });
  });

  it('close() disposes the loaded embedder', async () => {
    const dispose = vi.fn(async () => {});
    const loader = createEmbedderLoader({
      modelId: 'fake/model',
      allowDownload: false,
      create: async () => ({ ...fake, dispose }),
    });
    await loader.get();
    await loader.close();
    expect(dispose).toHaveBeenCalledTimes(1);
  });
});
