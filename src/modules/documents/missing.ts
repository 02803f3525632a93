import type { Scope } from '../../lib/scope.js';
import type { Stage } from './documents.types.js';

/** What "current" means for `mode: missing`: the versions a stage would run with now. */
export interface CurrentVersions {
  /** The embedding model id configured now (null when none can be loaded). */
  embeddingModel(): string | null;
  /** The classifier version an organization's documents would be classified with now. */
  classifierVersion(scope: Scope): Promise<string>;
  /** Version tag of the parser and generic extractors (bumped when their behaviour changes). */
  parserVersion: string;
  extractorVersion: string;
}

/** {@link CurrentVersions} resolved for one scope. */
export interface StageVersions {
  parser: string;
  embeddingModel: string | null;
  classifier: string;
  extractor: string;
}

export async function resolveVersions(v: CurrentVersions, scope: Scope): Promise<StageVersions> {
  return {
    parser: v.parserVersion,
    embeddingModel: v.embeddingModel(),
    classifier: await v.classifierVersion(scope),
    extractor: v.extractorVersion,
  };
}

type Param = (value: unknown) => string;

// One condition per stage: the compiler makes a new stage say what "missing" means for it.
const MISSING: Record<Stage, (v: StageVersions, p: Param) => string> = {
  parse: (v, p) => `parsed_at IS NULL OR coalesce(parser_version, '') <> ${p(v.parser)}`,
  embed: (v, p) =>
    v.embeddingModel
      ? `embedded_at IS NULL OR embedding_model IS DISTINCT FROM ${p(v.embeddingModel)}`
      : 'embedded_at IS NULL',
  classify: (v, p) =>
    `classified_at IS NULL OR (classifier_version IS DISTINCT FROM ${p(v.classifier)} AND coalesce((classification->>'confirmed')::boolean, false) = false)`,
  extract: (v, p) => `extracted_at IS NULL OR coalesce(extractor_version, '') <> ${p(v.extractor)}
        OR (template_id IS NOT NULL AND template_version IS DISTINCT FROM (SELECT t.version FROM templates t WHERE t.id = documents.template_id))`,
};

/** SQL (OR of conditions over `documents`) selecting documents where any of `stages` is missing; used by the repository. */
export function missingStageSql(
  stages: Stage[],
  v: StageVersions,
  firstParam: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p: Param = (val) => {
    params.push(val);
    return `$${firstParam + params.length - 1}`;
  };
  const parts = stages.map((s) => `(${MISSING[s](v, p)})`);
  return { sql: parts.join(' OR ') || 'false', params };
}
