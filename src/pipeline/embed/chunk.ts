/** Options for {@link chunkText}. */
export interface ChunkOptions {
  /**
   * Target chunk size in words (a cheap stand-in for tokens; English averages ~1.3 WordPiece
   * tokens per word, so 200 words stays near MiniLM's 256-token training length). Default 200.
   */
  chunkWords?: number;
  /** Words repeated from the end of one chunk at the start of the next, so a sentence cut at a boundary is seen whole once. Default 20; clamped to under half of `chunkWords`. */
  overlapWords?: number;
  /**
   * Most chunks kept per document. Default 64. Longer documents keep an evenly spaced sample
   * (always the first and the last chunk); the chunks in between are not embedded. This bounds
   * the work for a 500-page PDF while the document vector still sees its whole span.
   */
  maxChunks?: number;
  /**
   * Longer "words" (base64 blobs, hashes, minified data) are cut to this many characters. The
   * tokenizer maps such words to a single unknown token anyway; the cut keeps a chunk's size
   * bounded by `chunkWords` × this, whatever the input. Default 64.
   */
  maxWordChars?: number;
}

export interface TextChunk {
  /** Position among all chunks of the document (gaps appear when the document was sampled). */
  index: number;
  text: string;
}

export interface ChunkResult {
  chunks: TextChunk[];
  /** Chunks the whole text produced before sampling; greater than `chunks.length` when capped. */
  total: number;
}

interface Unit {
  words: string[];
  /** Starts a new paragraph (rendered with a blank line before it). */
  para: boolean;
}

/** Splits text into paragraph/sentence units of at most `max` words each. */
function toUnits(text: string, max: number, maxWordChars: number): Unit[] {
  const split = (s: string) =>
    s
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => (w.length > maxWordChars ? w.slice(0, maxWordChars) : w));
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n[ \t\f\v\r]*\n/)) {
    const words = split(paragraph);
    if (words.length === 0) continue;
    if (words.length <= max) {
      units.push({ words, para: true });
      continue;
    }
    // Long paragraph: sentence by sentence, and very long "sentences" (tables, lists, OCR
    // output without punctuation) by plain word count.
    let first = true;
    for (const sentence of paragraph.split(/(?<=[.!?;:])\s+/)) {
      const sw = split(sentence);
      for (let i = 0; i < sw.length; i += max) {
        units.push({ words: sw.slice(i, i + max), para: first });
        first = false;
      }
    }
  }
  return units;
}

function render(units: Unit[]): string {
  return units.map((u, i) => (i === 0 ? '' : u.para ? '\n\n' : ' ') + u.words.join(' ')).join('');
}

/** Evenly spaced indices from 0 to n-1, `k` of them (k < n), first and last included. */
function sampleIndices(n: number, k: number): number[] {
  if (k <= 1) return [0];
  const out: number[] = [];
  for (let i = 0; i < k; i++) out.push(Math.round((i * (n - 1)) / (k - 1)));
  return out;
}

/**
 * Splits document text into chunks of about `chunkWords` words, breaking at paragraph and then
 * sentence boundaries, with `overlapWords` words carried over between consecutive chunks.
 * Whitespace inside a paragraph is collapsed; paragraphs are kept apart by a blank line.
 * Empty or whitespace-only text gives no chunks.
 */
export function chunkText(text: string, opts: ChunkOptions = {}): ChunkResult {
  const chunkWords = Math.max(1, Math.floor(opts.chunkWords ?? 200));
  const overlap = Math.max(0, Math.min(Math.floor(opts.overlapWords ?? 20), Math.ceil(chunkWords / 2) - 1));
  const maxChunks = Math.max(1, Math.floor(opts.maxChunks ?? 64));
  // Units leave room for the overlap so that overlap + one unit always fits in a chunk.
  const maxWordChars = Math.max(1, Math.floor(opts.maxWordChars ?? 64));
  const units = toUnits(text, chunkWords - overlap, maxWordChars);

  const texts: string[] = [];
  let current: Unit[] = [];
  let words = 0;
  let fresh = false; // whether `current` holds anything beyond the carried-over overlap
  for (const unit of units) {
    if (fresh && words + unit.words.length > chunkWords) {
      texts.push(render(current));
      const carried = overlap > 0 ? current.flatMap((u) => u.words).slice(-overlap) : [];
      current = carried.length > 0 ? [{ words: carried, para: false }] : [];
      words = carried.length;
    }
    current.push(unit);
    words += unit.words.length;
    fresh = true;
  }
  if (fresh) texts.push(render(current));

  const all = texts.map((t, index) => ({ index, text: t }));
  const chunks = all.length > maxChunks ? sampleIndices(all.length, maxChunks).map((i) => all[i]) : all;
  return { chunks, total: all.length };
}
