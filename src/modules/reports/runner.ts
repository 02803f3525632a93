// Runs one execution: the report type's query writes its sections into a compressed result
// file that streams into the report file store; the execution's outcome and its
// report.completed event commit together (also when it failed), and only then is the file's
// hold released. A run cut short leaves no file referred to (the store's sweep removes it).
import { createGzip } from 'node:zlib';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import type { Logger } from '../../lib/logger.js';
import type { BlobStore, StoredBlob } from '../../storage/blob-store.js';
import type { EventEmitter } from '../events/emitter.js';
import type { ExecutionsRepository } from './executions.repository.js';
import { ResultWriter } from './output/result-file.js';
import { downloadPath, type ExecutionRow, type SectionInfo } from './reports.types.js';
import { REPORT_QUERIES } from './types/index.js';

/** The largest result file (the S3 store's single-object limit). */
const MAX_RESULT_BYTES = 5 * 1024 * 1024 * 1024;

export interface RunnerDeps {
  db: Db;
  executions: ExecutionsRepository;
  files: BlobStore;
  logger: Logger;
  /** The outbox: report.completed is written with the execution's outcome and announced after commit. */
  events: EventEmitter;
  /** Rows per page of paged reads. Default 5000. */
  batchSize?: number;
  /** Compression level of result files, 1-9. Default 1: they are read once or twice. */
  gzipLevel?: number;
}

export type RunOutcome = 'completed' | 'failed' | 'skipped';

/** The `data` of report.completed. */
export function completedEventData(e: ExecutionRow) {
  return {
    reportId: e.report_id,
    executionId: e.id,
    reportName: e.definition.name,
    reportType: e.report_type,
    status: e.status,
    trigger: e.trigger,
    rowCount: e.row_count ?? 0,
    period: { from: e.period_from.toISOString(), to: e.period_to.toISOString() },
    downloadPath: e.status === 'completed' ? downloadPath(e.report_id, e.id) : null,
    ...(e.error ? { error: e.error } : {}),
  };
}

export function createReportRunner(deps: RunnerDeps) {
  async function writeResult(exe: ExecutionRow): Promise<{
    blob: StoredBlob;
    summary: Record<string, unknown>;
    sections: { sections: SectionInfo[]; rowCount: number };
  }> {
    const gzip = createGzip({ level: deps.gzipLevel ?? 1 });
    const stored = deps.files.put(gzip, { maxBytes: MAX_RESULT_BYTES });
    stored.catch(() => undefined); // awaited below; a failure here surfaces there
    const writer = new ResultWriter(gzip);
    try {
      const summary = await REPORT_QUERIES[exe.report_type]({
        db: deps.db,
        scope: { orgId: exe.org_id, environment: exe.environment },
        from: exe.period_from,
        to: exe.period_to,
        timezone: exe.definition.timezone,
        dataSource: exe.definition.data_source,
        filters: exe.definition.filters,
        writer,
        batchSize: deps.batchSize,
      });
      const sections = await writer.finish();
      return { blob: await stored, summary, sections };
    } catch (err) {
      gzip.destroy(err as Error);
      const blob = await stored.catch(() => null);
      if (blob) await deps.files.discard(blob, (keys) => deps.executions.fileKeysInUse(keys)).catch(() => undefined);
      throw err;
    }
  }

  async function finishFailed(id: string, err: unknown): Promise<RunOutcome> {
    const error =
      err instanceof DomainError
        ? { code: err.code, message: err.message }
        : {
            code: 'REPORT_FAILED',
            message: (err as Error)?.message?.slice(0, 1000) || 'the report could not be computed',
          };
    const failed = await deps.db.tx(async (q) => {
      const row = await deps.executions.fail(q, id, error);
      if (row)
        await deps.events.insert(q, {
          orgId: row.org_id,
          environment: row.environment,
          type: 'report.completed',
          data: completedEventData(row),
        });
      return row;
    });
    if (!failed) return 'skipped';
    deps.logger.warn(
      { executionId: id, reportId: failed.report_id, code: error.code },
      `report execution failed: ${error.message}`,
    );
    return 'failed';
  }

  return {
    /**
     * Runs the execution. `finalAttempt`: a failure now is recorded (status failed, event sent)
     * instead of being thrown for the queue to retry; invalid definitions fail at once.
     */
    async run(executionId: string, opts: { finalAttempt: boolean }): Promise<RunOutcome> {
      const exe = await deps.executions.start(executionId);
      if (!exe) return 'skipped';
      let result: Awaited<ReturnType<typeof writeResult>>;
      try {
        result = await writeResult(exe);
      } catch (err) {
        if (opts.finalAttempt || err instanceof DomainError) return finishFailed(exe.id, err);
        throw err;
      }
      const { blob, summary, sections } = result;
      const done = await deps.db
        .tx(async (q) => {
          const row = await deps.executions.complete(q, exe.id, {
            rowCount: sections.rowCount,
            summary,
            sections: sections.sections,
            fileKey: blob.key,
            fileBytes: blob.size,
          });
          if (row)
            await deps.events.insert(q, {
              orgId: row.org_id,
              environment: row.environment,
              type: 'report.completed',
              data: completedEventData(row),
            });
          return row;
        })
        .catch(async (err: unknown) => {
          await deps.files.discard(blob, (keys) => deps.executions.fileKeysInUse(keys)).catch(() => undefined);
          throw err;
        });
      if (!done) {
        // The report (and with it the execution) was deleted while it ran.
        await deps.files.discard(blob, (keys) => deps.executions.fileKeysInUse(keys));
        return 'skipped';
      }
      await deps.files.release(blob);
      return 'completed';
    },
    finishFailed,
  };
}

export type ReportRunner = ReturnType<typeof createReportRunner>;
