// Search over an organization's documents: keyword (PostgreSQL full-text), semantic (chunk
// vectors) and hybrid (reciprocal rank fusion of both), plus similar documents.
import { errors } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import type { Embedder } from '../../pipeline/embed/index.js';
import { signatureSimilarity } from '../../pipeline/dedup/index.js';
import { excerpt, headlineToHighlights, type Highlight } from './highlight.js';
import type { FoundDocument, SearchFilters, SearchRepository } from './search.repository.js';
import type { VectorIndex } from './vector-index.js';

export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface SearchInput extends SearchFilters {
  q: string;
  mode?: SearchMode;
  limit: number;
  offset: number;
}

export interface SearchResult {
  document: FoundDocument;
  score: number;
  highlights: Highlight[];
}

/** Reciprocal rank fusion's constant (the usual 60: ranks past the first few count alike). */
const RRF_K = 60;
/** How deep each list is read for fusion (offset + limit, at most this). */
const FUSION_DEPTH = 200;
/**
 * HNSW ef_search floor in semantic mode, where the vector list is the whole answer. At 100,000
 * documents on PGlite (search bench) recall@10 against the exact scan was 0.927 at the depth-based
 * 60, 0.935 at 100, 0.94 at 200 and 0.951 at 400, for p95 26, 14, 25 and 53 ms. Hybrid keeps the
 * depth-based width: its vector list is one of two votes read to the page's depth, and the wider
 * search would double its time for little change in the fused order.
 */
const SEMANTIC_EF_SEARCH = 400;
/**
 * Sign-bit candidates for hybrid's vector list (semantic mode takes the repository's 400), for the
 * same reason: at 100,000 documents on PostgreSQL recall@10 was 0.941 at 200 against 0.957 at 400,
 * for p95 62 against 73 ms.
 */
const HYBRID_SIGNATURE_CANDIDATES = 200;
/** MinHash candidates read for similar documents. */
const SIMILAR_CANDIDATES = 500;

const round = (x: number) => Math.round(x * 10000) / 10000;

export function createSearchService(deps: {
  repo: SearchRepository;
  /** The loaded embedding model, or null when none is (semantic search is then unavailable). */
  embedder: () => Promise<Embedder | null>;
  /** Whether a model is loaded now (the default mode), without loading one. */
  modelReady: () => boolean;
  /**
   * HNSW where the database has pgvector; absent or unusable: the sign-bit prefilter, or the
   * exact scan where the server cannot run that (PostgreSQL before 14).
   */
  vectors?: Pick<VectorIndex, 'usable'> & Partial<Pick<VectorIndex, 'signatures'>>;
  /** ef_search floor in semantic mode (the bench varies it). */
  semanticEfSearch?: number;
  /** Sign-bit candidates in hybrid mode (the bench varies it). */
  hybridSignatureCandidates?: number;
}) {
  const semanticEf = deps.semanticEfSearch ?? SEMANTIC_EF_SEARCH;
  const hybridSigned = deps.hybridSignatureCandidates ?? HYBRID_SIGNATURE_CANDIDATES;
  const hnsw = (dims: number) => deps.vectors?.usable(dims) ?? false;
  const signed = () => deps.vectors?.signatures?.() ?? true;

  async function queryVector(q: string): Promise<{ vector: number[]; modelId: string }> {
    const e = await deps.embedder();
    if (!e) throw errors.invalidField('mode', 'semantic and hybrid search need an embedding model; none is loaded');
    const [vector] = await e.embed([q]);
    return { vector, modelId: e.modelId };
  }

  async function keyword(scope: Scope, input: SearchInput, limit: number, offset: number): Promise<SearchResult[]> {
    const rows = await deps.repo.keyword(scope, input, input.q, limit, offset);
    return rows.map(({ score, headline, ...document }) => ({
      document,
      score: round(Number(score)),
      highlights: headlineToHighlights(headline),
    }));
  }

  async function semantic(
    scope: Scope,
    input: SearchInput,
    limit: number,
    offset: number,
    /**
     * Semantic mode reads the index wide (its list is the answer); hybrid narrow (its list is one
     * of two votes): HNSW's ef_search and the sign-bit candidates.
     */
    wide: boolean,
  ): Promise<SearchResult[]> {
    const { vector, modelId } = await queryVector(input.q);
    // Both indexes are approximate and their scans bounded: a short answer (a small organization,
    // a narrow filter) is asked again of the exact scan, which is then cheap. Until a dimension's
    // HNSW index is built (or without pgvector) the sign-bit prefilter serves it.
    let rows = hnsw(vector.length)
      ? await deps.repo.semanticHnsw(scope, input, vector, modelId, limit, offset, wide ? semanticEf : undefined)
      : signed()
        ? await deps.repo.semanticSigned(scope, input, vector, modelId, limit, offset, wide ? undefined : hybridSigned)
        : [];
    if (rows.length < limit) rows = await deps.repo.semantic(scope, input, vector, modelId, limit, offset);
    return rows.map(({ score, content, ...document }) => ({
      document,
      score: round(score),
      highlights: [excerpt(content)],
    }));
  }

  return {
    async search(scope: Scope, input: SearchInput): Promise<{ mode: SearchMode; results: SearchResult[] }> {
      const mode = input.mode ?? (deps.modelReady() ? 'hybrid' : 'keyword');
      if (mode === 'keyword') return { mode, results: await keyword(scope, input, input.limit, input.offset) };
      if (mode === 'semantic') return { mode, results: await semantic(scope, input, input.limit, input.offset, true) };
      // Hybrid: each list's rank r adds 1/(K + r); a document found both ways keeps the keyword
      // highlights (they show why it matched).
      const depth = Math.min(FUSION_DEPTH, input.offset + input.limit);
      const [byWords, byMeaning] = await Promise.all([
        keyword(scope, input, depth, 0),
        semantic(scope, input, depth, 0, false),
      ]);
      const fused = new Map<string, SearchResult>();
      const add = (list: SearchResult[]) =>
        list.forEach((r, rank) => {
          const cur = fused.get(r.document.id);
          const s = 1 / (RRF_K + rank + 1);
          if (cur) {
            cur.score += s;
            if (cur.highlights.length === 0) cur.highlights = r.highlights;
          } else fused.set(r.document.id, { ...r, score: s });
        });
      add(byWords);
      add(byMeaning);
      const results = [...fused.values()]
        .sort((a, b) => b.score - a.score || a.document.id.localeCompare(b.document.id))
        .slice(input.offset, input.offset + input.limit)
        .map((r) => ({ ...r, score: round(r.score) }));
      return { mode, results };
    },

    /** Nearest documents of the organization: by vector when the document has one, else by MinHash. */
    async similar(
      scope: Scope,
      id: string,
      limit: number,
    ): Promise<{ method: 'embedding' | 'minhash'; results: { document: FoundDocument; similarity: number }[] }> {
      const src = await deps.repo.source(scope, id);
      if (!src) throw errors.notFound('Document');
      if (src.has_vector) {
        let rows =
          src.dims && hnsw(src.dims)
            ? await deps.repo.similarByVectorHnsw(scope, id, src.dims, limit)
            : signed()
              ? await deps.repo.similarBySignatures(scope, id, limit)
              : [];
        if (rows.length < limit) rows = await deps.repo.similarByVector(scope, id, limit);
        return {
          method: 'embedding',
          results: rows.map(({ score, ...document }) => ({ document, similarity: round(score) })),
        };
      }
      if (!src.signature || !src.band_keys) return { method: 'minhash', results: [] };
      const signature = src.signature;
      const rows = await deps.repo.minhashCandidates(scope, id, src.band_keys, SIMILAR_CANDIDATES);
      const results = rows
        .map(({ signature: other, ...document }) => ({
          document,
          similarity: round(signatureSimilarity(signature, other)),
        }))
        .sort((a, b) => b.similarity - a.similarity || a.document.id.localeCompare(b.document.id))
        .slice(0, limit);
      return { method: 'minhash', results };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
