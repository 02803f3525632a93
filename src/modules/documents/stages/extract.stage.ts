import { attachPositions, extractFields, type TemplateArea } from '../../../pipeline/extract/index.js';
import { layoutAreaText, layoutText, positionIndex } from '../../../pipeline/parse/index.js';
import { describeBytes } from '../../../lib/bytes.js';
import { documentValuesProblem, MAX_DOCUMENT_VALUE_BYTES, MAX_DOCUMENT_VALUES_BYTES } from '../../../lib/limits.js';
import type { FieldValue } from '../documents.types.js';
import type { StageCompute } from '../stage-runner.js';
import { definitionOf } from './template-defs.js';

/** Bumped when the generic extractors change, so `reprocess --missing` can re-extract. */
export const EXTRACTOR_VERSION = 'extract-1';

export function extractStage(): StageCompute {
  return async (doc, project, context) => {
    // The stage read (StageStateRepository.getForStage) brings the organisation's templates along.
    const rows = context.templates ?? [];
    const templates = rows.map(definitionOf);
    const byId = new Map(rows.map((t) => [t.id, t]));
    const fallback = project?.default_template_id
      ? (templates.find((t) => t.id === project.default_template_id) ?? null)
      : null;
    const text = doc.text_content ?? '';
    const layout = doc.layout ?? null;
    const r = extractFields({
      text,
      type: doc.classification?.type ?? 'other',
      templates,
      template: fallback,
      // Templates read the PDF as pdftotext -layout prints it, as invoice2data's do.
      ...(layout && (templates.length > 0 || fallback)
        ? { templateText: layoutText(layout, text), areaText: (area: TemplateArea) => layoutAreaText(layout, area) }
        : {}),
    });
    // Values a person confirmed survive re-extraction.
    // Where each value was read: boxes on the page for PDFs and OCR'd pages, offsets otherwise.
    const placed = attachPositions(r.fields, positionIndex(text, layout));
    const fields: Record<string, FieldValue> = {};
    for (const [k, v] of Object.entries(placed))
      fields[k] = {
        value: v.value,
        confidence: v.confidence,
        method: v.method,
        ...(v.position ? { position: v.position } : {}),
        ...(v.cells ? { cells: v.cells } : {}),
        ...(v.computed ? { computed: true as const } : {}),
      };
    for (const [k, v] of Object.entries(doc.fields ?? {})) if (v.confirmed) fields[k] = v;
    const dropped = boundFields(fields, doc.metadata);
    const used = r.templateId ? byId.get(r.templateId) : undefined;
    return {
      cols: {
        fields,
        extracted_at: new Date(),
        extractor_version: EXTRACTOR_VERSION,
        template_id: used?.id ?? null,
        template_version: used?.version ?? null,
      },
      note:
        [
          r.missingRequired?.length ? `template did not find: ${r.missingRequired.join(', ')}` : '',
          dropped.length
            ? `not kept (over the document's bound of ${describeBytes(MAX_DOCUMENT_VALUE_BYTES)} per value, ${describeBytes(MAX_DOCUMENT_VALUES_BYTES)} in all): ${dropped.join(', ')}`
            : '',
        ]
          .filter(Boolean)
          .join('; ') || undefined,
    };
  };
}

/**
 * Keeps extracted fields within the document's bound (src/lib/limits.ts): a value over the
 * per-value limit is left out, then, while the whole is still too large, the largest of the
 * fields a person did not confirm. Returns the names left out (the stage's note lists them).
 */
function boundFields(fields: Record<string, FieldValue>, metadata: Record<string, unknown>): string[] {
  const dropped: string[] = [];
  for (let p = documentValuesProblem(fields, metadata); p; p = documentValuesProblem(fields, metadata)) {
    // Metadata over the bound was written before it existed; extraction cannot fix it.
    if (p.field.startsWith('metadata.')) break;
    const named = p.field.startsWith('fields.') ? p.field.slice('fields.'.length) : null;
    const victim =
      named && fields[named] && !fields[named].confirmed
        ? named
        : Object.entries(fields)
            .filter(([, v]) => !v.confirmed)
            .sort((a, b) => JSON.stringify(b[1].value).length - JSON.stringify(a[1].value).length)[0]?.[0];
    if (victim === undefined) break; // only confirmed values and metadata left: they were accepted before
    delete fields[victim];
    dropped.push(victim);
  }
  return dropped;
}
