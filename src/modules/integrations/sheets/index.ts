// Wiring of the Google Sheets export: configuration API, the after-extraction hook, and the
// `export` queue worker (buffering + batched flushes) with its safety-net sweep.
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { Queues } from '../../../jobs/queues.js';
import type { SecretBox } from '../../../lib/crypto.js';
import type { Logger } from '../../../lib/logger.js';
import { registerSheetsRoutes } from '../../../http/routes/sheets/index.js';
import { startExportWorker } from '../../../../workers/export.processor.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentsRepository } from '../../documents/documents.repository.js';
import type { CommittedDocument, Stage } from '../../documents/documents.types.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { SheetsApi, SheetsClientOptions, SheetsCredentials } from './client/types.js';
import { createClientCache } from './clients.js';
import { createConnectionsRepository } from './connections.repository.js';
import { createConnectionsService } from './connections.service.js';
import { createDocumentExportsRepository } from './document-exports.repository.js';
import { createExportsRepository } from './exports.repository.js';
import { createExportsService } from './exports.service.js';
import { createFlusher, type FlushOptions } from './flusher.js';
import { createExportProducer } from './producer.js';
import { sweepExports, type SweepOptions } from './sweep.js';
import { createWorkflowExport } from './workflow-export.js';

export { ROW_KEY_HEADER } from './validation.js';
export type { ConnectionsService } from './connections.service.js';
export type { ExportsService } from './exports.service.js';

/** What the module needs; the container's deps object fits as is. */
export interface SheetsModuleDeps {
  db: Db;
  queues: Queues;
  secretBox: SecretBox;
  logger: Logger;
  config: Pick<Config, 'GOOGLE_API_ROOT_URL' | 'GOOGLE_OAUTH_TOKEN_URL'>;
  documents: { onAfterStage(stage: Stage, h: (doc: CommittedDocument) => Promise<void>): void; docs: Pick<DocumentsRepository, 'get' | 'getSummaryById' | 'exists'> };
  repos: { projects: Pick<ProjectsRepository, 'get'> };
}

/** Tuning and test hooks; every field is optional. */
export interface SheetsModuleOptions {
  /** Rows gather this long before a flush, ms. Default 200. */
  flushDelayMs?: number;
  flush?: FlushOptions;
  /** Attempts of an export job that throws (crash, database error). Default 5. */
  jobAttempts?: number;
  /** First backoff of such a job, ms. Default 1000. */
  jobBackoffMs?: number;
  /** Safety-net sweep period in a worker process, ms; 0 turns it off. Default 30000. */
  sweepIntervalMs?: number;
  sweep?: SweepOptions;
  /** Google request timeout, ms. Default 30000. */
  requestTimeoutMs?: number;
  /** Service-account auth mode. Default `self_signed_jwt` (no token round trip). */
  serviceAccountAuth?: SheetsClientOptions['serviceAccountAuth'];
  /** Builds Sheets clients (tests wrap the real one). */
  clientFactory?: (creds: SheetsCredentials, opts: SheetsClientOptions) => SheetsApi;
}

export interface StartSheetsWorkersOptions {
  /** The process's worker concurrency; export jobs wait on the network, so 4× this many run (at least 8). */
  concurrency: number;
  /** Exact export-job concurrency, overriding the rule above. */
  exportConcurrency?: number;
}

export function createSheetsModule(deps: SheetsModuleDeps, opts: SheetsModuleOptions = {}) {
  const connectionsRepo = createConnectionsRepository(deps.db);
  const exportsRepo = createExportsRepository(deps.db);
  const rowsRepo = createDocumentExportsRepository(deps.db);
  const producer = createExportProducer(deps.queues, { flushDelayMs: opts.flushDelayMs, attempts: opts.jobAttempts, backoffMs: opts.jobBackoffMs });
  const clients = createClientCache({
    connections: connectionsRepo, secretBox: deps.secretBox, factory: opts.clientFactory,
    clientOptions: {
      rootUrl: deps.config.GOOGLE_API_ROOT_URL, tokenUrl: deps.config.GOOGLE_OAUTH_TOKEN_URL,
      timeoutMs: opts.requestTimeoutMs, serviceAccountAuth: opts.serviceAccountAuth,
    },
  });
  const connections = createConnectionsService({ db: deps.db, repo: connectionsRepo, secretBox: deps.secretBox, clients });
  const exports = createExportsService({ db: deps.db, repo: exportsRepo, rows: rowsRepo, connections: connectionsRepo, projects: deps.repos.projects, documents: deps.documents.docs, producer });
  const flusher = createFlusher({ db: deps.db, exports: exportsRepo, rows: rowsRepo, producer, clientFor: (id) => clients.byId(id), logger: deps.logger }, opts.flush);

  // Runs in the extract worker after the stage committed. Buffering is one INSERT, so it is done
  // here rather than through a job per document; if it fails (or the process dies first), the
  // sweep finds the extraction without a buffered row and queues a `document` job for it.
  const onExtracted = async (doc: CommittedDocument) => { await exports.bufferExtracted(doc); };
  deps.documents.onAfterStage('extract', onExtracted);

  const sweep = () => sweepExports(rowsRepo, producer, opts.sweep);

  return {
    connections,
    exports,
    producer,
    /** The export_sheets workflow step's plan and buffer. */
    workflowExport: createWorkflowExport({ repo: exportsRepo, rows: rowsRepo, producer }),
    /** Registers the routes (inside the /api/v1 prefix, e.g. pushed onto deps.extraRoutes). */
    registerRoutes(api: Parameters<typeof registerSheetsRoutes>[0]): void {
      registerSheetsRoutes(api, { connections, exports });
    },
    /** The after-extraction hook itself (benchmarks drive it directly). */
    onExtracted,
    /** Export status per target of a document, for GET /documents/{id}. */
    exportsForDocument: (scope: Scope, documentId: string) => exports.forDocument(scope, documentId),
    /** Writes an export's buffer now, in the caller (tests, CLI). */
    flushNow: (exportId: string) => flusher.flush(exportId),
    sweep,
    /** Starts the `export` worker and the sweep; `close` stops both. */
    async startWorkers(o: StartSheetsWorkersOptions): Promise<{ close(timeoutMs?: number): Promise<void> }> {
      const worker = startExportWorker(
        { queueDocument: (id, version) => exports.queueExtracted(id, version), flush: (id) => flusher.flush(id) },
        { connection: deps.queues.workerConnection(), prefix: deps.queues.prefix, concurrency: o.exportConcurrency ?? Math.max(8, o.concurrency * 4), logger: deps.logger },
      );
      const period = opts.sweepIntervalMs ?? 30_000;
      let sweeping = false;
      const timer = period > 0
        ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          sweep().catch((err: unknown) => deps.logger.warn({ err }, 'sheets export sweep failed')).finally(() => { sweeping = false; });
        }, period)
        : undefined;
      timer?.unref();
      return {
        async close(timeoutMs?: number) {
          if (timer) clearInterval(timer);
          await worker.close(timeoutMs);
        },
      };
    },
  };
}

export type SheetsModule = ReturnType<typeof createSheetsModule>;
