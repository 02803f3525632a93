import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransformersEmbedder, type Embedder } from '../../../src/pipeline/embed/embedder.js';
import { embedDocument, meanNormalized } from '../../../src/pipeline/embed/index.js';
import { generateTinyModel } from '../../helpers/tiny-model.js';

/** A fake whose vectors are predictable: one-hot-ish by text length, already unit length. */
const fake: Embedder = {
  modelId: 'fake/len',
  dims: 3,
  embed: async (texts) => texts.map((t) => (t.length % 2 === 0 ? [1, 0, 0] : [0, 1, 0])),
};

describe('embedDocument', () => {
  it('returns chunk vectors and the normalised mean as the document vector', async () => {
    const text = ['aa', 'bbb', 'cccc'].map((w) => Array(10).fill(w).join(' ')).join('\n\n');
    const r = await embedDocument(text, fake, { chunkWords: 10, overlapWords: 0 });
    expect(r.modelId).toBe('fake/len');
    expect(r.dims).toBe(3);
    expect(r.totalChunks).toBe(3);
    expect(r.chunks.map((c) => c.index)).toEqual([0, 1, 2]);
    // 29-char chunks are odd ([0,1,0]) ×1, 39-char odd ×1, 49-char odd ×1 → all [0,1,0]
    expect(r.chunks.map((c) => c.text.length)).toEqual([29, 39, 49]);
    expect(r.documentVector).toEqual([0, 1, 0]);
  });

  it('averages different vectors and renormalises', async () => {
    const text = 'ab ab\n\nabc ab'; // chunk texts "ab ab" (odd) and "abc ab" (even)
    const r = await embedDocument(text, fake, { chunkWords: 2, overlapWords: 0 });
    expect(r.chunks.map((c) => c.vector)).toEqual([
      [0, 1, 0],
      [1, 0, 0],
    ]);
    expect(r.documentVector![0]).toBeCloseTo(Math.SQRT1_2, 10);
    expect(r.documentVector![1]).toBeCloseTo(Math.SQRT1_2, 10);
    expect(r.documentVector![2]).toBe(0);
  });

  it('embeds nothing for empty text and gives no document vector', async () => {
    let calls = 0;
    const counting: Embedder = {
      ...fake,
      embed: async (t) => {
        calls++;
        return fake.embed(t);
      },
    };
    const r = await embedDocument('  \n ', counting);
    expect(r).toMatchObject({ chunks: [], totalChunks: 0, documentVector: null });
    expect(calls).toBe(0);
  });

  it('rejects an embedder that returns the wrong number of vectors', async () => {
    const broken: Embedder = { ...fake, embed: async () => [] };
    await expect(embedDocument('some text', broken)).rejects.toThrow(/0 vectors for 1 chunks/);
  });

  it('meanNormalized leaves a zero mean as zeros instead of dividing by zero', () => {
    expect(
      meanNormalized(
        [
          [1, 0],
          [-1, 0],
        ],
        2,
      ),
    ).toEqual([0, 0]);
  });
});

describe('embedDocument with the tiny transformers model', () => {
  let root: string;
  let embedder: Embedder;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'docpipe-embdoc-'));
    const m = await generateTinyModel(root);
    embedder = await createTransformersEmbedder({
      modelId: m.modelId,
      modelDir: root,
      allowDownload: false,
      batchSize: 8,
    });
  });
  afterAll(async () => {
    await embedder?.dispose?.();
    await rm(root, { recursive: true, force: true });
  });

  it('caps a long document at maxChunks and the document vector is the normalised chunk mean', async () => {
    const paragraph = 'The supplier shall deliver the goods to the customer address stated on the purchase order. ';
    const text = Array.from({ length: 300 }, (_, i) => `${i}. ${paragraph.repeat(3)}`).join('\n\n');
    const r = await embedDocument(text, embedder, { maxChunks: 10 });
    expect(r.chunks).toHaveLength(10);
    expect(r.totalChunks).toBeGreaterThan(10);
    expect(r.chunks[0].index).toBe(0);
    expect(r.chunks[9].index).toBe(r.totalChunks - 1);
    const mean = meanNormalized(
      r.chunks.map((c) => c.vector),
      r.dims,
    );
    expect(r.documentVector).toEqual(mean);
    expect(Math.hypot(...r.documentVector!)).toBeCloseTo(1, 6);
    // Same text, same vectors (stored vectors can be compared across runs).
    const again = await embedDocument(text, embedder, { maxChunks: 10 });
    expect(again.documentVector).toEqual(r.documentVector);
  });

  it('survives hostile text: control and NUL characters, lone surrogates, CJK, RTL, one enormous word', async () => {
    const text = [
      'Total\u0000 due\u0007 \u001b[31m 12.00',
      'bad \ud800 surrogate \udfff here',
      '請求書 合計 ¥12,000 — فاتورة رقم ١٢٣',
      'x'.repeat(50_000),
      '\u200b\u200b\ufeff zero width',
    ].join('\n\n');
    const r = await embedDocument(text, embedder);
    expect(r.chunks.length).toBeGreaterThan(0);
    for (const c of r.chunks) {
      expect(c.vector).toHaveLength(r.dims);
      expect(c.vector.every(Number.isFinite)).toBe(true);
    }
    expect(Math.hypot(...r.documentVector!)).toBeCloseTo(1, 6);
  });
});
