import type { DocumentRow } from '../../../lib/types';

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** What a column would hold for a document: the same path rules as the export (own properties, field values unwrapped). */
export function previewValue(path: string, doc: DocumentRow): unknown {
  const [root, ...segs] = path.split('.');
  let cur: unknown =
    root === 'document'
      ? doc
      : root === 'classification'
        ? doc.classification
        : root === 'fields'
          ? doc.fields
          : undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (!SEGMENT.test(s) || cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) cur = /^\d+$/.test(s) ? cur[Number(s)] : undefined;
    else if (typeof cur === 'object' && Object.hasOwn(cur, s)) cur = (cur as Record<string, unknown>)[s];
    else return undefined;
    // An extracted field is { value, confidence, method }: its value, unless the path asks for the wrapper's own keys.
    if (
      root === 'fields' &&
      i === 0 &&
      cur &&
      typeof cur === 'object' &&
      Object.hasOwn(cur, 'value') &&
      !(segs[1] && ['value', 'confidence', 'method'].includes(segs[1]))
    ) {
      cur = (cur as { value: unknown }).value;
    }
  }
  return cur;
}
