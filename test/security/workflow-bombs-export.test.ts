// Issue 22, item 4: an extraction_export over documents carrying large fields read 5000 rows
// per page whatever their size (3.9 GB, then a failure). Pages are now bounded in bytes: every
// page the query reads stays within EXPORT_PAGE_BYTES (plus its one first row), the writer hands
// the compressor chunks of about 64 KiB, and values written before the bound are left out.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { MAX_DOCUMENT_VALUE_BYTES } from '../../src/lib/limits.js';
import { ResultWriter } from '../../src/modules/reports/output/result-file.js';
import { EXPORT_PAGE_BYTES, OVERSIZED_VALUE } from '../../src/modules/reports/types/extraction-export.js';
import { REPORT_QUERIES } from '../../src/modules/reports/types/index.js';
import { createTestDb, dbKinds, type TestDb } from '../helpers/db.js';
import { insertExtractedDocuments } from '../helpers/sheets-harness.js';

const ORG = 'org_exportbomb';
const PROJECT = 'prj_exportbomb';
const LARGE = 60_000;

describe.each(dbKinds())('extraction_export of large rows on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await t.db.query(`INSERT INTO organizations (id, name, plan) VALUES ($1, 'Export bomb', 'pro')`, [ORG]);
    await t.db.query(`INSERT INTO projects (id, org_id, environment, name) VALUES ($1, $2, 'live', 'P')`, [
      PROJECT,
      ORG,
    ]);
    const at = { orgId: ORG, projectId: PROJECT };
    // Small documents first, then near-maximum ones: a page that starts small must still stop.
    await insertExtractedDocuments(t.db, at, 50);
    await insertExtractedDocuments(t.db, at, 40, (i) => ({
      fields: Object.fromEntries(
        Array.from({ length: 4 }, (_, j) => [
          `v${j}`,
          { value: `${i}:`.padEnd(LARGE, 'a'), confidence: 1, method: 'x' },
        ]),
      ),
    }));
    // Written before the bound existed.
    await insertExtractedDocuments(t.db, at, 1, () => ({
      fields: { v0: { value: 'b'.repeat(3_000_000), confidence: 1, method: 'x' } },
    }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads pages bounded in bytes, writes bounded chunks and exports every row', async () => {
    const pages: { rows: number; bytes: number }[] = [];
    const db = {
      query: async (sql: string, params?: unknown[]) => {
        const r = await t.db.query<{ line?: string }>(sql, params);
        if (/AS line/.test(sql))
          pages.push({ rows: r.rows.length, bytes: r.rows.reduce((n, x) => n + (x.line?.length ?? 0), 0) });
        return r;
      },
    } as unknown as Db;
    let maxChunk = 0;
    const lines: string[] = [];
    let tail = '';
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        maxChunk = Math.max(maxChunk, chunk.length);
        const text = tail + chunk.toString('utf8');
        const parts = text.split('\n');
        tail = parts.pop() ?? '';
        lines.push(...parts);
        done();
      },
    });
    const writer = new ResultWriter(out);
    const summary = await REPORT_QUERIES.extraction_export({
      db,
      scope: { orgId: ORG, environment: 'live' },
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 3_600_000),
      timezone: 'UTC',
      dataSource: {},
      filters: { fields: ['v0', 'v1', 'v2', 'v3', 'total'] },
      writer,
    });
    const info = await writer.finish();
    expect(summary).toMatchObject({ documents: 91 });
    expect(info.rowCount).toBe(91);
    const rows = lines.slice(1).map((l) => JSON.parse(l) as unknown[]);
    expect(rows).toHaveLength(91);

    const largestRow = 4 * (LARGE + 100) + 1000;
    expect(pages.filter((p) => p.rows > 0).length).toBeGreaterThan(2);
    for (const p of pages) expect(p.bytes).toBeLessThanOrEqual(EXPORT_PAGE_BYTES + largestRow);
    // The writer never holds much more than its 64 KiB chunk plus one row.
    expect(maxChunk).toBeLessThanOrEqual(64 * 1024 + largestRow);

    // The large values arrive whole; the one over the bound arrives as a note.
    const v0 = lines[0] ? JSON.parse(lines[0]).columns.findIndex((c: { key: string }) => c.key === 'v0') : -1;
    expect(v0).toBeGreaterThan(0);
    const large = rows.filter((r) => typeof r[v0] === 'string' && (r[v0] as string).length === LARGE);
    expect(large).toHaveLength(40);
    expect(rows.filter((r) => r[v0] === OVERSIZED_VALUE)).toHaveLength(1);
    expect(OVERSIZED_VALUE).toContain(String(MAX_DOCUMENT_VALUE_BYTES));
  });
});
