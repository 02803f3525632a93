import { classify, type KnnNeighbour } from '../../../pipeline/classify/index.js';
import type { ClassifierService } from '../../classifier/classifier.service.js';
import { DEFAULT_CLASSIFICATION_THRESHOLD } from '../../projects/projects.types.js';
import type { DocumentsRepository } from '../documents.repository.js';
import type { Scope } from '../../../lib/scope.js';
import type { StageCompute } from '../stage-runner.js';
import { definitionOf, templateClassification, templateTextOf } from './template-defs.js';

/** How many confirmed documents the kNN blend compares with (the newest). */
const MAX_NEIGHBOURS = 500;

export function classifyStage(deps: {
  docs: Pick<DocumentsRepository, 'confirmedVectors'>;
  classifier: ClassifierService;
  useKnn: () => boolean;
}): StageCompute {
  /** Neighbours for the kNN blend: confirmed documents of the organization, same embedding model. */
  const neighbours = async (scope: Scope, modelId: string, exclude: string): Promise<KnnNeighbour[]> =>
    (await deps.docs.confirmedVectors(scope, modelId, exclude, MAX_NEIGHBOURS)).map((r) => ({
      vector: r.embedding,
      type: r.type,
    }));

  return async (doc, project, context) => {
    const scope = { orgId: doc.org_id, environment: doc.environment };
    // The stage read brings the organisation's current model version along.
    const model = await deps.classifier.modelFor(scope, context.classifierVersion);
    // A type a person confirmed outranks any model: re-running the stage keeps it.
    if (doc.classification?.confirmed)
      return { cols: { classified_at: new Date(), classifier_version: model.version } };
    // A matching template classifies the document, however unsure the classifier would be.
    const templates = (context.templates ?? []).map(definitionOf);
    const byTemplate =
      templates.length > 0
        ? templateClassification(templates, templateTextOf(doc.text_content ?? '', doc.layout))
        : null;
    if (byTemplate)
      return {
        cols: {
          classification: {
            type: byTemplate.type,
            confidence: byTemplate.confidence,
            method: 'template',
            template_id: byTemplate.template.id ?? null,
            confirmed: false,
          },
          classified_at: new Date(),
          classifier_version: model.version,
        },
      };
    const knn =
      deps.useKnn() && doc.embedding && doc.embedding_model
        ? {
            embedding: doc.embedding as unknown as number[],
            neighbours: await neighbours(scope, doc.embedding_model, doc.id),
          }
        : {};
    const r = classify(model, doc.text_content ?? '', knn);
    const threshold = project?.classification_threshold ?? DEFAULT_CLASSIFICATION_THRESHOLD;
    return {
      cols: {
        classification: {
          type: r.type,
          confidence: r.confidence,
          method: r.method,
          distribution: r.distribution,
          confirmed: false,
        },
        classified_at: new Date(),
        classifier_version: model.version,
      },
      needsReview: r.confidence < threshold,
      note:
        r.confidence < threshold
          ? `confidence ${r.confidence.toFixed(2)} is below the project threshold ${threshold}`
          : undefined,
    };
  };
}
