import { attachPositions, extractFields, type TemplateArea } from '../../../pipeline/extract/index.js';
import { layoutAreaText, layoutText, positionIndex } from '../../../pipeline/parse/index.js';
import type { FieldValue } from '../documents.types.js';
import type { StageCompute } from '../stage-runner.js';
import { definitionOf } from './template-defs.js';

/** Bumped when the generic extractors change, so `reprocess --missing` can re-extract. */
export const EXTRACTOR_VERSION = 'extract-1';

export function extractStage(): StageCompute {
  return async (doc, project, context) => {
    // The stage read (DocumentsRepository.getForStage) brings the organisation's templates along.
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
      };
    for (const [k, v] of Object.entries(doc.fields ?? {})) if (v.confirmed) fields[k] = v;
    const used = r.templateId ? byId.get(r.templateId) : undefined;
    return {
      cols: {
        fields,
        extracted_at: new Date(),
        extractor_version: EXTRACTOR_VERSION,
        template_id: used?.id ?? null,
        template_version: used?.version ?? null,
      },
      note: r.missingRequired?.length ? `template did not find: ${r.missingRequired.join(', ')}` : undefined,
    };
  };
}
