/**
 * invoice2data's type conversions. Numbers: the template's decimal separator (default `.`) is
 * the decimal point and every other `.`, `,`, `'` and space is a thousands separator; what is
 * left must be a plain number. Dates: the template's strptime formats first, then the generic
 * reader (month first for `01/02/2024` unless the template's first language is not English,
 * as invoice2data's fallback parsers do).
 */
import { parseDate } from './dates.js';
import type { TemplateFieldType, TemplateOptions } from './template-schema.js';

export type Converted = { ok: true; value: string | number | null } | { ok: false; reason: string };

const PY_FLOAT = /^[+-]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** invoice2data's `parse_number`; null where Python would raise. */
export function parseTemplateNumber(value: string, decimalSeparator: string): number | null {
  if (value.split(decimalSeparator).length - 1 >= 2) return null;
  const s = value
    .replace(decimalSeparator, '|')
    .replace(/[.,'\s]/g, '')
    .replace('|', '.');
  if (!PY_FLOAT.test(s)) return null;
  const n = Number(s.replace(/_/g, ''));
  return Number.isFinite(n) ? n : null;
}

export interface Converter {
  (raw: string, type: TemplateFieldType): Converted;
}

/** A converter bound to one template's options. */
export function templateConverter(options: TemplateOptions | undefined): Converter {
  const sep = options?.decimal_separator ?? '.';
  const formats = options?.date_formats ?? [];
  const lang = options?.languages?.[0];
  const dayFirst = lang !== undefined && lang !== 'en' && !lang.startsWith('en-') && !lang.startsWith('en_');
  return (raw, type) => {
    if (type === 'date') return { ok: true, value: parseDate(raw, { formats, dayFirst }) };
    if (raw.trim() === '') return { ok: true, value: 0 };
    const n = parseTemplateNumber(raw, sep);
    if (n === null)
      return { ok: false, reason: `"${raw.slice(0, 60)}" is not a number with decimal separator "${sep}"` };
    return { ok: true, value: type === 'int' ? Math.trunc(n) : n };
  };
}

/** Python truthiness of a converted value (invoice2data drops falsy results). */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return false;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}
