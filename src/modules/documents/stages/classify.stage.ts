import type { Db } from '../../../db/client.js';
import { classify, type KnnNeighbour } from '../../../pipeline/classify/index.js';
import type { ClassifierService } from '../../classifier/classifier.service.js';
import type { StageCompute } from '../stage-runner.js';

/** Neighbours for the kNN blend: confirmed documents of the organization, same embedding model. */
async function neighbours(db: Db, orgId: string, env: string, modelId: string, exclude: string): Promise<KnnNeighbour[]> {
  const { rows } = await db.query<{ embedding: number[]; type: string }>(
    `SELECT embedding, classification->>'type' AS type FROM documents
     WHERE org_id = $1 AND environment = $2 AND embedding_model = $3 AND embedding IS NOT NULL AND id <> $4
       AND (classification->>'confirmed')::boolean = true
     ORDER BY updated_at DESC LIMIT 500`, [orgId, env, modelId, exclude]);
  return rows.map((r) => ({ vector: r.embedding, type: r.type }));
}

export function classifyStage(deps: { db: Db; classifier: ClassifierService; useKnn: () => boolean }): StageCompute {
  return async (doc, project, context) => {
    const scope = { orgId: doc.org_id, environment: doc.environment };
    // The stage read brings the organisation's current model version along.
    const model = await deps.classifier.modelFor(scope, context.classifierVersion);
    // A type a person confirmed outranks any model: re-running the stage keeps it.
    if (doc.classification?.confirmed) return { cols: { classified_at: new Date(), classifier_version: model.version } };
    const knn = deps.useKnn() && doc.embedding && doc.embedding_model
      ? { embedding: doc.embedding as unknown as number[], neighbours: await neighbours(deps.db, doc.org_id, doc.environment, doc.embedding_model, doc.id) }
      : {};
    const r = classify(model, doc.text_content ?? '', knn);
    const threshold = project?.classification_threshold ?? 0.6;
    return {
      cols: {
        classification: { type: r.type, confidence: r.confidence, method: r.method, distribution: r.distribution, confirmed: false },
        classified_at: new Date(), classifier_version: model.version,
      },
      needsReview: r.confidence < threshold,
      note: r.confidence < threshold ? `confidence ${r.confidence.toFixed(2)} is below the project threshold ${threshold}` : undefined,
    };
  };
}
