// node-postgres over a real in-process PGlite through PgliteSocket: results, errors (also inside
// transactions), and recovery when a PGlite call itself fails — queued queries must not hang.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteSocket, type RawProtocolExecutor } from '../../../src/db/pglite-socket.js';

describe('PgliteSocket', () => {
  let db: PGlite;
  let failNext = false;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = new PGlite();
    await db.waitReady;
    const exec: RawProtocolExecutor = {
      async execProtocolRawStream(message, options) {
        if (failNext) {
          failNext = false;
          throw new Error('PGlite call failed');
        }
        return db.execProtocolRawStream(message, options);
      },
    };
    pool = new pg.Pool({ max: 1, idleTimeoutMillis: 0, stream: () => new PgliteSocket(exec) as unknown as Duplex });
    pool.on('error', () => undefined);
    await pool.query('CREATE TABLE t (id int PRIMARY KEY, v text)');
  });
  afterAll(async () => {
    await pool?.end();
    await db?.close();
  });

  it('runs simple and prepared queries with parameters', async () => {
    await pool.query({ name: 'ins', text: 'INSERT INTO t VALUES ($1, $2)', values: [1, 'a'] });
    await pool.query({ name: 'ins', text: 'INSERT INTO t VALUES ($1, $2)', values: [2, 'b'] });
    const r = await pool.query('SELECT id, v FROM t WHERE id = ANY($1::int[]) ORDER BY id', [[1, 2]]);
    expect(r.rows).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
  });

  it('reports SQL errors, rolls a failed transaction back and keeps serving', async () => {
    await expect(pool.query('SELECT * FROM missing_table')).rejects.toThrow(/missing_table/);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO t VALUES (3, $1)', ['c']);
      await expect(client.query('INSERT INTO t VALUES (3, $1)', ['dup'])).rejects.toThrow(/duplicate key/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await pool.query('SELECT count(*)::int AS n FROM t WHERE id = 3')).rows[0].n).toBe(0);
  });

  it('a failing PGlite call fails its query; queries queued behind it still complete', async () => {
    failNext = true;
    const failing = pool.query('SELECT 1 AS n');
    const queued = [pool.query('SELECT 2 AS n'), pool.query('SELECT 3 AS n')];
    await expect(failing).rejects.toThrow();
    const results = await Promise.allSettled(queued);
    // The broken connection may take the queries already sent on it down with it, but nothing
    // hangs, and the pool serves new queries on a fresh socket.
    expect(results.every((r) => r.status === 'fulfilled' || r.status === 'rejected')).toBe(true);
    expect((await pool.query('SELECT 4 AS n')).rows[0].n).toBe(4);
    expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(2);
  });
});
