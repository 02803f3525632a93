// Wiring of the Google Sheets export: the configuration services, the outbox consumer that
// buffers extracted documents for after-extraction exports, and what the `export` queue worker
// (batched flushes) and its safety-net sweep need. The container registers the consumer on the
// events module; the worker table starts the worker.
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { Queues } from '../../../jobs/queues.js';
import type { SecretBox } from '../../../lib/crypto.js';
import type { Logger } from '../../../lib/logger.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentsRepository } from '../../documents/documents.repository.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import type { SheetsApi, SheetsClientOptions, SheetsCredentials } from './client/types.js';
import { createClientCache } from './clients.js';
import { createConnectionsRepository } from './connections.repository.js';
import { createConnectionsService } from './connections.service.js';
import { createSheetsConsumer } from './consumer.js';
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
  /** Documents are read without their text and vector. */
  documents: Pick<DocumentsRepository, 'get' | 'getSummaryById' | 'exists'>;
  projects: Pick<ProjectsRepository, 'get'>;
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

/** What the `export` worker and its sweep need; workers/export.processor.ts starts them. */
export interface ExportWorkerDeps {
  queues: Queues;
  logger: Logger;
  handlers: {
    queueDocument(documentId: string, version: number): Promise<unknown>;
    flush(exportId: string): Promise<unknown>;
  };
  sweep(): Promise<unknown>;
  /** Sweep period in a worker process, ms; 0 turns it off. */
  sweepIntervalMs: number;
}

export function createSheetsModule(deps: SheetsModuleDeps, opts: SheetsModuleOptions = {}) {
  const connectionsRepo = createConnectionsRepository(deps.db);
  const exportsRepo = createExportsRepository(deps.db);
  const rowsRepo = createDocumentExportsRepository(deps.db);
  const producer = createExportProducer(deps.queues, {
    flushDelayMs: opts.flushDelayMs,
    attempts: opts.jobAttempts,
    backoffMs: opts.jobBackoffMs,
  });
  const clients = createClientCache({
    connections: connectionsRepo,
    secretBox: deps.secretBox,
    factory: opts.clientFactory,
    clientOptions: {
      rootUrl: deps.config.GOOGLE_API_ROOT_URL,
      tokenUrl: deps.config.GOOGLE_OAUTH_TOKEN_URL,
      timeoutMs: opts.requestTimeoutMs,
      serviceAccountAuth: opts.serviceAccountAuth,
    },
  });
  const connections = createConnectionsService({
    db: deps.db,
    repo: connectionsRepo,
    secretBox: deps.secretBox,
    clients,
  });
  const exports = createExportsService({
    db: deps.db,
    repo: exportsRepo,
    rows: rowsRepo,
    connections: connectionsRepo,
    projects: deps.projects,
    documents: deps.documents,
    producer,
  });
  const flusher = createFlusher(
    {
      db: deps.db,
      exports: exportsRepo,
      rows: rowsRepo,
      producer,
      clientFor: (id) => clients.byId(id),
      logger: deps.logger,
    },
    opts.flush,
  );

  const sweep = () => sweepExports(rowsRepo, producer, opts.sweep);

  return {
    connections,
    exports,
    producer,
    /** The export_sheets workflow step's plan and buffer. */
    workflowExport: createWorkflowExport({ repo: exportsRepo, rows: rowsRepo, producer }),
    /** The outbox consumer: document.extracted buffers the version for the project's after-extraction exports. */
    fanOut: createSheetsConsumer({ exports: exportsRepo, rows: rowsRepo, documents: deps.documents, producer }),
    /** Export status per target of a document, for GET /documents/{id}. */
    exportsForDocument: (scope: Scope, documentId: string) => exports.forDocument(scope, documentId),
    /** Writes an export's buffer now, in the caller (tests, CLI). */
    flushNow: (exportId: string) => flusher.flush(exportId),
    sweep,
    worker: {
      queues: deps.queues,
      logger: deps.logger,
      sweep,
      sweepIntervalMs: opts.sweepIntervalMs ?? 30_000,
      handlers: {
        queueDocument: (id: string, version: number) => exports.queueExtracted(id, version),
        flush: (id: string) => flusher.flush(id),
      },
    } satisfies ExportWorkerDeps,
  };
}

export type SheetsModule = ReturnType<typeof createSheetsModule>;
