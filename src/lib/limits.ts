// Bounds on what a document carries besides its file, in one place: PATCH /documents/{id},
// uploads, e-mail intake, template extraction and the workflow set_fields node all check
// against these, and list answers are cut to the list budget below. Without them one workflow
// step could write megabytes into a document and every list that shows it grows with it.
import { describeBytes } from './bytes.js';
import { ValidationError, type FieldIssue } from './errors.js';

const KB = 1024;

/** The JSON of one field value or one metadata value. */
export const MAX_DOCUMENT_VALUE_BYTES = 64 * KB;
/** The JSON of a document's fields and metadata together (keys, values, confidences). */
export const MAX_DOCUMENT_VALUES_BYTES = 256 * KB;
/** The `metadata` form field of an upload (JSON text). */
export const MAX_UPLOAD_METADATA_BYTES = 16 * KB;
/** One item of a document list: fields and metadata entries past this are left out of it. */
export const LIST_ITEM_VALUES_BYTES = 8 * KB;
/** One field or metadata entry larger than this is never shown in a list item. */
export const LIST_VALUE_BYTES = 2 * KB;

const jsonBytes = (v: unknown): number => {
  const s = JSON.stringify(v);
  return s === undefined ? 0 : Buffer.byteLength(s, 'utf8');
};

/**
 * What is wrong with a document's fields and metadata as they would be written, or null.
 * `fields` maps names to the stored `{value, confidence, …}` entries; each value is measured on
 * its own (`fields.<name>`, `metadata.<name>`), then the two maps together.
 */
export function documentValuesProblem(
  fields: Record<string, { value: unknown }> | null | undefined,
  metadata: Record<string, unknown> | null | undefined,
): FieldIssue | null {
  for (const [name, entry] of Object.entries(fields ?? {})) {
    const n = jsonBytes(entry?.value);
    if (n > MAX_DOCUMENT_VALUE_BYTES)
      return {
        field: `fields.${name}`,
        message: `is ${describeBytes(n)} of JSON; a field value may be at most ${describeBytes(MAX_DOCUMENT_VALUE_BYTES)}`,
      };
  }
  for (const [name, value] of Object.entries(metadata ?? {})) {
    const n = jsonBytes(value);
    if (n > MAX_DOCUMENT_VALUE_BYTES)
      return {
        field: `metadata.${name}`,
        message: `is ${describeBytes(n)} of JSON; a metadata value may be at most ${describeBytes(MAX_DOCUMENT_VALUE_BYTES)}`,
      };
  }
  const total = jsonBytes(fields ?? {}) + jsonBytes(metadata ?? {});
  if (total > MAX_DOCUMENT_VALUES_BYTES)
    return {
      field: 'fields',
      message: `with metadata would make ${describeBytes(total)} of JSON; a document's fields and metadata may be at most ${describeBytes(MAX_DOCUMENT_VALUES_BYTES)} together`,
    };
  return null;
}

/** Throws a 400 (VALIDATION_ERROR naming the field and the limit) when the bound is broken. */
export function assertDocumentValues(
  fields: Record<string, { value: unknown }> | null | undefined,
  metadata: Record<string, unknown> | null | undefined,
): void {
  const p = documentValuesProblem(fields, metadata);
  if (p) throw new ValidationError(`${p.field}: ${p.message}`, [p]);
}

/**
 * A map as a list item shows it: entries in their order while they fit `budget` bytes of JSON,
 * any entry over LIST_VALUE_BYTES left out. Returns what was kept, how many were left out and the
 * budget still unused.
 */
export function clipForList<T>(
  map: Record<string, T> | null,
  budget: number,
): { kept: Record<string, T> | null; omitted: number; left: number } {
  if (!map) return { kept: map, omitted: 0, left: budget };
  const kept: Record<string, T> = {};
  let omitted = 0;
  for (const [k, v] of Object.entries(map)) {
    const n = jsonBytes(k) + jsonBytes(v) + 2;
    if (n > LIST_VALUE_BYTES || n > budget) {
      omitted++;
      continue;
    }
    kept[k] = v;
    budget -= n;
  }
  return { kept, omitted, left: budget };
}
