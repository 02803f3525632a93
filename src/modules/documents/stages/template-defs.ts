import { matchTemplate, type TemplateDef } from '../../../pipeline/extract/index.js';
import { layoutText, type StoredLayout } from '../../../pipeline/parse/index.js';
import type { ExtractionTemplate } from '../../templates/templates.repository.js';

/**
 * Template definitions by id, reused while their version stands: the engine keeps what it
 * works out about a template (keyword literals, replace-rule analysis) per definition object,
 * so each version is worked out once per process instead of once per document.
 */
const DEFINITION_CACHE_LIMIT = 5000;
const definitions = new Map<string, { version: number; def: TemplateDef }>();

export function definitionOf(t: ExtractionTemplate): TemplateDef {
  const hit = definitions.get(t.id);
  if (hit && hit.version === t.version) return hit.def;
  const def: TemplateDef = { ...t.definition, id: t.id };
  definitions.delete(t.id);
  if (definitions.size >= DEFINITION_CACHE_LIMIT) definitions.delete(definitions.keys().next().value as string);
  definitions.set(t.id, { version: t.version, def });
  return def;
}

/** The text templates read: a PDF as pdftotext -layout prints it (as invoice2data's do), else the text. */
export function templateTextOf(text: string, layout: StoredLayout | null | undefined): string {
  return layout ? layoutText(layout, text) : text;
}

/**
 * A template whose keywords all match is the strongest evidence of a document's type there is:
 * it classifies the document whatever the classifier thinks. Confidence grows with the number
 * of keywords that had to match (one keyword 0.9, three 0.967, capped at 0.99).
 */
export function templateClassification(
  templates: readonly TemplateDef[],
  templateText: string,
): { type: string; confidence: number; template: TemplateDef } | null {
  if (templates.length === 0) return null;
  const t = matchTemplate(templates, templateText);
  if (!t) return null;
  const confidence = Math.min(0.99, 1 - 0.1 / Math.max(1, t.keywords.length));
  return { type: t.document_type ?? 'invoice', confidence: Math.round(confidence * 1000) / 1000, template: t };
}
