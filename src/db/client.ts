import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { PgliteSocket } from './pglite-socket.js';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** Anything that can run a query: the pool itself or a client inside a transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data dir (tests start new databases from a migrated one). */
  dumpDataDir?(): Promise<Blob>;
}

// Per-pool type parsers (no global mutation): bigint counts and numerics come back as numbers.
// (node-postgres asks for every column of every result: the parser is made once.)
const toNumber = (v: string) => (v === null ? null : Number(v));
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return toNumber;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

// Server-side prepared statements: PostgreSQL (and PGlite) plan each distinct SQL text once per connection
// instead of on every call (measured here: ~2x a 20-row list query on PostgreSQL, ~1.5x on PGlite). Names
// are derived from the text; the set is bounded so unusual dynamic SQL runs unprepared.
const MAX_PREPARED = 1000;
const MAX_PREPARED_SQL = 4000;
const statementNames = new Map<string, string>();
const neverPrepare = new Set<string>();

// Statements over parameter arrays (`unnest($n)`, `= ANY($n)`) are planned for each call: a
// cached generic plan cannot know the array's length and, measured on the webhook delivery
// batches, ran 10-20x slower than a fresh plan once the table held ~10,000 rows.
const ARRAY_PARAMS = /unnest\s*\(\s*\$\d|(ANY|ALL)\s*\(\s*\$\d/i;

/**
 * Put in a statement over parameter arrays whose plan does not depend on their length (for
 * example one that only joins a small table and inserts through a unique index): it is then
 * prepared like any other statement.
 */
export const ARRAYS_PLAN_FREE = '/* arrays: plan-free */';

/**
 * Put in a statement that must be planned on every call, whatever its text looks like (for
 * example one whose best plan depends on a table that PGlite, which never analyzes, would plan
 * once while it was small and keep).
 */
export const PLAN_EACH_CALL = '/* plan each call */';

function statementName(sql: string): string | undefined {
  if (
    sql.length > MAX_PREPARED_SQL ||
    neverPrepare.has(sql) ||
    sql.includes(PLAN_EACH_CALL) ||
    /^\s*(BEGIN|COMMIT|ROLLBACK)/i.test(sql) ||
    sql.includes(';') ||
    (ARRAY_PARAMS.test(sql) && !sql.includes(ARRAYS_PLAN_FREE))
  )
    return undefined;
  let name = statementNames.get(sql);
  if (!name && statementNames.size < MAX_PREPARED) {
    name = `dp_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

function wrap(
  pool: pg.Pool,
  kind: Db['kind'],
  onClose?: () => Promise<void>,
  dump?: () => Promise<Blob>,
  prepare = true,
): Db {
  const run = async <T>(q: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]): Promise<QueryResult<T>> => {
    const name = prepare ? statementName(sql) : undefined;
    let res: pg.QueryResult;
    try {
      res = name
        ? await q.query({ name, text: sql, values: params as unknown[] })
        : await q.query(sql, params as unknown[]);
    } catch (err) {
      // A migration changed a table under a prepared `SELECT *` on a long-lived connection:
      // run this text unprepared from now on rather than fail.
      if (name && (err as { code?: string }).code === '0A000') {
        neverPrepare.add(sql);
        res = await q.query(sql, params as unknown[]);
      } else throw err;
    }
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
  };
  return {
    kind,
    query: (sql, params) => run(pool, sql, params),
    async tx(fn) {
      const client = await pool.connect();
      // A connection error between statements is reported on the client; without a listener it
      // would crash the process. The next statement fails with it instead.
      const onError = (): void => undefined;
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn({ query: (sql, params) => run(client, sql, params) });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.off('error', onError);
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
      await onClose?.();
    },
    ...(dump ? { dumpDataDir: dump } : {}),
  };
}

export interface DbOptions {
  /** postgres:// URL; absent means embedded PGlite. */
  url?: string;
  /** PGlite data directory; `memory://` keeps it in memory. */
  pgliteDir?: string;
  /** A PGlite data-dir dump to start from (tests start from a migrated template). */
  pgliteLoad?: Blob;
  poolSize?: number;
  /**
   * Named (server-side) prepared statements. Default true. Turn off behind a pooler that cannot
   * track them (PgBouncer in transaction mode before 1.21, or with max_prepared_statements = 0).
   */
  prepare?: boolean;
  /** Postgres schema to use as search_path (tests isolate themselves this way). */
  schema?: string;
  /**
   * PGlite on disk: how long to wait for another process holding the data directory, ms.
   * Default 0 (refuse at once with DataDirLockedError).
   */
  lockWaitMs?: number;
}

/** PGlite's shared_buffers (see createDb). */
const PGLITE_SHARED_BUFFERS = '16MB';

export async function createDb(opts: DbOptions): Promise<Db> {
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      types,
      options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
    });
    pool.on('error', () => undefined); // idle-client errors surface on the next query instead
    return wrap(pool, 'postgres', undefined, undefined, opts.prepare ?? true);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // pgvector ships as a PGlite extension package: loaded always, so `CREATE EXTENSION vector`
  // (search's HNSW index, see modules/search/vector-index.ts) works on the embedded database.
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const dataDir = opts.pgliteDir ?? 'memory://';
  // One process per data directory (see data-dir-lock.ts); in-memory databases are private anyway.
  const lock = dataDir.startsWith('memory://') ? undefined : await lockDataDir(dataDir, { waitMs: opts.lockWaitMs });
  let pglite: InstanceType<typeof PGlite>;
  try {
    pglite = new PGlite({
      dataDir,
      loadDataDir: opts.pgliteLoad,
      extensions: { vector },
      // PostgreSQL's default 128 MB of shared buffers lives inside PGlite's WebAssembly memory,
      // which never shrinks: the buffers fill as documents are written and stay resident (most
      // of the all-in-one process's growth over its first documents). The embedded database is
      // for small installs and its pages are in the OS page cache anyway.
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
    await pglite.waitReady;
  } catch (err) {
    lock?.release();
    throw err;
  }
  // PGlite is one backend session: a pool of one client serialises transactions correctly, and
  // that client is kept (never idled out) so its prepared statements stay valid.
  const pool = new pg.Pool({
    max: 1,
    idleTimeoutMillis: 0,
    types,
    stream: () => new PgliteSocket(pglite) as unknown as Duplex,
  });
  return wrap(
    pool,
    'pglite',
    async () => {
      try {
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
    async () => (await pglite.dumpDataDir('none')) as Blob,
  );
}
