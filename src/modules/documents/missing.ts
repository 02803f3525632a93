import type { Scope } from '../api-keys/api-keys.repository.js';
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

/** SQL (OR of conditions) selecting documents where any of `stages` is missing. */
export async function missingStageSql(stages: Stage[], v: CurrentVersions, scope: Scope, firstParam: number) {
  const parts: string[] = [];
  const params: unknown[] = [];
  const p = (val: unknown) => { params.push(val); return `$${firstParam + params.length - 1}`; };
  for (const s of stages) {
    if (s === 'parse') parts.push(`parsed_at IS NULL OR coalesce(parser_version, '') <> ${p(v.parserVersion)}`);
    if (s === 'embed') {
      const model = v.embeddingModel();
      parts.push(model ? `embedded_at IS NULL OR embedding_model IS DISTINCT FROM ${p(model)}` : 'embedded_at IS NULL');
    }
    if (s === 'classify') parts.push(`classified_at IS NULL OR (classifier_version IS DISTINCT FROM ${p(await v.classifierVersion(scope))} AND coalesce((classification->>'confirmed')::boolean, false) = false)`);
    if (s === 'extract') {
      parts.push(`extracted_at IS NULL OR coalesce(extractor_version, '') <> ${p(v.extractorVersion)}
        OR (template_id IS NOT NULL AND template_version IS DISTINCT FROM (SELECT t.version FROM templates t WHERE t.id = documents.template_id))`);
    }
  }
  return { sql: parts.map((x) => `(${x})`).join(' OR ') || 'false', params };
}
