/** How a field value was found. */
export type ExtractMethod = 'template' | 'regex' | 'label' | 'heuristic';

/** One row of a table (line items, template `lines` blocks) or one structured entry (contract parties). */
export type FieldRow = Record<string, string | number | null>;

export type FieldValue = string | number | null | Array<string | number | null> | FieldRow[];

/**
 * Where a value was read: a box on a page (`page` 1-based; `bbox` [x0, y0, x1, y1] from the
 * page's top left, in PDF points or image pixels) or `[start, end)` offsets into the text.
 */
export type FieldPosition =
  { page: number; bbox: [number, number, number, number]; unit: 'pt' | 'px' } | { start: number; end: number };

/** A single extracted field. `confidence` is in [0, 1]. */
export interface ExtractedField {
  value: FieldValue;
  confidence: number;
  method: ExtractMethod;
  /** Where the value was read (absent when it was not read from the page). */
  position?: FieldPosition;
  /** Table values: each row's cell positions by column. */
  cells?: Array<Record<string, FieldPosition>>;
  /** A value not read from the document (a template's static value): it gets no position. */
  computed?: true;
}

export type ExtractedFields = Record<string, ExtractedField>;

/** Document types the generic extractors know; anything else is treated as `other`. */
export const DOCUMENT_TYPES = [
  'invoice',
  'receipt',
  'purchase_order',
  'bank_statement',
  'contract',
  'resume',
  'letter',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * Hints that resolve genuinely ambiguous notations. Both are optional: without them the
 * extractors decide from the string itself and from the rest of the document.
 */
export interface ExtractHints {
  /**
   * Decimal separator to assume when a number alone cannot tell (`1,234` / `1.234`).
   * Default: undefined — a lone separator followed by exactly three digits is read as a
   * thousands separator.
   */
  decimalSeparator?: ',' | '.';
  /**
   * Read `03/05/2024` as 3 May (true) or March 5 (false). Default: undefined — inferred from
   * other dates in the document (a value above 12 settles it), then from the currency
   * (`$`/USD alone suggests month-first), else day-first.
   */
  dayFirst?: boolean;
}

export function clampConfidence(c: number): number {
  if (!Number.isFinite(c)) return 0;
  return Math.round(Math.min(1, Math.max(0, c)) * 1000) / 1000;
}

export function field(value: FieldValue, confidence: number, method: ExtractMethod): ExtractedField {
  return { value, confidence: clampConfidence(confidence), method };
}
