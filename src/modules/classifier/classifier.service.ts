import { join } from 'node:path';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { packageRoot } from '../../lib/package-root.js';
import {
  loadBuiltinModel, loadSampleSet, parseModel, serializeModel, trainClassifier, type ClassifierModel, type SampleExample,
} from '../../pipeline/classify/index.js';
import type { Scope } from '../api-keys/api-keys.repository.js';

/** Confirmed documents count this much more than a built-in sample when retraining. */
const CONFIRMED_WEIGHT = 3;
/** Retraining reads at most this many confirmed documents (newest first). */
const MAX_CONFIRMED = 2000;

/**
 * The built-in classifier (trained from samples/ once, cached on disk) and per-organization
 * models retrained from the documents people confirmed.
 */
export function createClassifierService(deps: { db: Db; logger: Logger; cacheDir: string; samplesDir?: string }) {
  const samplesDir = deps.samplesDir ?? join(packageRoot(), 'samples', 'classifier');
  let builtin: Promise<ClassifierModel> | undefined;
  let samples: Promise<SampleExample[]> | undefined;
  const orgModels = new Map<string, { version: string; model: ClassifierModel }>();

  const getBuiltin = () => {
    builtin ??= loadBuiltinModel(samplesDir, { cachePath: join(deps.cacheDir, 'classifier-builtin.json') });
    return builtin;
  };

  /** `known`: the current version if the caller has just read it (null: no trained model). */
  async function orgModel(scope: Scope, known?: string | null): Promise<ClassifierModel | null> {
    const version = known !== undefined
      ? known
      : (await deps.db.query<{ version: string }>('SELECT version FROM classifier_models WHERE org_id = $1 AND environment = $2', [scope.orgId, scope.environment])).rows[0]?.version ?? null;
    if (version === null) return null;
    const key = `${scope.orgId}:${scope.environment}`;
    const hit = orgModels.get(key);
    if (hit && hit.version === version) return hit.model;
    const full = await deps.db.query<{ version: string; model: unknown }>('SELECT version, model FROM classifier_models WHERE org_id = $1 AND environment = $2', [scope.orgId, scope.environment]);
    if (!full.rows[0]) return null;
    const model = parseModel(JSON.stringify(full.rows[0].model));
    orgModels.set(key, { version: full.rows[0].version, model });
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
      const { rows } = await deps.db.query<{ text: string; type: string }>(
        `SELECT left(text_content, 20000) AS text, classification->>'type' AS type FROM documents
         WHERE org_id = $1 AND environment = $2 AND (classification->>'confirmed')::boolean = true AND text_content IS NOT NULL
         ORDER BY updated_at DESC LIMIT $3`, [scope.orgId, scope.environment, MAX_CONFIRMED]);
      if (rows.length === 0) return null;
      samples ??= loadSampleSet(samplesDir);
      const base = await samples;
      const examples = [...base.map((s) => ({ text: s.text, type: s.type })), ...rows.map((r) => ({ text: r.text, type: r.type }))];
      const weights = [...base.map(() => 1), ...rows.map(() => CONFIRMED_WEIGHT)];
      const model = trainClassifier(examples, { weights });
      await deps.db.query(
        `INSERT INTO classifier_models (org_id, environment, version, model, trained_on) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (org_id, environment) DO UPDATE SET version = EXCLUDED.version, model = EXCLUDED.model, trained_on = EXCLUDED.trained_on, created_at = now()`,
        [scope.orgId, scope.environment, model.version, serializeModel(model), rows.length],
      );
      deps.logger.info({ org: scope.orgId, confirmed: rows.length, version: model.version }, 'retrained organization classifier');
      return { version: model.version, confirmed: rows.length };
    },
  };
}

export type ClassifierService = ReturnType<typeof createClassifierService>;
