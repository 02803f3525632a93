import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';

/** Per-organization classifier models (one per organization and environment). */
export function createClassifierRepository(db: Db) {
  return {
    /** The version of the scope's trained model; null when none was trained (the built-in one applies). */
    async version(scope: Scope): Promise<string | null> {
      const { rows } = await db.query<{ version: string }>(
        'SELECT version FROM classifier_models WHERE org_id = $1 AND environment = $2',
        [scope.orgId, scope.environment],
      );
      return rows[0]?.version ?? null;
    },
    async get(scope: Scope): Promise<{ version: string; model: unknown } | null> {
      const { rows } = await db.query<{ version: string; model: unknown }>(
        'SELECT version, model FROM classifier_models WHERE org_id = $1 AND environment = $2',
        [scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    /** Stores the scope's model (a serialized model), replacing the previous one. */
    async save(scope: Scope, model: { version: string; serialized: string; trainedOn: number }): Promise<void> {
      await db.query(
        `INSERT INTO classifier_models (org_id, environment, version, model, trained_on) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (org_id, environment) DO UPDATE SET version = EXCLUDED.version, model = EXCLUDED.model, trained_on = EXCLUDED.trained_on, created_at = now()`,
        [scope.orgId, scope.environment, model.version, model.serialized, model.trainedOn],
      );
    },
  };
}

export type ClassifierRepository = ReturnType<typeof createClassifierRepository>;
