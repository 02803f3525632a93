/**
 * Positions of extracted values: each value found in the document's positioned text gets the
 * place it was read from (a box on a page, or offsets into the text); a value not found there
 * (a template's static value, a computed one) gets none rather than a guess. Table rows are
 * looked for in order, each cell after the previous row's line.
 */
import { lineEnd, locateValue } from './locate.js';
import type { ExtractedFields, FieldPosition, FieldRow } from './types.js';

export interface PositionSource {
  text: string;
  at(start: number, end: number): FieldPosition | null;
}

function rowCells(
  index: PositionSource,
  rows: FieldRow[],
): { cells: Array<Record<string, FieldPosition>>; any: boolean } {
  let from = 0;
  let any = false;
  const cells = rows.map((row) => {
    const out: Record<string, FieldPosition> = {};
    let first = Infinity;
    for (const [k, v] of Object.entries(row)) {
      if (v === null || v === '') continue;
      const span = locateValue(index.text, k, v, from);
      if (!span) continue;
      const p = index.at(span.start, span.end);
      if (!p) continue;
      out[k] = p;
      first = Math.min(first, span.start);
      any = true;
    }
    if (first !== Infinity) from = lineEnd(index.text, first) + 1;
    return out;
  });
  return { cells, any };
}

/** Adds `position` (and `cells` for tables) to the fields whose values are found in `index`. */
export function attachPositions(fields: ExtractedFields, index: PositionSource): ExtractedFields {
  const out: ExtractedFields = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.computed || f.value === null) {
      out[name] = f;
      continue;
    }
    const v = f.value;
    if (Array.isArray(v) && v.length > 0 && typeof v[0] === 'object' && v[0] !== null) {
      const { cells, any } = rowCells(index, v as FieldRow[]);
      out[name] = any ? { ...f, cells } : f;
      continue;
    }
    const scalar = Array.isArray(v) ? v.find((x) => x !== null) : v;
    const span = scalar === undefined ? null : locateValue(index.text, name, scalar);
    const position = span ? index.at(span.start, span.end) : null;
    out[name] = position ? { ...f, position } : f;
  }
  return out;
}

/** A position as a client sent it (a correction made by selecting text), or null when malformed. */
export function parsePosition(x: unknown): FieldPosition | null {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return null;
  const o = x as Record<string, unknown>;
  const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1e9;
  if ('start' in o || 'end' in o) {
    return int(o.start) && int(o.end) && o.end > o.start && Object.keys(o).length === 2
      ? { start: o.start, end: o.end }
      : null;
  }
  const b = o.bbox;
  if (
    !int(o.page) ||
    o.page < 1 ||
    (o.unit !== 'pt' && o.unit !== 'px') ||
    !Array.isArray(b) ||
    b.length !== 4 ||
    !b.every((n) => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) < 1e7) ||
    Object.keys(o).length !== 3
  )
    return null;
  return { page: o.page, bbox: [b[0], b[1], b[2], b[3]], unit: o.unit };
}
