// Field paths for the export mapping: `document.filename`, `classification.confidence`,
// `fields.total`, `fields.line_items.0.amount`. Paths come from user configuration, so the walk
// only reads own properties (no `__proto__`, `constructor`, getters on prototypes).

/** What a mapping reads from. Field values may be bare or `{ value, confidence, method }`. */
export interface MappingContext {
  document: Readonly<Record<string, unknown>>;
  classification?: Readonly<Record<string, unknown>> | null;
  fields?: Readonly<Record<string, unknown>> | null;
}

export const FIELD_ROOTS = ['document', 'classification', 'fields'] as const;
export type FieldRoot = (typeof FIELD_ROOTS)[number];

export type ParsedFieldPath = { ok: true; root: FieldRoot; segments: string[] } | { ok: false; error: string };

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** Validates a path; use it when a mapping is saved so bad paths fail there, not at export. */
export function parseFieldPath(path: string): ParsedFieldPath {
  const parts = path.split('.');
  const root = parts[0] as FieldRoot;
  if (!FIELD_ROOTS.includes(root)) {
    return { ok: false, error: `path must start with ${FIELD_ROOTS.join(', ')}: ${path}` };
  }
  const segments = parts.slice(1);
  if (segments.length === 0) return { ok: false, error: `path names no field: ${path}` };
  for (const s of segments) {
    if (!SEGMENT.test(s) || FORBIDDEN.has(s)) return { ok: false, error: `bad path segment "${s}" in ${path}` };
  }
  return { ok: true, root, segments };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** An extracted field as the extract stage stores it: the value plus how it was found. */
function isExtractedField(v: unknown): v is { value: unknown } {
  return isRecord(v) && Object.hasOwn(v, 'value') && (Object.hasOwn(v, 'confidence') || Object.hasOwn(v, 'method'));
}

function step(current: unknown, segment: string): unknown {
  if (Array.isArray(current)) {
    if (!/^\d+$/.test(segment)) return undefined;
    return current[Number(segment)];
  }
  if (isRecord(current) && Object.hasOwn(current, segment)) return current[segment];
  return undefined;
}

/**
 * The value at `path`, or undefined when any step is missing. Extracted-field wrappers are
 * unwrapped to their `value` unless the path asks for one of the wrapper's own keys
 * (`fields.total.confidence`).
 */
export function resolveField(path: string, ctx: MappingContext): unknown {
  const parsed = parseFieldPath(path);
  if (!parsed.ok) return undefined;
  let current: unknown = ctx[parsed.root] ?? undefined;
  for (const segment of parsed.segments) {
    if (isExtractedField(current) && !Object.hasOwn(current, segment)) current = current.value;
    current = step(current, segment);
    if (current === undefined) return undefined;
  }
  return isExtractedField(current) ? current.value : current;
}
