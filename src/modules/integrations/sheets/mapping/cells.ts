// Turning extracted values into cells for `valueInputOption=USER_ENTERED`.
//
// USER_ENTERED is what makes a date land as a date and a number as a number, but it parses
// *every* string the way a person typing into the sheet would: "00123" becomes 123, "TRUE" a
// boolean, "1/2/2024" a date and "=IMPORTXML(...)" a live formula. Document text is hostile
// input, so every string we do not deliberately want parsed gets a leading apostrophe — Sheets'
// quote prefix, which forces literal text and is not stored as part of the value.

/** A value ready to send in a `values` array. */
export type SheetCell = string | number | boolean;

/** Sheets rejects cells longer than this many characters. */
export const MAX_CELL_CHARS = 50_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * `YYYY-MM-DD` for an ISO date or date-time string, else null. The date part is taken as
 * written (the producer's offset), not shifted to UTC.
 */
export function isoDatePart(text: string): string | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function truncate(text: string): string {
  if (text.length <= MAX_CELL_CHARS) return text;
  let cut = text.slice(0, MAX_CELL_CHARS - 1);
  // Never leave half of a surrogate pair at the end.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  } catch {
    // circular structures: nothing sensible to put in a cell
    return '';
  }
}

/** A string forced to stay literal text under USER_ENTERED. */
export function literalText(text: string): SheetCell {
  return text === '' ? '' : `'${truncate(text)}`;
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
  if (typeof v === 'object') return safeJson(v);
  return String(v);
}

/**
 * One cell for USER_ENTERED input:
 * - null / undefined / NaN / ±Infinity / invalid Date → `''` (an empty cell)
 * - finite number → the number; boolean → the boolean; safe bigint → number, else literal text
 * - Date, or an ISO date / date-time string → `YYYY-MM-DD` (Sheets stores a date)
 * - any other string → literal text (quote-prefixed; never a formula, number or boolean)
 * - array of scalars → their text joined with `", "`; other arrays and objects → JSON text
 * Text is cut to Sheets' 50,000-character cell limit.
 */
export function typedCell(value: unknown): SheetCell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : literalText(value.toString());
  }
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  }
  if (typeof value === 'string') return isoDatePart(value) ?? literalText(value);
  if (Array.isArray(value)) {
    const scalars = value.every((v) => v === null || typeof v !== 'object' || v instanceof Date);
    if (scalars) {
      return literalText(
        value
          .map(scalarText)
          .filter((t) => t !== '')
          .join(', '),
      );
    }
    return literalText(safeJson(value));
  }
  if (typeof value === 'object') return literalText(safeJson(value));
  // functions, symbols: nothing meaningful to export
  return '';
}
