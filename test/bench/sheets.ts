// `npm run bench -- sheets [--docs N] [--paced PER_SECOND]`: N extracted documents (inserted
// with SQL, as the pipeline would leave them, then announced by their document.extracted events,
// which the outbox relay hands to the Sheets consumer) exported
// in append mode to the fake Google server through the real export queue. Reports rows/s, Google API calls (counted by the fake) and rows
// per call, for the batched export and, in the same run, an unbatched baseline (one append per
// document, same machinery with maxRowsPerCall = 1).
//
// PGlite by default; PostgreSQL when DATABASE_URL is set. A private redis-server unless REDIS_URL.
import { createDb, type Db } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { documentEventData } from '../../src/modules/documents/document-event.js';
import type { DocumentRow } from '../../src/modules/documents/documents.types.js';
import type { SheetsModuleOptions } from '../../src/modules/integrations/sheets/index.js';
import { startFakeGoogle, type FakeGoogle } from '../helpers/fake-google.js';
import {
  createOrgAndProject,
  createSheetsStack,
  insertExtractedDocuments,
  serviceAccountKey,
} from '../helpers/sheets-harness.js';
import { benchPostgres, benchRedis, table } from './harness.js';

const COLUMNS = [
  { header: 'Document', field: 'document.id' },
  { header: 'File', field: 'document.filename' },
  { header: 'Type', field: 'classification.type' },
  { header: 'Confidence', field: 'classification.confidence' },
  { header: 'Invoice no', field: 'fields.invoice_number' },
  { header: 'Total', field: 'fields.total' },
  { header: 'Date', field: 'fields.invoice_date' },
  { header: 'Uploaded', field: 'document.created_at' },
];

const EXTRACT_WORKERS = 4;

interface RunResult {
  run: string;
  rows: number;
  /** When the last document had gone through the hook. */
  hookSeconds: number;
  seconds: number;
  rowsPerSec: number;
  apiCalls: number;
  appends: number;
  rowsPerCall: number;
  rowsPerAppend: number;
}

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

async function openDb(): Promise<{ db: Db; label: string; close(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const pg = await benchPostgres();
    if (pg) {
      const db = await createDb({ url: pg.url, poolSize: 10 });
      await migrate(db);
      return {
        db,
        label: 'postgres',
        close: async () => {
          await db.close();
          await pg.drop();
        },
      };
    }
  }
  const db = await createDb({});
  await migrate(db);
  return { db, label: 'pglite', close: () => db.close() };
}

async function runOnce(
  run: string,
  google: FakeGoogle,
  redisUrl: string,
  docs: number,
  pacedPerSec: number,
  module: SheetsModuleOptions,
): Promise<RunResult> {
  const store = await openDb();
  const stack = await createSheetsStack({
    redisUrl,
    db: store.db,
    google,
    module: { sweepIntervalMs: 0, ...module },
    exportConcurrency: 8,
  });
  try {
    const at = await createOrgAndProject(stack.deps, run);
    const book = `bench-${run}`;
    google.spreadsheets.create(book, ['Sheet1']);
    const conn = await stack.sheets.connections.create(
      at.scope,
      { name: run, service_account_key: serviceAccountKey(google) },
      null,
    );
    const exp = await stack.sheets.exports.create(
      at.scope,
      {
        project_id: at.projectId,
        connection_id: conn.id,
        spreadsheet_id: book,
        sheet_name: 'Sheet1',
        columns: COLUMNS,
      },
      null,
    );
    await insertExtractedDocuments(stack.deps.db, { orgId: at.orgId, projectId: at.projectId }, docs);
    const { rows: extracted } = await stack.deps.db.query<DocumentRow>(
      'SELECT * FROM documents WHERE project_id = $1 ORDER BY id',
      [at.projectId],
    );
    const firstCall = google.calls.length;
    const started = Date.now();
    // Each document's document.extracted event is committed, as when an extract job commits;
    // EXTRACT_WORKERS of them at a time, like that many extract workers finishing.
    let next = 0;
    const extractWorker = async () => {
      while (next < extracted.length) {
        const i = next++;
        if (pacedPerSec > 0) {
          const due = started + (i / pacedPerSec) * 1000;
          if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        }
        const d = extracted[i];
        await stack.deps.db.tx((q) =>
          stack.deps.events.emitter.insert(q, {
            orgId: d.org_id,
            environment: d.environment,
            type: 'document.extracted',
            data: documentEventData(d, { stage: 'extract' }),
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: EXTRACT_WORKERS }, extractWorker));
    const handedOver = (Date.now() - started) / 1000;
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows } = await stack.deps.db.query<{ n: number }>(
        `SELECT count(*) AS n FROM document_exports WHERE export_id = $1 AND status = 'exported'`,
        [exp.id],
      );
      if (rows[0].n >= docs) break;
      if (Date.now() > deadline) throw new Error(`${run}: only ${rows[0].n} of ${docs} rows exported after 300 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (Date.now() - started) / 1000;
    const calls = google.calls
      .slice(firstCall)
      .filter((c) => c.kind !== 'token' && c.path.includes(`/spreadsheets/${book}`));
    const appends = calls.filter((c) => c.kind === 'values.append').length;
    const sheetRows = google.spreadsheets.getValues(book, 'Sheet1').length - 1;
    if (sheetRows !== docs) throw new Error(`${run}: the sheet has ${sheetRows} data rows, expected ${docs}`);
    return {
      run: `${run} (${store.label})`,
      rows: docs,
      hookSeconds: Number(handedOver.toFixed(2)),
      seconds: Number(seconds.toFixed(2)),
      rowsPerSec: Math.round(docs / seconds),
      apiCalls: calls.length,
      appends,
      rowsPerCall: Number((docs / calls.length).toFixed(1)),
      rowsPerAppend: Number((docs / Math.max(1, appends)).toFixed(1)),
    };
  } finally {
    await stack.close();
    await store.close();
  }
}

export async function main(args: string[]): Promise<void> {
  const docs = arg(args, 'docs', 1000);
  const paced = arg(args, 'paced', 250);
  const redis = await benchRedis();
  const google = await startFakeGoogle();
  try {
    const results: RunResult[] = [];
    results.push(await runOnce('batched-burst', google, redis.url, docs, 0, { flushDelayMs: 200 }));
    if (paced > 0)
      results.push(await runOnce(`batched-paced-${paced}per-s`, google, redis.url, docs, paced, { flushDelayMs: 200 }));
    results.push(
      await runOnce('baseline-unbatched', google, redis.url, docs, 0, {
        flushDelayMs: 200,
        flush: { maxRowsPerCall: 1, maxBatchesPerJob: 1000 },
      }),
    );
    console.log(`\nSheets export: ${docs} extracted documents, append mode, fake Google on 127.0.0.1`);
    table(results.map((r) => ({ ...r })));
    const batched = results[0];
    const baseline = results[results.length - 1];
    console.log(
      `\nbatched vs unbatched: ${(batched.rowsPerSec / baseline.rowsPerSec).toFixed(1)}x rows/s, ${(baseline.apiCalls / batched.apiCalls).toFixed(1)}x fewer API calls`,
    );
    console.log(`targets: >= 10 rows per call (${batched.rowsPerCall}), >= 200 rows/s (${batched.rowsPerSec})`);
  } finally {
    await google.close();
    await redis.stop();
  }
}
