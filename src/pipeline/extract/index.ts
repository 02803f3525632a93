/**
 * The extract stage: template fields when a template applies, generic fields for the
 * classified document type otherwise — and generic fields fill whatever the template left out.
 */
import { extractGeneric } from './generic.js';
import { RegexBudget } from '../../lib/user-regex/index.js';
import { DEFAULT_TEMPLATE_BUDGET_MS, matchTemplate, runTemplate } from './template.js';
import { PreparedTexts } from './template-select.js';
import type { TemplateArea, TemplateDef } from './template-schema.js';
import { clampConfidence, type ExtractHints, type ExtractedFields } from './types.js';

export interface ExtractInput {
  /** Reading-order text (generic extraction). */
  text: string;
  /** Text templates are matched and applied to (the pdftotext-style layout text of a PDF). Default `text`. */
  templateText?: string;
  /** Classified type (`invoice`, `receipt`, …); unknown types get the `other` extractors. */
  type: string;
  /** The project's default template: applied when no template from `templates` matches. */
  template?: TemplateDef | null;
  /** Candidate templates, chosen by keywords and priority. */
  templates?: readonly TemplateDef[];
  hints?: ExtractHints;
  /** Layout text of a page region, for template fields with an `area` (PDFs only). */
  areaText?: (area: TemplateArea) => string | null;
  /** Time budget for all template regex work (choosing and applying) in ms. Default 1000. */
  templateBudgetMs?: number;
}

export interface ExtractResult {
  fields: ExtractedFields;
  /** `id` (or `name` when unsaved) of the template used. */
  templateId?: string;
  method: 'template' | 'generic';
  /** Required fields the template did not produce (generic values may still fill them). */
  missingRequired?: string[];
  /** Template problems worth showing to its author (unconvertible values, budget). */
  warnings?: string[];
}

/**
 * Template and generic names for the same thing: when a template produced one member of a
 * group, generic values for the others are not added (no `total` next to a template `amount`).
 */
const ALIASES: ReadonlyArray<readonly string[]> = [
  ['amount', 'total'],
  ['date', 'issue_date'],
  ['issuer', 'vendor', 'merchant'],
  ['lines', 'line_items'],
];

/**
 * A default template applied without its keywords matching is less trustworthy than one the
 * document selected itself.
 */
const UNMATCHED_DEFAULT_FACTOR = 0.85;

export function extractFields(input: ExtractInput): ExtractResult {
  const { text, type } = input;
  const budgetMs = input.templateBudgetMs ?? DEFAULT_TEMPLATE_BUDGET_MS;
  const budget = new RegexBudget(budgetMs);
  const tplText = input.templateText ?? text;
  // Texts prepared while choosing are reused when applying the chosen template.
  const prepared = new PreparedTexts(tplText, budget);
  const matched = matchTemplate(input.templates ?? [], tplText, budget, prepared);
  const chosen = matched ?? input.template ?? null;
  const hints: ExtractHints = {
    ...input.hints,
    decimalSeparator: input.hints?.decimalSeparator ?? chosen?.options?.decimal_separator,
  };
  // Template work first: its time budget must not pay for the generic extractors.
  const run = chosen
    ? runTemplate(chosen, tplText, {
        budget,
        budgetMs,
        prepared,
        ...(input.areaText ? { areaText: input.areaText } : {}),
      })
    : null;
  const generic = extractGeneric(text, type, hints);
  if (!chosen || !run) return { fields: generic, method: 'generic' };

  const fields: ExtractedFields = {};
  for (const [k, f] of Object.entries(run.fields)) {
    fields[k] = matched ? f : { ...f, confidence: clampConfidence(f.confidence * UNMATCHED_DEFAULT_FACTOR) };
  }
  for (const [k, f] of Object.entries(generic)) {
    if (fields[k] !== undefined) continue;
    const group = ALIASES.find((g) => g.includes(k));
    if (group && group.some((a) => run.fields[a] !== undefined)) continue;
    fields[k] = f;
  }
  return {
    fields,
    templateId: chosen.id ?? chosen.name,
    method: 'template',
    missingRequired: run.missingRequired,
    ...(run.warnings.length > 0 ? { warnings: run.warnings } : {}),
  };
}

export { parseAmount, findAmounts, type AmountOptions } from './amounts.js';
export { attachPositions, parsePosition, type PositionSource } from './positions.js';
export { findValue, locateValue, lineEnd, type TextSpan } from './locate.js';
export { detectCurrency, detectCurrencyDetailed } from './currency.js';
export { parseDate, findDates, parseDateWithFormat, type DateOptions } from './dates.js';
export { isValidIban, findIbans, formatIban } from './iban.js';
export { extractGeneric, normaliseType } from './generic.js';
export {
  matchTemplate,
  matchTemplates,
  evaluateTemplates,
  rankMatches,
  applyTemplate,
  runTemplate,
  missingRequiredFields,
  prepareText,
} from './template.js';
export type { ApplyTemplateOptions, TemplateRunResult, TemplateMatchTrace, FieldTrace } from './template.js';
export { validateTemplate, type ValidateOptions } from './template-validate.js';
export { parseTemplateYaml, type ParseTemplateYamlResult, type ParseTemplateYamlOptions } from './template-yaml.js';
export * from './template-schema.js';
export * from './types.js';
