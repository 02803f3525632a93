// One flush of one export's buffer. The write protocol, and why it cannot duplicate rows:
//
// 1. Under the export's lease (one writer per export, across processes), claim the oldest
//    buffered rows and mark them `writing` — committed before any call to Google.
// 2. Rows that were already `writing` when claimed may be in the sheet (a crash or an ambiguous
//    failure after the request left). Before re-sending them, read the sheet: append mode finds
//    them by the row key written after the mapped columns, upsert mode by the document id.
// 3. Write, then commit `exported` with the range for exactly the rows Google placed.
//
// A crash anywhere leaves rows `writing`; the retried job goes through step 2 and writes only
// what is missing. A refused request (429, 4xx) puts rows back to `pending` without that read.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/client.js';
import type { Logger } from '../../../lib/logger.js';
import type { SheetsApi } from './client/types.js';
import type { DocumentExportsRepository, RowKey } from './document-exports.repository.js';
import type { ExportsRepository } from './exports.repository.js';
import { ConnectionUnusableError, describeGoogleError, GoogleCallError } from './google-call.js';
import type { ExportProducer } from './producer.js';
import type { DocumentExportRow, ExportRow } from './sheets.types.js';
import { ensureHeader, headerFingerprint, writeAppend, writeUpsert, type Placed, type RowToWrite } from './writer.js';

/** Tuning of the flush; every field is optional. */
export interface FlushOptions {
  /** Rows per `values.append` / batch update call. Default 500. */
  maxRowsPerCall?: number;
  /** Batches one flush job writes before handing over to a new job. Default 20. */
  maxBatchesPerJob?: number;
  /** Write lease per export, ms; must exceed a few Google request timeouts. Default 120000. */
  leaseMs?: number;
  /** First retry delay after a transient Google failure, ms (doubles per failure). Default 1000. */
  retryBaseMs?: number;
  /** Longest retry delay, ms. Default 900000 (15 min). */
  retryMaxMs?: number;
  /** How long a verified header is trusted before it is read again, ms. Default 600000. */
  headerRecheckMs?: number;
  /** Test hooks. */
  hooks?: {
    /** Runs after Google accepted a write and before the result is committed (crash simulation). */
    afterGoogleWrite?: (info: { exportId: string; rows: number }) => Promise<void>;
  };
}

export interface FlusherDeps {
  db: Db;
  exports: ExportsRepository;
  rows: DocumentExportsRepository;
  producer: ExportProducer;
  /** The Sheets client of a connection; throws ConnectionUnusableError when it cannot be built. */
  clientFor: (connectionId: string) => Promise<SheetsApi>;
  logger: Logger;
}

export type FlushResult =
  | { outcome: 'written'; rows: number; calls: number }
  | { outcome: 'idle' | 'inactive' | 'busy' | 'waiting' | 'error' | 'retry' };

const keyOf = (r: { document_id: string; document_version: number }): RowKey => ({
  documentId: r.document_id,
  version: r.document_version,
});

/** In upsert mode only the newest queued version of a document is written; older ones are superseded. */
function newestPerDocument(rows: (DocumentExportRow & { wasWriting: boolean })[]) {
  const newest = new Map<string, number>();
  for (const r of rows) newest.set(r.document_id, Math.max(newest.get(r.document_id) ?? 0, r.document_version));
  const keep = rows.filter((r) => r.document_version === newest.get(r.document_id));
  const superseded = rows.filter((r) => r.document_version !== newest.get(r.document_id)).map(keyOf);
  return { keep, superseded, newest };
}

export function createFlusher(deps: FlusherDeps, opts: FlushOptions = {}) {
  const maxRows = opts.maxRowsPerCall ?? 500;
  const maxBatches = opts.maxBatchesPerJob ?? 20;
  const leaseMs = opts.leaseMs ?? 120_000;
  const retryBase = opts.retryBaseMs ?? 1000;
  const retryMax = opts.retryMaxMs ?? 900_000;
  const headerRecheck = opts.headerRecheckMs ?? 600_000;

  const headerFresh = (e: ExportRow) =>
    e.header_verified_for === headerFingerprint(e) &&
    e.header_verified_at !== null &&
    Date.now() - e.header_verified_at.getTime() < headerRecheck;

  async function fail(exp: ExportRow, reason: string, keys: RowKey[], unverified: RowKey[]): Promise<FlushResult> {
    // Rows first: whoever sees the export in error also sees its rows held (pending, with the
    // reason), never still `writing`. A crash in between leaves an active export whose next
    // flush meets the same error.
    await deps.rows.release(exp.id, keys, reason, { maybeWritten: false });
    await deps.rows.release(exp.id, unverified, reason, { maybeWritten: true });
    const recorded = await deps.exports.setError(exp.id, reason, exp.config_version);
    deps.logger.warn({ exportId: exp.id, recorded }, `sheets export stopped: ${reason}`);
    return { outcome: 'error' };
  }

  async function retryLater(
    exp: ExportRow,
    err: GoogleCallError,
    keys: RowKey[],
    maybeWritten: RowKey[],
  ): Promise<FlushResult> {
    const reason = describeGoogleError(err);
    const backoff = Math.min(retryMax, retryBase * 2 ** Math.min(exp.consecutive_failures, 30));
    const retryAfter = err.cls.kind === 'retry' ? (err.cls.retryAfterMs ?? 0) : 0;
    const delay = Math.min(Math.max(backoff, retryAfter), Math.max(retryMax, retryAfter));
    await deps.rows.release(exp.id, keys, reason, { maybeWritten: false });
    await deps.rows.release(exp.id, maybeWritten, reason, { maybeWritten: true });
    await deps.exports.setRetry(exp.id, reason, delay);
    await deps.producer.scheduleFlush(exp.id, Date.now() + delay);
    deps.logger.info({ exportId: exp.id, delayMs: delay }, `sheets export will retry: ${reason}`);
    return { outcome: 'retry' };
  }

  /** One claimed batch: header, lookups, writes, commits. Returns calls made. */
  async function writeBatch(
    exp: ExportRow,
    api: SheetsApi,
    claimed: (DocumentExportRow & { wasWriting: boolean })[],
    state: { verified: Set<string> },
  ) {
    const { keep, superseded, newest } =
      exp.mode === 'upsert'
        ? newestPerDocument(claimed)
        : { keep: claimed, superseded: [], newest: new Map<string, number>() };
    if (superseded.length) await deps.rows.markSuperseded(deps.db, exp.id, superseded, newest);
    const toWrite: RowToWrite[] = keep.map((r) => ({
      documentId: r.document_id,
      version: r.document_version,
      maybeInSheet: r.wasWriting,
      context: r.context ?? {
        document: { id: r.document_id, version: r.document_version },
        classification: null,
        fields: null,
      },
    }));
    const onPlaced = async (placed: Placed[]) => {
      await opts.hooks?.afterGoogleWrite?.({ exportId: exp.id, rows: placed.length });
      // A write went through: the rows and the end of any retry state commit together, so no one
      // sees exported rows under an export that still reports the failure before them.
      await deps.db.tx(async (q) => {
        await deps.rows.markExported(
          q,
          exp.id,
          placed.map((p) => ({ documentId: p.documentId, version: p.version, range: p.range, row: p.row })),
        );
        await deps.exports.clearFailures(exp.id, q);
      });
      for (const p of placed) state.verified.add(`${p.documentId}:${p.version}`);
    };
    const write = exp.mode === 'upsert' ? writeUpsert : writeAppend;
    return write(api, exp, toWrite, maxRows, onPlaced);
  }

  /** Flushes the export's buffer; safe to call from any process at any time. */
  async function flush(exportId: string): Promise<FlushResult> {
    const current = await deps.exports.getById(exportId);
    if (!current || !current.is_active) return { outcome: 'inactive' };
    if (current.status === 'error') return { outcome: 'error' };
    if (current.retry_at && current.retry_at.getTime() > Date.now()) {
      await deps.producer.scheduleFlush(exportId, current.retry_at.getTime());
      return { outcome: 'waiting' };
    }
    const owner = randomUUID();
    const exp = await deps.exports.acquireLease(exportId, owner, leaseMs);
    if (!exp) {
      // Another writer holds it and drains the buffer; look again soon (at most 1 s: a crashed
      // holder's lease only runs out after leaseMs, a live one may have just finished).
      const leaseLeft = current.lease_until ? current.lease_until.getTime() - Date.now() : 0;
      await deps.producer.scheduleFlush(exportId, Date.now() + Math.min(Math.max(leaseLeft, 0), 1000));
      return { outcome: 'busy' };
    }
    let written = 0;
    let calls = 0;
    try {
      // Re-checked under the lease: a PUT or another writer may have changed it meanwhile.
      if (!exp.is_active || exp.status === 'error') return { outcome: exp.is_active ? 'error' : 'inactive' };
      let api: SheetsApi;
      try {
        api = await deps.clientFor(exp.connection_id);
      } catch (err) {
        if (err instanceof ConnectionUnusableError) return await fail(exp, err.message, [], []);
        throw err;
      }
      for (let batch = 0; batch < maxBatches; batch++) {
        const claimed = await deps.db.tx((q) => deps.rows.claim(q, exp.id, maxRows));
        if (claimed.length === 0) break;
        const state = { verified: new Set<string>() };
        const pendingKeys = () => claimed.filter((r) => !state.verified.has(`${r.document_id}:${r.document_version}`));
        try {
          if (exp.write_header && !headerFresh(exp)) {
            const h = await ensureHeader(api, exp);
            calls += 1 + (h.ok && h.created ? 1 : 0);
            if (!h.ok)
              return await fail(
                exp,
                h.reason,
                claimed.filter((r) => !r.wasWriting).map(keyOf),
                claimed.filter((r) => r.wasWriting).map(keyOf),
              );
            await deps.exports.markHeaderVerified(exp.id, headerFingerprint(exp));
            exp.header_verified_for = headerFingerprint(exp);
            exp.header_verified_at = new Date();
          }
          calls += await writeBatch(exp, api, claimed, state);
          written += claimed.length;
        } catch (err) {
          if (!(err instanceof GoogleCallError)) throw err;
          const left = pendingKeys();
          // Rows this failure may have written, and rows an earlier attempt may have written
          // that were not found yet: both keep `writing`, so the next attempt looks first.
          const ambiguous = left.filter((r) => r.wasWriting || err.mayHaveApplied);
          const clean = left.filter((r) => !ambiguous.includes(r));
          if (err.cls.kind === 'fatal')
            return await fail(exp, describeGoogleError(err), clean.map(keyOf), ambiguous.map(keyOf));
          return await retryLater(exp, err, clean.map(keyOf), ambiguous.map(keyOf));
        }
        await deps.exports.clearFailures(exp.id);
        exp.consecutive_failures = 0;
        // Keep going only through a backlog: rows that trickled in during this write have their
        // own flush queued for the next period, and waiting for it makes fuller appends.
        if (claimed.length < maxRows) break;
        await deps.exports.extendLease(exp.id, owner, leaseMs);
      }
      // Rows left after the batch limit (or buffered meanwhile) get a fresh job.
      if (await deps.rows.hasQueued(exp.id)) await deps.producer.scheduleFlush(exp.id);
      return written ? { outcome: 'written', rows: written, calls } : { outcome: 'idle' };
    } finally {
      await deps.exports
        .releaseLease(exp.id, owner)
        .catch((err: unknown) => deps.logger.warn({ err, exportId }, 'could not release the sheets export lease'));
    }
  }

  return { flush };
}

export type Flusher = ReturnType<typeof createFlusher>;
