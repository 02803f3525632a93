import { describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/pipeline/embed/chunk.js';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const countWords = (s: string) => s.split(/\s+/).filter(Boolean).length;

describe('chunkText', () => {
  it('gives no chunks for empty or whitespace-only text', () => {
    expect(chunkText('')).toEqual({ chunks: [], total: 0 });
    expect(chunkText(' \n\n\t \r\n ')).toEqual({ chunks: [], total: 0 });
  });

  it('keeps a short text as one chunk and collapses whitespace inside paragraphs', () => {
    const r = chunkText('Invoice   INV-1\nTotal: 10 EUR\n\n\nThank you.');
    expect(r.total).toBe(1);
    expect(r.chunks).toEqual([{ index: 0, text: 'Invoice INV-1 Total: 10 EUR\n\nThank you.' }]);
  });

  it('packs whole paragraphs up to the size and never splits a paragraph that fits', () => {
    const paras = [words(30, 'a'), words(30, 'b'), words(30, 'c')].map((w) => w.join(' '));
    const r = chunkText(paras.join('\n\n'), { chunkWords: 70, overlapWords: 0 });
    expect(r.chunks.map((c) => c.text)).toEqual([`${paras[0]}\n\n${paras[1]}`, paras[2]]);
  });

  it('splits a long paragraph at sentence ends, with every chunk within the limit', () => {
    const sentence = (i: number) => `${words(12, `s${i}_`).join(' ')}.`;
    const text = Array.from({ length: 20 }, (_, i) => sentence(i)).join(' ');
    const r = chunkText(text, { chunkWords: 50, overlapWords: 0 });
    expect(r.chunks.length).toBe(5); // 4 sentences of 12 words per chunk
    for (const c of r.chunks) {
      expect(countWords(c.text)).toBeLessThanOrEqual(50);
      expect(c.text.endsWith('.')).toBe(true);
    }
  });

  it('cuts text without punctuation by word count and loses no word', () => {
    const all = words(1000);
    const r = chunkText(all.join(' '), { chunkWords: 100, overlapWords: 0 });
    expect(r.total).toBe(10);
    expect(r.chunks.flatMap((c) => c.text.split(' '))).toEqual(all);
  });

  it('repeats the last overlapWords words of a chunk at the start of the next', () => {
    const r = chunkText(words(500).join(' '), { chunkWords: 100, overlapWords: 10 });
    for (let i = 1; i < r.chunks.length; i++) {
      const prev = r.chunks[i - 1].text.split(' ');
      const cur = r.chunks[i].text.split(' ');
      expect(cur.slice(0, 10)).toEqual(prev.slice(-10));
      expect(cur.length).toBeLessThanOrEqual(100);
    }
    // Every word is covered, in order, once the overlap is removed.
    const rebuilt = r.chunks.flatMap((c, i) => c.text.split(' ').slice(i === 0 ? 0 : 10));
    expect(rebuilt).toEqual(words(500));
  });

  it('clamps an overlap that would stop the text from advancing', () => {
    const r = chunkText(words(100).join(' '), { chunkWords: 10, overlapWords: 50 });
    expect(r.total).toBeGreaterThan(10);
    expect(r.chunks.at(-1)!.text.endsWith('w99')).toBe(true);
  });

  it('caps huge documents at maxChunks with an even sample keeping first and last', () => {
    const r = chunkText(words(20_000).join(' '), { chunkWords: 100, overlapWords: 0, maxChunks: 5 });
    expect(r.total).toBe(200);
    expect(r.chunks.map((c) => c.index)).toEqual([0, 50, 100, 149, 199]);
    expect(r.chunks[0].text.startsWith('w0 ')).toBe(true);
    expect(r.chunks[4].text.endsWith('w19999')).toBe(true);
  });

  it('cuts absurdly long words so a chunk stays small whatever the input', () => {
    const blob = 'A'.repeat(1_000_000);
    const r = chunkText(`attachment ${blob} end`);
    expect(r.chunks).toEqual([{ index: 0, text: `attachment ${'A'.repeat(64)} end` }]);
    expect(chunkText(`x ${blob}`, { maxWordChars: 10 }).chunks[0].text).toBe(`x ${'A'.repeat(10)}`);
  });

  it('defaults to ~200-word chunks and at most 64 of them', () => {
    const r = chunkText(words(100_000).join(' '));
    expect(r.chunks.length).toBe(64);
    expect(r.total).toBeGreaterThan(500);
    for (const c of r.chunks) expect(countWords(c.text)).toBeLessThanOrEqual(200);
    expect(countWords(r.chunks[1].text)).toBeGreaterThan(150);
  });
});
