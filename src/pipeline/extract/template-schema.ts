/**
 * The template model: invoice2data's keys, as plain JSON (`name` and an optional `id` added),
 * so that a YAML import and an API-created template are the same structure.
 */

export type TemplateFieldType = 'int' | 'float' | 'date';
export type TemplateGroup = 'sum' | 'min' | 'max' | 'first' | 'last' | 'join';

/** A table block: rows between `start` and `end`, each row matched by `line` (named groups). */
export interface TemplateLinesBlock {
  start: string;
  end: string;
  line: string;
  /** Starts a new row when a row spans several lines. */
  first_line?: string;
  /** Ends the current multi-line row. */
  last_line?: string;
  /** Lines to ignore inside the block. */
  skip_line?: string[];
  /** Conversion of named groups; others stay strings. */
  types?: Record<string, TemplateFieldType>;
}

export interface TemplateRegexField {
  parser: 'regex';
  regex: string | string[];
  type?: TemplateFieldType;
  /** How several matches combine. Default `first`. */
  group?: TemplateGroup;
}

export interface TemplateStaticField {
  parser: 'static';
  value: string | number;
}

export interface TemplateLinesField extends Partial<TemplateLinesBlock> {
  parser: 'lines';
  /** Several table layouts for one field (newer invoice2data style); alternative to inline keys. */
  rules?: TemplateLinesBlock[];
}

/**
 * A field: a regex, a list of regexes (legacy form; names starting with `date` are dates,
 * `amount` floats, `sum_amount` summed floats, `static_` prefixes a constant), or a parser object.
 */
export type TemplateFieldSpec = string | string[] | TemplateRegexField | TemplateStaticField | TemplateLinesField;

/** Text preparation and parsing conventions for one template. */
export interface TemplateOptions {
  /** ISO code reported as the `currency` field. Default: none (generic detection fills it). */
  currency?: string;
  /** strftime-like formats tried first for `date` fields, e.g. `%d.%m.%Y`. Default: []. */
  date_formats?: string[];
  /** Document languages (ISO 639-1). Informational; month names of all supported languages are always recognised. */
  languages?: string[];
  /** Decimal separator for ambiguous amounts. Default: decided per amount. */
  decimal_separator?: ',' | '.';
  /** Remove spaces and tabs (not line breaks) before matching. Default false. */
  remove_whitespace?: boolean;
  /** Strip diacritics before matching. Default false. */
  remove_accents?: boolean;
  /** Lower-case the text before matching (write keywords and regexes in lower case). Default false. */
  lowercase?: boolean;
  /** Regex replacements `[pattern, replacement]` applied in order before matching. Default []. */
  replace?: Array<[string, string]>;
}

export interface TemplateDef {
  /** Display name (the file name for YAML imports when the file has no `name`). */
  name: string;
  /** Storage id (`tpl_…`), set by the templates service. */
  id?: string;
  issuer: string;
  /** Regexes that must all match the prepared text. */
  keywords: string[];
  /** Regexes of which none may match. */
  exclude_keywords?: string[];
  /** Higher wins when several templates match. Default 5. */
  priority?: number;
  fields: Record<string, TemplateFieldSpec>;
  /** Top-level table block(s); rows become the `line_items` field. */
  lines?: TemplateLinesBlock | TemplateLinesBlock[];
  options?: TemplateOptions;
  /** Fields that must be produced. Default: amount, date, invoice_number, issuer. */
  required_fields?: string[];
}

export const DEFAULT_PRIORITY = 5;
export const DEFAULT_REQUIRED_FIELDS: readonly string[] = ['amount', 'date', 'invoice_number', 'issuer'];

/** A validation problem; `path` uses dots and [i], e.g. `fields.amount.regex[1]`. */
export interface TemplateIssue {
  path: string;
  message: string;
}

export type TemplateValidation =
  | { ok: true; template: TemplateDef; warnings: TemplateIssue[] }
  | { ok: false; errors: TemplateIssue[] };
