// Which way semantic search and similar documents find vectors: pgvector's HNSW index where the
// database has the extension (PGlite always does: the package is loaded with it; PostgreSQL when
// the operator installed pgvector), else semantic search prefilters chunks by their sign bits
// (chunk_signatures, kept by a trigger on every database) and reranks exactly, and similar
// documents scan the organization's document vectors exactly.
//
// Vectors stay `real[]` (the tables work without pgvector); the indexes are partial expression
// indexes on `embedding::vector(D)` for each dimension D in use, so one table holds the vectors
// of models of different sizes and a cast never fails on insert. Dimensions come from the data at
// start-up and from the first query of a new model; until its index exists, that dimension is
// served by the sign-bit prefilter.
import type { Db } from '../../db/client.js';

/** pgvector indexes at most 2,000 dimensions of `vector`. */
const MAX_HNSW_DIMS = 2000;

/**
 * maintenance_work_mem for an HNSW build on PGlite. pgvector builds the graph in memory while it
 * fits and inserts tuple by tuple into the on-disk index after that: with PGlite's 64 MB default
 * the graph of ~38,000 384-dimension vectors fills it, and a 60,000-vector build took 376 s against
 * 152 s with room for the whole graph (measured in WebAssembly). 256 MB holds ~130,000 such vectors.
 * PGlite's memory does not shrink after it grows, so this is bounded rather than generous; on
 * PostgreSQL the server's own setting applies (a CONCURRENTLY build cannot take SET LOCAL, and a
 * session SET would leak through a transaction-mode pooler).
 */
const PGLITE_BUILD_MEMORY = '256MB';

const VALID_SQL = `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relname = $1 AND pg_table_is_visible(c.oid)`;

/** PostgreSQL's version number from which `bit_count` (the sign-bit prefilter's distance) exists. */
const SIGNATURES_FROM_VERSION = 140000;

export interface VectorIndexStatus {
  /**
   * `signatures`: no HNSW; the sign-bit prefilter with an exact rerank (see chunk_signatures).
   * `exact`: neither (PostgreSQL before 14 has no `bit_count`); every vector query scans.
   */
  backend: 'hnsw' | 'signatures' | 'exact';
  /** Why HNSW is not used (no extension, no permission). */
  reason?: string;
  /** Dimensions whose HNSW indexes are built. */
  dimensions: number[];
}

export interface VectorIndex {
  /**
   * Detects the extension and starts building indexes for the dimensions already stored (in the
   * background: until one is built, its dimension is served by the sign-bit prefilter).
   */
  init(): Promise<void>;
  /** True when queries of this dimension can use HNSW; starts building its index otherwise. */
  usable(dims: number): boolean;
  /** True when the sign-bit prefilter can run (PostgreSQL 14 or later, and PGlite). */
  signatures(): boolean;
  /** Builds the HNSW indexes for `dims` (idempotent); false when HNSW is not available. */
  ensure(dims: number): Promise<boolean>;
  status(): VectorIndexStatus;
}

export function indexNames(dims: number) {
  return { chunks: `document_chunks_hnsw_${dims}`, documents: `documents_embedding_hnsw_${dims}` };
}

export function createVectorIndex(
  db: Db,
  log: (msg: string, fields?: Record<string, unknown>) => void = () => undefined,
): VectorIndex {
  let available = false;
  let reason: string | undefined = 'not checked yet';
  // Until init has read the server's version, assume the prefilter works (every supported server).
  let signatures = true;
  const ready = new Set<number>();
  const building = new Map<number, Promise<boolean>>();
  // A build that failed is not retried on every query (restart, or fix and restart).
  const failed = new Set<number>();

  async function build(dims: number): Promise<boolean> {
    const names = indexNames(dims);
    // CONCURRENTLY on PostgreSQL keeps intake writing while a large index builds; PGlite is one
    // session, so there it is a plain build.
    const how = db.kind === 'postgres' ? 'CONCURRENTLY IF NOT EXISTS' : 'IF NOT EXISTS';
    const started = Date.now();
    for (const [name, table] of [
      [names.chunks, 'document_chunks'],
      [names.documents, 'documents'],
    ] as const) {
      // A concurrent build that failed leaves an invalid index that IF NOT EXISTS would keep.
      const { rows } = await db.query<{ valid: boolean }>(VALID_SQL, [name]);
      if (rows[0]?.valid === true) continue;
      if (rows[0]?.valid === false) await db.query(`DROP INDEX IF EXISTS ${name}`);
      const create = `CREATE INDEX ${how} ${name} ON ${table} USING hnsw ((embedding::vector(${dims})) vector_cosine_ops)
            WHERE array_length(embedding, 1) = ${dims}`;
      try {
        if (db.kind === 'pglite')
          await db.tx(async (q) => {
            await q.query(`SET LOCAL maintenance_work_mem = '${PGLITE_BUILD_MEMORY}'`);
            await q.query(create);
          });
        else await db.query(create);
      } catch (err) {
        // Another process (a worker starting at the same time) may have built it meanwhile.
        const again = await db.query<{ valid: boolean }>(VALID_SQL, [name]);
        if (again.rows[0]?.valid !== true) throw err;
      }
    }
    log('vector index ready', { dims, ms: Date.now() - started });
    return true;
  }

  const api: VectorIndex = {
    async init() {
      const version = await db.query<{ v: number }>(`SELECT current_setting('server_version_num')::int AS v`);
      signatures = Number(version.rows[0]?.v ?? SIGNATURES_FROM_VERSION) >= SIGNATURES_FROM_VERSION;
      const { rows } = await db.query<{ installed: string | null }>(
        `SELECT installed_version AS installed FROM pg_available_extensions WHERE name = 'vector'`,
      );
      if (rows.length === 0) {
        available = false;
        reason = 'the pgvector extension is not installed on this database server';
        return;
      }
      if (!rows[0].installed) {
        try {
          await db.query('CREATE EXTENSION IF NOT EXISTS vector');
        } catch (err) {
          available = false;
          reason = `CREATE EXTENSION vector failed: ${(err as Error).message}`;
          return;
        }
      }
      available = true;
      reason = undefined;
      // A sample is enough to learn which dimensions are stored (one per model in practice).
      const dims = await db.query<{ d: number }>(
        `SELECT DISTINCT array_length(embedding, 1) AS d
           FROM (SELECT embedding FROM document_chunks LIMIT 1000) s WHERE embedding IS NOT NULL`,
      );
      for (const { d } of dims.rows) if (d) void api.ensure(d);
    },
    usable(dims) {
      if (!available || dims < 1 || dims > MAX_HNSW_DIMS) return false;
      if (ready.has(dims)) return true;
      void api.ensure(dims).catch(() => undefined);
      return false;
    },
    ensure(dims) {
      if (!available || !Number.isInteger(dims) || dims < 1 || dims > MAX_HNSW_DIMS) return Promise.resolve(false);
      if (ready.has(dims)) return Promise.resolve(true);
      if (failed.has(dims)) return Promise.resolve(false);
      let p = building.get(dims);
      if (!p) {
        p = build(dims)
          .then(
            () => {
              ready.add(dims);
              return true;
            },
            (err: unknown) => {
              failed.add(dims);
              log('vector index build failed; the sign-bit prefilter stays in use', {
                dims,
                error: (err as Error).message,
              });
              return false;
            },
          )
          .finally(() => building.delete(dims));
        building.set(dims, p);
      }
      return p;
    },
    signatures: () => signatures,
    status() {
      if (available) return { backend: 'hnsw', dimensions: [...ready].sort((a, b) => a - b) };
      if (!signatures)
        return {
          backend: 'exact',
          reason: `${reason ?? 'no HNSW'}; PostgreSQL before 14 has no bit_count for the sign-bit prefilter, so vector queries scan every vector`,
          dimensions: [],
        };
      return { backend: 'signatures', ...(reason ? { reason } : {}), dimensions: [] };
    },
  };
  return api;
}
