// Full-text search configurations by document language (the parse stage's guess: see
// src/pipeline/parse/language.ts). A document's tsvector holds its words as written ('simple',
// weight A) plus, when its language is known, their stems in that language.

const CONFIGS: Record<string, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  nl: 'dutch',
};

/** The configurations a query is parsed with: words as written, and every language's stems. */
export const SEARCH_CONFIGS: readonly string[] = ['simple', ...new Set(Object.values(CONFIGS))];

/** The text search configuration for a document language ('simple' when unknown). */
export function searchConfigFor(language: string | null | undefined): string {
  return (language && CONFIGS[language]) || 'simple';
}

/** tsvector input is capped (PostgreSQL limits a tsvector to 1 MB). */
export const SEARCH_CHARS = 200_000;

/**
 * SQL for a document's tsvector from a text parameter and a configuration parameter (both
 * placeholders): the words as written weigh more than their stems, so an exact word ranks first.
 */
export function searchVectorSql(text: string, config: string): string {
  const t = `left(${text}::text, ${SEARCH_CHARS})`;
  return `setweight(to_tsvector('simple', ${t}), 'A') || CASE WHEN ${config}::text = 'simple' THEN ''::tsvector ELSE to_tsvector(${config}::text::regconfig, ${t}) END`;
}
