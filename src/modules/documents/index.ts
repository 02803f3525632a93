import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { Logger } from '../../lib/logger.js';
import { createEmbedderLoader, embeddingUnavailableWarning, type EmbedderLoader } from '../../pipeline/embed/index.js';
import { createPdfEngine, createTesseractOcr, type Ocr, type PdfEngine } from '../../pipeline/parse/index.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createClassifierRepository } from '../classifier/classifier.repository.js';
import { createClassifierService } from '../classifier/classifier.service.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import { createActivityService } from './activity.js';
import { createActivityRepository } from './activity.repository.js';
import { createBatchesRepository } from './batches.repository.js';
import { createDocumentsRepository } from './documents.repository.js';
import { createDocumentsService } from './documents.service.js';
import { createAttachmentDocuments } from './eml-attachments.js';
import type { CommittedDocument, Stage } from './documents.types.js';
import { createIntake } from './intake.js';
import { createStageRunner } from './stage-runner.js';
import { classifyStage } from './stages/classify.stage.js';
import { embedStage } from './stages/embed.stage.js';
import { EXTRACTOR_VERSION, extractStage } from './stages/extract.stage.js';
import { PARSER_VERSION, parseStage } from './stages/parse.stage.js';
import type { Scope } from '../../lib/scope.js';

/** Wires the documents domain: intake, API service, stage runner and the four stage functions. */
export function createDocumentsModule(deps: {
  config: Config; db: Db; queues: Queues; logger: Logger; blobs: BlobStore; projects: ProjectsRepository;
  onEvent?: () => void; embedder?: EmbedderLoader;
}) {
  const { config, db, queues, logger, blobs, projects } = deps;
  const docs = createDocumentsRepository(db);
  const batches = createBatchesRepository(db);
  const modelsDir = config.EMBEDDING_MODEL_DIR ?? join(config.dataDir, 'models');
  const embedder = deps.embedder ?? createEmbedderLoader({ modelId: config.EMBEDDING_MODEL, modelDir: modelsDir, allowDownload: config.ALLOW_MODEL_DOWNLOAD, threads: config.EMBEDDING_THREADS });
  const classifier = createClassifierService({ repo: createClassifierRepository(db), documents: docs, logger, cacheDir: config.CLASSIFIER_CACHE_DIR ?? join(config.dataDir, 'models') });
  const afterStageHooks = new Map<Stage, ((doc: CommittedDocument) => Promise<void>)[]>();
  let retrainHook: ((scope: Scope) => void) | undefined;

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
      maxMemoryMb: config.PARSE_MAX_MEMORY_MB,
      maxInflatedBytes: config.PARSE_MAX_INFLATED_MB * 1024 * 1024,
    });
    return pdf;
  };

  const intake = createIntake({ db, docs, projects, blobs, queues, logger, maxUploadBytes: config.MAX_UPLOAD_MB * 1024 * 1024, onEvent: deps.onEvent });
  const service = createDocumentsService({
    db, docs, projects, batches, blobs, queues, logger, onEvent: deps.onEvent,
    onConfirmed: (scope) => retrainHook?.(scope),
    versions: {
      embeddingModel: () => (embedder.status().state === 'ready' ? embedder.status().modelId : null),
      classifierVersion: (scope) => classifier.versionFor(scope),
      parserVersion: PARSER_VERSION,
      extractorVersion: EXTRACTOR_VERSION,
    },
  });
  const runner = createStageRunner({
    db, docs, batches, queues, logger, onEvent: deps.onEvent,
    afterStage: (stage) => {
      const hooks = afterStageHooks.get(stage);
      return hooks ? async (doc) => { for (const h of hooks) await h(doc); } : undefined;
    },
  });
  const computes = {
    parse: parseStage({
      blobs, maxPages: config.MAX_PAGES, maxImagePixels: config.OCR_MAX_MEGAPIXELS * 1_000_000, ocr: getOcr, pdf: getPdf,
      attachments: (doc, raw) => createAttachmentDocuments({ intake }, doc, raw),
    }),
    embed: embedStage({ embedder: () => embedder.get(), unavailableReason: () => embedder.status().reason }),
    // The kNN blend only means something with a real (pretrained) embedding model.
    classify: classifyStage({ docs, classifier, useKnn: () => embedder.status().state === 'ready' && !config.EMBEDDING_MODEL.startsWith('docpipe-test/') }),
    extract: extractStage(),
  };

  return {
    docs, batches, intake, service, runner, computes, classifier, embedder, activity: createActivityService(createActivityRepository(db)),
    /** `h` runs after `stage` commits, with the document row as written. */
    onAfterStage(stage: Stage, h: (doc: CommittedDocument) => Promise<void>) {
      afterStageHooks.set(stage, [...(afterStageHooks.get(stage) ?? []), h]);
    },
    onConfirmed(h: (scope: Scope) => void) { retrainHook = h; },
    /**
     * Loads the embedding model now; when it cannot be loaded, logs one warning naming the fix
     * (later retries stay quiet: documents carry the reason in their notes). Returns whether
     * the model is usable.
     */
    async checkEmbedder(log: Pick<Logger, 'warn'> = logger): Promise<boolean> {
      if (await embedder.get()) return true;
      const status = embedder.status();
      log.warn({ model: status.modelId, code: status.code }, embeddingUnavailableWarning(status, { modelDir: modelsDir, allowDownload: config.ALLOW_MODEL_DOWNLOAD }));
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
