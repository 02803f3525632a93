import { join } from 'node:path';
import type { Logger } from '../../lib/logger.js';
import { packageRoot } from '../../lib/package-root.js';
import {
  classificationText,
  loadBuiltinModel,
  parseModel,
  serializeModel,
  trainWithSamples,
  type ClassifierModel,
} from '../../pipeline/classify/index.js';
import type { Scope } from '../../lib/scope.js';
import type { DocumentsRepository } from '../documents/documents.repository.js';
import type { ClassifierRepository } from './classifier.repository.js';

/** Confirmed documents count this much more than a built-in sample when retraining. */
const CONFIRMED_WEIGHT = 3;
/** Retraining reads at most this many confirmed documents (newest first). */
const MAX_CONFIRMED = 2000;

/**
 * The built-in classifier (trained from samples/ once, cached on disk) and per-organization
 * models retrained from the documents people confirmed.
 */
export function createClassifierService(deps: {
  repo: ClassifierRepository;
  /** Where the confirmed documents are read from. */
  documents: Pick<DocumentsRepository, 'confirmedTexts'>;
  logger: Logger;
  cacheDir: string;
  samplesDir?: string;
}) {
  const samplesDir = deps.samplesDir ?? join(packageRoot(), 'samples', 'classifier');
  let builtin: Promise<ClassifierModel> | undefined;
  const orgModels = new Map<string, { version: string; model: ClassifierModel }>();

  const getBuiltin = () => {
    if (!builtin) {
      const loading = loadBuiltinModel(samplesDir, { cachePath: join(deps.cacheDir, 'classifier-builtin.json') });
      // A failed load (training could not start, a full disk) is tried again by the next caller
      // instead of failing every classification until the process restarts.
      loading.catch(() => {
        if (builtin === loading) builtin = undefined;
      });
      builtin = loading;
    }
    return builtin;
  };

  /** `known`: the current version if the caller has just read it (null: no trained model). */
  async function orgModel(scope: Scope, known?: string | null): Promise<ClassifierModel | null> {
    const version = known !== undefined ? known : await deps.repo.version(scope);
    if (version === null) return null;
    const key = `${scope.orgId}:${scope.environment}`;
    const hit = orgModels.get(key);
    if (hit && hit.version === version) return hit.model;
    const full = await deps.repo.get(scope);
    if (!full) return null;
    const model = parseModel(JSON.stringify(full.model));
    orgModels.set(key, { version: full.version, model });
    return model;
  }

  return {
    builtin: getBuiltin,
    /** The model an organization's documents are classified with now. */
    async modelFor(scope: Scope, knownVersion?: string | null): Promise<ClassifierModel> {
      return (await orgModel(scope, knownVersion)) ?? getBuiltin();
    },
    async versionFor(scope: Scope): Promise<string> {
      return (await this.modelFor(scope)).version;
    },
    /** Retrains the organization's model from the built-in samples plus its confirmed documents. */
    async retrain(scope: Scope): Promise<{ version: string; confirmed: number } | null> {
      // What the classifier reads of each document: the whole text, or windows from start to end.
      const rows = await deps.documents.confirmedTexts(scope, MAX_CONFIRMED, (text) => classificationText(text));
      if (rows.length === 0) return null;
      // In a child process: the samples' text and the fit's garbage stay out of this one.
      const model = await trainWithSamples({
        samplesDir,
        extra: rows.map((r) => ({ text: r.text, type: r.type })),
        extraWeight: CONFIRMED_WEIGHT,
      });
      await deps.repo.save(scope, {
        version: model.version,
        serialized: serializeModel(model),
        trainedOn: rows.length,
      });
      deps.logger.info(
        { org: scope.orgId, confirmed: rows.length, version: model.version },
        'retrained organization classifier',
      );
      return { version: model.version, confirmed: rows.length };
    },
  };
}

export type ClassifierService = ReturnType<typeof createClassifierService>;
