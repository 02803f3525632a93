import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTinyModel } from '../../helpers/tiny-model.js';

const FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
];

describe('generateTinyModel', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'docpipe-tiny-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes the transformers.js layout under <root>/<modelId>', async () => {
    const m = await generateTinyModel(root);
    expect(m).toEqual({
      modelId: 'docpipe-test/tiny-bert',
      dir: path.join(root, 'docpipe-test', 'tiny-bert'),
      dims: 32,
    });
    expect((await readdir(m.dir)).sort()).toEqual(['config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
    const config = JSON.parse(await readFile(path.join(m.dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'bert', hidden_size: 32 });
    const tok = JSON.parse(await readFile(path.join(m.dir, 'tokenizer.json'), 'utf8'));
    for (const [i, t] of ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].entries()) expect(tok.model.vocab[t]).toBe(i);
    for (const ch of 'az09') expect(tok.model.vocab[`##${ch}`]).toBeTypeOf('number');
  });

  it('is byte-for-byte deterministic per seed and differs across seeds', async () => {
    const a = await generateTinyModel(root, 'seed/a');
    const b = await generateTinyModel(root, 'seed/b');
    const c = await generateTinyModel(root, 'seed/c', { seed: 99, hidden: 16 });
    for (const f of FILES) {
      expect((await readFile(path.join(a.dir, f))).equals(await readFile(path.join(b.dir, f)))).toBe(true);
    }
    expect(c.dims).toBe(16);
    expect(
      (await readFile(path.join(a.dir, 'onnx/model.onnx'))).equals(await readFile(path.join(c.dir, 'onnx/model.onnx'))),
    ).toBe(false);
  });
});
