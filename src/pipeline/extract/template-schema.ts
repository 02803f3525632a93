/**
 * The template model: invoice2data's keys, as plain JSON (`name` and an optional `id` added),
 * so that a YAML or JSON import and an API-created template are the same structure.
 */

export type TemplateFieldType = 'int' | 'float' | 'date';
export type TemplateGroup = 'sum' | 'min' | 'max' | 'first' | 'last' | 'join';

/**
 * A crop of the PDF page the field is read from, as pdftotext's `-f -l -x -y -W -H -r`: pages
 * `f`..`l`, a box of `W`×`H` pixels at (`x`, `y`) from the top left, at `r` dpi (default 72).
 */
export interface TemplateArea {
  f?: number;
  l?: number;
  x: number;
  y: number;
  W: number;
  H: number;
  r?: number;
}

/** One set of rules of the `lines` parser: rows between `start` and `end`. */
export interface TemplateLinesRule {
  start: string;
  end: string;
  /** A row pattern, or several tried in order; named groups become the columns. */
  line: string | string[];
  /** Starts a new row when a row spans several lines. */
  first_line?: string | string[];
  /** Ends the current multi-line row. */
  last_line?: string | string[];
  /** Lines to ignore inside the block. */
  skip_line?: string | string[];
  /** Splits the block into lines. Default `\n`. */
  line_separator?: string;
  /** Conversion of named groups; others stay strings. */
  types?: Record<string, TemplateFieldType>;
}

/** Kept for callers of the earlier name. */
export type TemplateLinesBlock = TemplateLinesRule;

export interface TemplateRegexField {
  parser: 'regex';
  regex: string | string[];
  type?: TemplateFieldType;
  /** How several matches combine. Default: none (a list of the distinct matches, or the one match). */
  group?: TemplateGroup;
  area?: TemplateArea;
  /**
   * docpipe's addition (learned templates write it; invoice2data ignores it): the tax rate the
   * issuer charges, as a fraction (0.06). When the regex finds nothing, the value is the printed
   * figure that is a printed net amount plus its tax at this rate (see tax-rate.ts).
   */
  tax_rate?: number;
}

export interface TemplateStaticField {
  parser: 'static';
  value: string | number | boolean;
}

export interface TemplateLinesField extends Partial<TemplateLinesRule> {
  parser: 'lines';
  /** Several table layouts for one field; keys given next to `rules` are defaults for each. */
  rules?: TemplateLinesRule[];
  area?: TemplateArea;
}

/**
 * A field: a regex or a list of regexes (legacy form: names starting or ending with `date` are
 * dates, starting with `amount` floats, `sum_amount…` summed floats, `static_…` a constant), or a
 * parser object.
 */
export type TemplateFieldSpec =
  string | number | boolean | string[] | TemplateRegexField | TemplateStaticField | TemplateLinesField;

/** The `tables` plugin: each matching body line adds its named groups to the output. */
export interface TemplateTable {
  start: string;
  end: string;
  body: string;
  /** Splits the table into lines. Default `\n`. */
  line_separator?: string;
  types?: Record<string, TemplateFieldType>;
  /** Per-column `type` and `group` (how the values of several rows combine). */
  fields?: Record<string, { type?: TemplateFieldType; group?: TemplateGroup }>;
}

/** Text preparation and parsing conventions for one template. */
export interface TemplateOptions {
  /** ISO code reported as the `currency` field. Default: none (generic detection fills it). */
  currency?: string;
  /** strptime formats tried first for dates, e.g. `%d.%m.%Y`. Default: []. */
  date_formats?: string[];
  /** Document languages (ISO 639-1); a first language other than English reads 01/02/2024 day first. Default: []. */
  languages?: string[];
  /** Decimal separator of amounts. Default `.` (as invoice2data). */
  decimal_separator?: ',' | '.';
  /** Remove runs of spaces before matching. Default false. */
  remove_whitespace?: boolean;
  /** Transliterate to ASCII (accents stripped, ß → ss, …) before matching. Default false. */
  remove_accents?: boolean;
  /** Lower-case the text before matching (write keywords and regexes in lower case). Default false. */
  lowercase?: boolean;
  /** Regex replacements `[pattern, replacement]` applied in order before matching. Default []. */
  replace?: Array<[string, string]>;
}

export interface TemplateDef {
  /** Display name (the file name for imports when the file has no `name`). */
  name: string;
  /** Storage id (`tpl_…`), set by the templates service. */
  id?: string;
  /** Default: the first keyword (as invoice2data). */
  issuer: string;
  /** Regexes that must all match the prepared text. */
  keywords: string[];
  /** Regexes of which none may match. */
  exclude_keywords?: string[];
  /** Higher wins when several templates match. Default 5. */
  priority?: number;
  fields: Record<string, TemplateFieldSpec>;
  /** Top-level table block(s) (the older `lines` plugin); rows become the `lines` field. */
  lines?: TemplateLinesRule | TemplateLinesRule[];
  tables?: TemplateTable[];
  options?: TemplateOptions;
  /** Fields that must be produced. Default: amount, date, invoice_number, issuer. */
  required_fields?: string[];
  /** The type a matching document is classified as (docpipe's addition). Default `invoice`. */
  document_type?: string;
}

export const DEFAULT_PRIORITY = 5;
export const DEFAULT_REQUIRED_FIELDS: readonly string[] = ['date', 'amount', 'invoice_number', 'issuer'];

/** A validation problem; `path` uses dots and [i], e.g. `fields.amount.regex[1]`. */
export interface TemplateIssue {
  path: string;
  message: string;
}

export type TemplateValidation =
  { ok: true; template: TemplateDef; warnings: TemplateIssue[] } | { ok: false; errors: TemplateIssue[] };
