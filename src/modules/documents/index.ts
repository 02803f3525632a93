import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { Logger } from '../../lib/logger.js';
import type { Scope } from '../../lib/scope.js';
import { createEmbedderLoader, embeddingUnavailableWarning, type EmbedderLoader } from '../../pipeline/embed/index.js';
import { gate } from '../../lib/gate.js';
import {
  createPdfEngine,
  createTesseractOcr,
  normalizeImage,
  type Ocr,
  type PdfEngine,
} from '../../pipeline/parse/index.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createClassifierRepository } from '../classifier/classifier.repository.js';
import { createClassifierService } from '../classifier/classifier.service.js';
import type { EventEmitter } from '../events/emitter.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import { createActivityService } from './activity.js';
import { createActivityRepository } from './activity.repository.js';
import { createBatchesRepository } from './batches.repository.js';
import { createReprocessWalker, type WalkOptions } from './reprocess-walker.js';
import { createRunStarter } from './runs.js';
import { createDocumentsRepository } from './documents.repository.js';
import { createStageStateRepository } from './stage-state.repository.js';
import { createDocumentsService } from './documents.service.js';
import { createAttachmentDocuments } from './eml-attachments.js';
import type { DocumentRow, Stage } from './documents.types.js';
import { createIntake } from './intake.js';
import { createNearDuplicates, withNearDuplicates } from './near-duplicates.js';
import { createStageRunner, type StageCompute } from './stage-runner.js';
import { classifyStage } from './stages/classify.stage.js';
import { embedStage } from './stages/embed.stage.js';
import { EXTRACTOR_VERSION, extractStage } from './stages/extract.stage.js';
import { PARSER_VERSION, parseStage } from './stages/parse.stage.js';

/** Longest side of an image preview, pixels: enough for a screen, a fraction of a 600 dpi scan. */
const PREVIEW_MAX_SIDE = 2400;

/** The settings the documents domain works with (the container fills them from the configuration). */
export interface DocumentsSettings {
  /** Largest upload, bytes (MAX_UPLOAD_MB). */
  maxUploadBytes: number;
  /** Pages parsed at most (MAX_PAGES). */
  maxPages: number;
  /** Largest image OCR reads, pixels (OCR_MAX_MEGAPIXELS). */
  maxImagePixels: number;
  /** Memory of each parser process, MB (PARSE_MAX_MEMORY_MB). */
  parseMaxMemoryMb: number;
  /** Bytes a document may inflate to while it is read (PARSE_MAX_INFLATED_MB). */
  parseMaxInflatedBytes: number;
  embedding: {
    /** EMBEDDING_MODEL */
    modelId: string;
    /** Where models are kept (EMBEDDING_MODEL_DIR, default DATA_DIR/models). */
    modelDir: string;
    /** ALLOW_MODEL_DOWNLOAD */
    allowDownload: boolean;
    /** EMBEDDING_THREADS */
    threads: number;
  };
  /** Where the built-in classifier is cached (CLASSIFIER_CACHE_DIR, default DATA_DIR/models). */
  classifierCacheDir: string;
  /** Blend the nearest confirmed documents into classification when a model is loaded (CLASSIFY_KNN). */
  knn: boolean;
  /** Reprocess batch walking (REPROCESS_PAGE_SIZE, REPROCESS_MAX_IN_FLIGHT); defaults otherwise. */
  reprocess?: Partial<WalkOptions>;
}

export interface DocumentsModuleDeps {
  db: Db;
  queues: Queues;
  logger: Logger;
  blobs: BlobStore;
  projects: ProjectsRepository;
  events: EventEmitter;
  /** A person confirmed a document's type: the organization's classifier can be retrained. */
  onConfirmed?: (scope: Scope) => void;
  /** Embedding model loader; default one built from the settings (tests pass their own). */
  embedder?: EmbedderLoader;
}

/** Wires the documents domain: intake, API service, stage runner and the four stage functions. */
export function createDocumentsModule(deps: DocumentsModuleDeps, settings: DocumentsSettings) {
  const { db, queues, logger, blobs, projects, events } = deps;
  const docs = createDocumentsRepository(db);
  const stages = createStageStateRepository(db);
  const batches = createBatchesRepository(db);
  const embedder = deps.embedder ?? createEmbedderLoader(settings.embedding);
  const classifier = createClassifierService({
    repo: createClassifierRepository(db),
    documents: docs,
    logger,
    cacheDir: settings.classifierCacheDir,
  });
  const failedHooks: ((doc: DocumentRow, error: { stage: Stage; code: string; message: string }) => Promise<void>)[] =
    [];

  // Both are started on first use and shared by every parse job of the process. Parsing runs in
  // child processes with a memory cap: one hostile file can otherwise take the process down.
  let ocr: Promise<Ocr> | undefined;
  const getOcr = () => {
    ocr ??= Promise.resolve(createTesseractOcr({ workers: 1 }));
    return ocr;
  };
  let pdf: PdfEngine | undefined;
  const getPdf = () => {
    pdf ??= createPdfEngine({
      workers: 2,
      maxMemoryMb: settings.parseMaxMemoryMb,
      maxInflatedBytes: settings.parseMaxInflatedBytes,
    });
    return pdf;
  };

  const intake = createIntake({
    db,
    docs,
    projects,
    blobs,
    queues,
    logger,
    maxUploadBytes: settings.maxUploadBytes,
  });
  const runs = createRunStarter({ docs, projects, queues, logger });
  const walker = createReprocessWalker({ db, docs, batches, runs }, settings.reprocess);
  const service = createDocumentsService({
    db,
    docs,
    projects,
    batches,
    runs,
    walker,
    blobs,
    queues,
    logger,
    events,
    onConfirmed: deps.onConfirmed,
    // Two at a time per process: each decodes in a process of its own.
    previewImage: gate(2, (bytes: Buffer) =>
      normalizeImage(bytes, { maxPixels: settings.maxImagePixels, maxSide: PREVIEW_MAX_SIDE }),
    ),
    versions: {
      embeddingModel: () => (embedder.status().state === 'ready' ? embedder.status().modelId : null),
      classifierVersion: (scope) => classifier.versionFor(scope),
      parserVersion: PARSER_VERSION,
      extractorVersion: EXTRACTOR_VERSION,
    },
  });
  const runner = createStageRunner({
    db,
    docs,
    stages,
    batches,
    queues,
    logger,
    events,
    onFailed: async (doc, error) => {
      for (const h of failedHooks) await h(doc, error);
    },
  });
  const computes: Record<Stage, StageCompute> = {
    parse: withNearDuplicates(
      parseStage({
        blobs,
        maxPages: settings.maxPages,
        maxImagePixels: settings.maxImagePixels,
        ocr: getOcr,
        pdf: getPdf,
        attachments: (doc, raw) => createAttachmentDocuments({ intake }, doc, raw),
      }),
      createNearDuplicates(db),
    ),
    embed: embedStage({ embedder: () => embedder.get(), unavailableReason: () => embedder.status().reason }),
    // The kNN blend only means something with a real (pretrained) embedding model.
    classify: classifyStage({ docs, classifier, useKnn: () => settings.knn && embedder.status().state === 'ready' }),
    extract: extractStage(),
  };

  const activityRepo = createActivityRepository(db);
  return {
    docs,
    stages,
    batches,
    intake,
    service,
    runner,
    /** Queues reprocess batches page by page (the maintenance worker runs it). */
    walker,
    runs,
    computes,
    classifier,
    embedder,
    activity: createActivityService(activityRepo),
    activityRepo,
    /** `h` runs once after a document is marked failed (the container tells senders of mailed documents). */
    onFailed(h: (doc: DocumentRow, error: { stage: Stage; code: string; message: string }) => Promise<void>) {
      failedHooks.push(h);
    },
    /**
     * Loads the embedding model now; when it cannot be loaded, logs one warning naming the fix
     * (later retries stay quiet: documents carry the reason in their notes). Returns whether
     * the model is usable.
     */
    async checkEmbedder(log: Pick<Logger, 'warn'> = logger): Promise<boolean> {
      if (await embedder.get()) return true;
      const status = embedder.status();
      log.warn(
        { model: status.modelId, code: status.code },
        embeddingUnavailableWarning(status, {
          modelDir: settings.embedding.modelDir,
          allowDownload: settings.embedding.allowDownload,
        }),
      );
      return false;
    },
    async close() {
      if (ocr) await (await ocr).close();
      if (pdf) await pdf.close();
      await embedder.close?.();
    },
  };
}

export type DocumentsModule = ReturnType<typeof createDocumentsModule>;
