// The walker's statements, recorded over a real database: pages by keyset on (created_at, id),
// never OFFSET, and every document of the batch lands in exactly one page, also when many share
// one created_at microsecond.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../../src/db/client.js';
import { createBatchesRepository } from '../../../src/modules/documents/batches.repository.js';
import { createDocumentsRepository } from '../../../src/modules/documents/documents.repository.js';
import { createReprocessWalker } from '../../../src/modules/documents/reprocess-walker.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';

const SCOPE = { orgId: 'org_walk', environment: 'live' as const };

function recording(db: Db, seen: string[]): Db {
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      seen.push(sql);
      return q.query(sql, params);
    },
  });
  return { ...db, query: wrap(db).query, tx: (fn) => db.tx((q) => fn(wrap(q))) };
}

describe('reprocess walker statements', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb('pglite');
    const q = testDb.db;
    await q.query(
      `INSERT INTO organizations (id, name, plan) VALUES ('org_walk', 'Walk', 'enterprise'), ('org_else', 'Else', 'enterprise')`,
    );
    await q.query(
      `INSERT INTO projects (id, org_id, environment, name) VALUES ('prj_walk', 'org_walk', 'live', 'W'), ('prj_else', 'org_else', 'live', 'E')`,
    );
    // 7 documents to each microsecond; the other organization's interleaved with them.
    await q.query(
      `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source, status, parsed_at, created_at)
       SELECT 'doc_' || lpad(i::text, 5, '0'), CASE WHEN i % 10 = 0 THEN 'org_else' ELSE 'org_walk' END, 'live',
         CASE WHEN i % 10 = 0 THEN 'prj_else' ELSE 'prj_walk' END, 'f.txt', 'text/plain', 1, md5(i::text), md5(i::text), 'upload', 'completed', now(),
         timestamptz '2026-01-01 00:00:00+00' + ((i / 7) * interval '1 microsecond')
       FROM generate_series(1, 330) AS i`,
    );
  });
  afterAll(async () => {
    await testDb?.close();
  });

  it('walks by keyset, never OFFSET, one page per transaction, each document once', async () => {
    const seen: string[] = [];
    const db = recording(testDb.db, seen);
    const docs = createDocumentsRepository(db);
    const batches = createBatchesRepository(db);
    const queued: string[] = [];
    const walker = createReprocessWalker(
      {
        db,
        docs,
        batches,
        runs: {
          // Record the page instead of starting runs: this test is about the walk.
          startMany: async (_q, rows) => rows.map((r) => ({ id: r.id, version: 2, pipeline: {} })),
          enqueueMany: async (rows) => {
            queued.push(...rows.map((r) => r.id));
          },
        },
      },
      { pageSize: 40, maxInFlight: 1_000_000 },
    );
    const until = await batches.now(db);
    const batch = await batches.create(db, SCOPE, {
      kind: 'reprocess',
      stages: ['extract'],
      mode: 'all',
      target: { target: { all: true } },
      total: 297,
      until,
    });
    let pages = 0;
    while ((await walker.page(batch.id)) !== 'done') pages++;
    expect(pages).toBe(7); // 297 documents in pages of 40: 7 full ones, then the last
    expect(queued).toHaveLength(297);
    expect(new Set(queued).size).toBe(297);
    expect(queued.every((id) => Number(id.slice(4)) % 10 !== 0)).toBe(true);
    expect(queued).toEqual([...queued].sort());

    const reads = seen.filter((s) => /FROM documents WHERE/.test(s) && /ORDER BY created_at, id/.test(s));
    expect(reads).toHaveLength(8);
    for (const s of seen) expect(s).not.toMatch(/\bOFFSET\b/i);
    // The first page starts at the beginning; every later one after the stored cursor.
    expect(reads[0]).not.toContain('(created_at, id) >');
    for (const s of reads.slice(1)) expect(s).toMatch(/\(created_at, id\) > \(\$\d+::timestamptz, \$\d+\)/);
    const b = await batches.get(SCOPE, batch.id);
    // Walked; its documents are queued and not finished (no stage ran here).
    expect(b).toMatchObject({ status: 'running', queued: 297, total: 297, pending: 297, walking: false });
  });
});
