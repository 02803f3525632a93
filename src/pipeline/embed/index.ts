import { chunkText, type ChunkOptions } from './chunk.js';
import type { Embedder } from './embedder.js';

export { chunkText, type ChunkOptions, type ChunkResult, type TextChunk } from './chunk.js';
export { createTransformersEmbedder, type Embedder, type TransformersEmbedderOptions } from './embedder.js';
export { embeddingUnavailableWarning } from './advice.js';
export {
  createEmbedderLoader,
  type EmbedderLoader,
  type EmbedderLoaderOptions,
  type EmbedderStatus,
} from './loader.js';
export { EmbedderUnavailableError, type EmbedderUnavailableReason } from './errors.js';
export type { EmbedderDtype } from './model-files.js';

/** Options for {@link embedDocument}; see {@link ChunkOptions} for the defaults. */
export type EmbedDocumentOptions = ChunkOptions;

export interface EmbeddedChunk {
  /** Position among all chunks of the document (see {@link ChunkOptions.maxChunks}). */
  index: number;
  text: string;
  vector: number[];
}

export interface EmbeddedDocument {
  modelId: string;
  dims: number;
  chunks: EmbeddedChunk[];
  /** Chunks the text produced before the `maxChunks` cap; equal to `chunks.length` unless sampled. */
  totalChunks: number;
  /**
   * L2-normalised mean of the chunk vectors: one vector per document for nearest-neighbour
   * classification. `null` when the text is empty (nothing to embed; store no vector).
   */
  documentVector: number[] | null;
}

/** Normalised mean of unit vectors; returns the plain mean if it is the zero vector. */
export function meanNormalized(vectors: number[][], dims: number): number[] {
  const sum = new Array<number>(dims).fill(0);
  for (const v of vectors) for (let i = 0; i < dims; i++) sum[i] += v[i];
  const mean = sum.map((x) => x / vectors.length);
  const norm = Math.hypot(...mean);
  return norm > 0 ? mean.map((x) => x / norm) : mean;
}

/**
 * The embed stage: chunks the document text, embeds every chunk, and derives a document vector.
 * Pure apart from the embedder call; storing vectors and the model id is the caller's job.
 */
export async function embedDocument(
  text: string,
  embedder: Embedder,
  opts: EmbedDocumentOptions = {},
): Promise<EmbeddedDocument> {
  const { chunks, total } = chunkText(text, opts);
  const vectors = chunks.length > 0 ? await embedder.embed(chunks.map((c) => c.text)) : [];
  if (vectors.length !== chunks.length) {
    throw new Error(`embedder returned ${vectors.length} vectors for ${chunks.length} chunks`);
  }
  return {
    modelId: embedder.modelId,
    dims: embedder.dims,
    chunks: chunks.map((c, i) => ({ index: c.index, text: c.text, vector: vectors[i] })),
    totalChunks: total,
    documentVector: vectors.length > 0 ? meanNormalized(vectors, embedder.dims) : null,
  };
}
