// All of search's SQL: keyword (full-text), semantic (chunk vectors: HNSW or an exact scan),
// similar documents (document vectors, else MinHash signatures). Every query is scoped by
// organization and environment.
import type { Db, Queryable } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { SEARCH_CHARS } from '../../lib/text-search.js';
import { HEADLINE_OPTIONS, HEADLINE_STRIP } from './highlight.js';
import { parseQuery, tsquerySql } from './query.js';

export interface SearchFilters {
  project_id?: string;
  classification?: string;
  status?: string;
}

/** A document as a search result names it. */
export interface FoundDocument {
  id: string;
  filename: string;
  project_id: string;
  classification: string | null;
  status: string;
}

const DOC_COLUMNS = `d.id, d.filename, d.project_id, d.classification->>'type' AS classification, d.status`;

function scopeWhere(scope: Scope, f: SearchFilters) {
  const params: unknown[] = [scope.orgId, scope.environment];
  const where = ['d.org_id = $1', 'd.environment = $2'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.project_id) add('d.project_id = ?', f.project_id);
  if (f.status) add('d.status = ?', f.status);
  if (f.classification) add(`d.classification->>'type' = ?`, f.classification);
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  return { params, where, param };
}

/** pgvector's text form of a vector ('[0.1,0.2]'): one parameter instead of a float array. */
const vectorLiteral = (v: number[]) => `[${v.join(',')}]`;

/**
 * HNSW candidates kept per step of the graph search, at least (pgvector's own default; callers ask
 * more for a deeper page or a wider search).
 */
const HNSW_EF_SEARCH = 40;

/**
 * HNSW candidates are read with pgvector's iterative scan: the organization and filters are
 * checked as the index yields rows, and the scan goes on (up to hnsw.max_scan_tuples) until
 * enough pass. `ef` is how many candidates each step keeps.
 */
async function withIterativeScan<T>(db: Db, ef: number, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return db.tx(async (q) => {
    await q.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
    await q.query(`SET LOCAL hnsw.ef_search = ${Math.max(HNSW_EF_SEARCH, Math.min(1000, Math.trunc(ef)))}`);
    return fn(q);
  });
}

/** Keyword matches ranked at most (the rest of a very broad query's matches go unranked). */
export const KEYWORD_CANDIDATES = 1000;

/**
 * Chunks the sign-bit prefilter hands to the exact rerank, at least: the bits keep the order of
 * near vectors only roughly, so the rerank needs a wide margin (the search bench's recall@10 against
 * the exact scan chose it).
 */
const SIGNATURE_CANDIDATES = 400;

/**
 * Candidates at most, whatever page is asked for: each comes back with its vector (~3 KB), so a
 * deep page (offset up to 10,000) must not pull tens of thousands. A page past it answers short
 * and is served by the exact scan, which the database bounds itself.
 */
const MAX_SIGNATURE_CANDIDATES = 4000;

/** The sign bits of a vector as `bit varying` text ('1' where a component is positive). */
export const signBits = (v: number[]) => v.map((x) => (x > 0 ? '1' : '0')).join('');

/** PostgreSQL's type oid of `real` (float4). */
const FLOAT4_OID = 700;

/**
 * The values of a one-dimensional float4 array in PostgreSQL's binary form (array_send:
 * dimensions, null flag, element type, length and lower bound, then a length and a big-endian
 * float per element); null for anything else (more dimensions, a null element, another type).
 */
export function float4Values(bin: Uint8Array): Float32Array | null {
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  if (bin.byteLength < 20 || view.getInt32(0) !== 1 || view.getInt32(4) !== 0 || view.getInt32(8) !== FLOAT4_OID)
    return null;
  const n = view.getInt32(12);
  if (n < 0 || bin.byteLength !== 20 + 8 * n) return null;
  const out = new Float32Array(n);
  for (let i = 0, at = 20; i < n; i++, at += 8) {
    if (view.getInt32(at) !== 4) return null;
    out[i] = view.getFloat32(at + 4);
  }
  return out;
}

/** The dot product of such an array with `q`; null when it is not one of `q.length` floats. */
export function dotFloat4Array(bin: Uint8Array, q: ArrayLike<number>): number | null {
  const v = float4Values(bin);
  if (!v || v.length !== q.length) return null;
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += v[i] * q[i];
  return dot;
}

export function createSearchRepository(
  db: Db,
  opts: { keywordCandidates?: number; signatureCandidates?: number; hnswEfSearch?: number } = {},
) {
  const candidates = opts.keywordCandidates ?? KEYWORD_CANDIDATES;
  const signatureCandidates = opts.signatureCandidates ?? SIGNATURE_CANDIDATES;
  const hnswEfSearch = opts.hnswEfSearch ?? HNSW_EF_SEARCH;
  return {
    /** Full-text matches, best first, with ts_headline of the top ones. */
    async keyword(
      scope: Scope,
      f: SearchFilters,
      q: string,
      limit: number,
      offset: number,
    ): Promise<(FoundDocument & { score: number; headline: string | null })[]> {
      const { params, where, param } = scopeWhere(scope, f);
      const parsed = parseQuery(q);
      const query = tsquerySql(parsed, param);
      const lim = param(limit);
      const off = param(offset);
      const strip = param(HEADLINE_STRIP);
      const opts = param(HEADLINE_OPTIONS);
      const cap = param(Math.max(candidates, offset + limit));
      // Ranking reads every ranked row's tsvector (TOASTed, so a detoast each): a query of common
      // words matches a large share of the organization and ranking all of it cost ~0.7 s at
      // 100k documents. So the GIN index yields at most `cap` matches (no ORDER BY: the bitmap
      // scan stops early) and only those are ranked; only the page's rows get ts_headline.
      // They are ranked in the scan that found them: ranking after a join back to documents
      // looked each row up again by key, which cost as much as the ranking (PostgreSQL, 358
      // matches: 6.7 against 3.4 ms).
      const { rows } = await db.query<FoundDocument & { score: number; headline: string | null }>(
        `WITH q AS MATERIALIZED (SELECT ${query} AS query),
         cand AS MATERIALIZED (
           SELECT d.id, d.created_at, ts_rank_cd(d.search, (SELECT query FROM q), 32) AS score FROM documents d
            WHERE ${where.join(' AND ')} AND d.search @@ (SELECT query FROM q) LIMIT ${cap}::int),
         hits AS (
           SELECT id, score, created_at FROM cand
            ORDER BY score DESC, created_at DESC, id LIMIT ${lim}::int OFFSET ${off}::int)
         SELECT ${DOC_COLUMNS}, hits.score,
           ts_headline(coalesce(d.search_config, 'simple')::regconfig,
             translate(left(coalesce(d.text_content, ''), ${SEARCH_CHARS}), ${strip}::text, ''), q.query, ${opts}::text) AS headline
           FROM hits JOIN documents d ON d.id = hits.id, q
          ORDER BY hits.score DESC, hits.created_at DESC, d.id`,
        params,
      );
      return rows;
    },

    /**
     * Documents whose chunks are nearest to `vector` (cosine: the vectors are normalised), each
     * with its best chunk. An exact scan of the organization's chunks.
     */
    async semantic(
      scope: Scope,
      f: SearchFilters,
      vector: number[],
      modelId: string,
      limit: number,
      offset: number,
    ): Promise<(FoundDocument & { score: number; content: string })[]> {
      const { params, where, param } = scopeWhere(scope, f);
      const v = param(vector);
      const m = param(modelId);
      const lim = param(limit);
      const off = param(offset);
      const { rows } = await db.query<FoundDocument & { score: number; content: string }>(
        `WITH scored AS (
           SELECT c.document_id, c.content,
             (SELECT sum(a * b) FROM unnest(c.embedding, ${v}::real[]) AS t(a, b)) AS score
             FROM document_chunks c JOIN documents d ON d.id = c.document_id
            WHERE ${where.join(' AND ')} AND c.model_id = ${m}::text),
         best AS (SELECT DISTINCT ON (document_id) document_id, content, score FROM scored ORDER BY document_id, score DESC)
         SELECT ${DOC_COLUMNS}, best.score, best.content
           FROM best JOIN documents d ON d.id = best.document_id
          ORDER BY best.score DESC, d.id LIMIT ${lim}::int OFFSET ${off}::int`,
        params,
      );
      return rows.map((r) => ({ ...r, score: Number(r.score) }));
    },

    /**
     * As {@link semantic}, for a database without pgvector: the organization's chunks nearest by
     * the Hamming distance of their sign bits (chunk_signatures, migration 0018), then those
     * reranked by the exact dot product and each document's best kept. Approximate like HNSW:
     * the filters apply after the prefilter, so fewer documents than asked sends the caller to
     * the exact scan.
     */
    async semanticSigned(
      scope: Scope,
      f: SearchFilters,
      vector: number[],
      modelId: string,
      limit: number,
      offset: number,
      /** Chunks handed to the rerank, at least (default: the repository's). */
      candidates: number = signatureCandidates,
    ): Promise<(FoundDocument & { score: number; content: string })[]> {
      const { params, where, param } = scopeWhere(scope, f);
      const bits = param(signBits(vector));
      const m = param(modelId);
      // Several chunks of one document can be near: read more chunks than documents wanted.
      const k = param(Math.min(MAX_SIGNATURE_CANDIDATES, Math.max(candidates, (offset + limit) * 8)));
      // The candidates' vectors come back in the binary array form and are scored here: a dot
      // product in SQL is a set-returning subquery per row (~0.08 ms each), in JavaScript ~1 µs.
      const { rows } = await db.query<FoundDocument & { content: string; v: Uint8Array }>(
        `WITH near AS MATERIALIZED (
           SELECT s.document_id, s.chunk_index FROM chunk_signatures s
            WHERE s.org_id = $1 AND s.environment = $2 AND s.model_id = ${m}::text
              AND length(s.bits) = length(${bits}::bit varying)
            ORDER BY bit_count(s.bits # ${bits}::bit varying), s.document_id, s.chunk_index LIMIT ${k}::int)
         SELECT ${DOC_COLUMNS}, c.content, array_send(c.embedding) AS v
           FROM near JOIN document_chunks c USING (document_id, chunk_index)
           JOIN documents d ON d.id = c.document_id
          WHERE ${where.join(' AND ')}`,
        params,
      );
      // Each document's best chunk, best first (ties by id, as the exact scan orders them).
      const best = new Map<string, FoundDocument & { score: number; content: string }>();
      for (const { v, ...r } of rows) {
        const score = dotFloat4Array(v, vector);
        const cur = best.get(r.id);
        if (score !== null && (!cur || score > cur.score)) best.set(r.id, { ...r, score });
      }
      return [...best.values()]
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(offset, offset + limit);
    },

    /**
     * As {@link semantic}, through the HNSW index of `vector.length` dimensions: the nearest
     * chunks of the organization, then each document's best. Approximate (the index's recall);
     * fewer documents than asked means the scan ran out and the caller falls back to the exact scan.
     */
    async semanticHnsw(
      scope: Scope,
      f: SearchFilters,
      vector: number[],
      modelId: string,
      limit: number,
      offset: number,
      /** ef_search at least this (default: the repository's floor); more for a deeper page. */
      efSearch: number = hnswEfSearch,
    ): Promise<(FoundDocument & { score: number; content: string })[]> {
      const dims = vector.length;
      const { params, where, param } = scopeWhere(scope, f);
      const v = param(vectorLiteral(vector));
      const m = param(modelId);
      // Several chunks of one document can be near: read more chunks than documents wanted.
      const chunks = (offset + limit) * 4 + 20;
      const k = param(chunks);
      const lim = param(limit);
      const off = param(offset);
      const expr = `(c.embedding::vector(${dims}))`;
      return withIterativeScan(db, Math.max(efSearch, chunks), async (q) => {
        const { rows } = await q.query<FoundDocument & { score: number; content: string }>(
          `WITH near AS MATERIALIZED (
             SELECT c.document_id, c.content, ${expr} <=> ${v}::vector(${dims}) AS distance
               FROM document_chunks c JOIN documents d ON d.id = c.document_id
              WHERE ${where.join(' AND ')} AND c.model_id = ${m}::text AND array_length(c.embedding, 1) = ${dims}
              ORDER BY ${expr} <=> ${v}::vector(${dims}) LIMIT ${k}::int),
           best AS (SELECT DISTINCT ON (document_id) document_id, content, 1 - distance AS score
                      FROM near ORDER BY document_id, distance)
           SELECT ${DOC_COLUMNS}, best.score, best.content
             FROM best JOIN documents d ON d.id = best.document_id
            ORDER BY best.score DESC, d.id LIMIT ${lim}::int OFFSET ${off}::int`,
          params,
        );
        return rows.map((r) => ({ ...r, score: Number(r.score) }));
      });
    },

    /** The document's own vector and fingerprint (null: not this organization's document). */
    async source(
      scope: Scope,
      id: string,
    ): Promise<{
      has_vector: boolean;
      dims: number | null;
      signature: number[] | null;
      band_keys: string[] | null;
    } | null> {
      const { rows } = await db.query<{
        has_vector: boolean;
        dims: number | null;
        signature: number[] | null;
        band_keys: string[] | null;
      }>(
        `SELECT d.embedding IS NOT NULL AND d.embedding_model IS NOT NULL AS has_vector,
                array_length(d.embedding, 1) AS dims, m.signature, m.band_keys
           FROM documents d LEFT JOIN document_minhash m ON m.document_id = d.id
          WHERE d.id = $1 AND d.org_id = $2 AND d.environment = $3`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    /** Nearest documents by document vector (same model), an exact scan. */
    async similarByVector(scope: Scope, id: string, limit: number): Promise<(FoundDocument & { score: number })[]> {
      const { rows } = await db.query<FoundDocument & { score: number }>(
        `SELECT ${DOC_COLUMNS}, (SELECT sum(a * b) FROM unnest(d.embedding, s.embedding) AS t(a, b)) AS score
           FROM documents d, (SELECT embedding, embedding_model FROM documents WHERE id = $3) s
          WHERE d.org_id = $1 AND d.environment = $2 AND d.id <> $3 AND d.embedding IS NOT NULL
            AND d.embedding_model = s.embedding_model
          ORDER BY score DESC, d.id LIMIT $4`,
        [scope.orgId, scope.environment, id, limit],
      );
      return rows.map((r) => ({ ...r, score: Number(r.score) }));
    },

    /**
     * As {@link similarByVector}, for a database without pgvector: the documents owning the
     * organization's chunks nearest to this document's vector by sign bits, ranked by the exact
     * dot product of the document vectors. Approximate; a short answer sends the caller to the
     * exact scan.
     */
    async similarBySignatures(scope: Scope, id: string, limit: number): Promise<(FoundDocument & { score: number })[]> {
      const { rows } = await db.query<FoundDocument & { v: Uint8Array; src: Uint8Array }>(
        `WITH s AS MATERIALIZED (
           SELECT embedding, embedding_model, embedding_sign_bits(embedding) AS bits FROM documents
            WHERE id = $3 AND org_id = $1 AND environment = $2 AND embedding IS NOT NULL),
         near AS MATERIALIZED (
           SELECT DISTINCT n.document_id FROM (
             SELECT c.document_id FROM chunk_signatures c, s
              WHERE c.org_id = $1 AND c.environment = $2 AND c.model_id = s.embedding_model
                AND length(c.bits) = length(s.bits)
              ORDER BY bit_count(c.bits # s.bits) LIMIT $4::int) n)
         SELECT ${DOC_COLUMNS}, array_send(d.embedding) AS v, (SELECT array_send(embedding) FROM s) AS src
           FROM near JOIN documents d ON d.id = near.document_id, s
          WHERE d.id <> $3 AND d.embedding IS NOT NULL AND d.embedding_model = s.embedding_model`,
        [
          scope.orgId,
          scope.environment,
          id,
          Math.min(MAX_SIGNATURE_CANDIDATES, Math.max(signatureCandidates, limit * 8)),
        ],
      );
      const src = rows[0] ? float4Values(rows[0].src) : null;
      if (!src) return [];
      const scored: (FoundDocument & { score: number })[] = [];
      for (const { v, src: _src, ...r } of rows) {
        const score = dotFloat4Array(v, src);
        if (score !== null) scored.push({ ...r, score });
      }
      return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit);
    },

    /** As {@link similarByVector}, through the HNSW index of the document vectors' dimension. */
    async similarByVectorHnsw(
      scope: Scope,
      id: string,
      dims: number,
      limit: number,
    ): Promise<(FoundDocument & { score: number })[]> {
      const expr = `(d.embedding::vector(${dims}))`;
      return withIterativeScan(db, Math.max(hnswEfSearch, limit * 2), async (q) => {
        const src = await q.query<{ embedding: number[]; embedding_model: string }>(
          `SELECT embedding, embedding_model FROM documents WHERE id = $1`,
          [id],
        );
        if (!src.rows[0]) return [];
        const { rows } = await q.query<FoundDocument & { score: number }>(
          `SELECT ${DOC_COLUMNS}, 1 - (${expr} <=> $4::vector(${dims})) AS score
             FROM documents d
            WHERE d.org_id = $1 AND d.environment = $2 AND d.id <> $3 AND d.embedding_model = $5
              AND array_length(d.embedding, 1) = ${dims}
            ORDER BY ${expr} <=> $4::vector(${dims}) LIMIT $6`,
          [
            scope.orgId,
            scope.environment,
            id,
            vectorLiteral(src.rows[0].embedding),
            src.rows[0].embedding_model,
            limit,
          ],
        );
        return rows.map((r) => ({ ...r, score: Number(r.score) }));
      });
    },

    /** Documents sharing an LSH band with the given keys, with their signatures (a GIN lookup). */
    async minhashCandidates(
      scope: Scope,
      id: string,
      bandKeys: string[],
      max: number,
    ): Promise<(FoundDocument & { signature: number[] })[]> {
      const { rows } = await db.query<FoundDocument & { signature: number[] }>(
        `SELECT ${DOC_COLUMNS}, m.signature
           FROM document_minhash m JOIN documents d ON d.id = m.document_id
          WHERE m.band_keys && $1::bigint[] AND m.org_id = $2 AND m.environment = $3 AND m.document_id <> $4
            AND d.org_id = $2 AND d.environment = $3
          LIMIT $5`,
        [bandKeys, scope.orgId, scope.environment, id, max],
      );
      return rows;
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;
