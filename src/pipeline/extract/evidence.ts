/**
 * What the template-free extractors saw when they picked a value: the inputs of its calibrated
 * confidence (see confidence.ts). Evidence travels beside the field in a WeakMap, so fields keep
 * their public shape (`value`, `confidence`, `method`) and evidence costs nothing once the
 * fields are serialised.
 */
import type { ExtractedField } from './types.js';

export type EvidenceKind = 'total' | 'date' | 'party' | 'id';

/** Numeric features of one pick; every feature is 0 when it does not apply. */
export interface Evidence {
  kind: EvidenceKind;
  /** How the value was found (the same labels the calibration tables use). */
  source: string;
  features: Record<string, number>;
}

const store = new WeakMap<ExtractedField, Evidence>();

export function attachEvidence<T extends ExtractedField | null>(f: T, e: Evidence): T {
  if (f) store.set(f, e);
  return f;
}

export function evidenceOf(f: ExtractedField | undefined): Evidence | undefined {
  return f ? store.get(f) : undefined;
}
