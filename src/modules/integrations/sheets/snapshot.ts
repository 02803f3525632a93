// The mapping input for one document version, captured when the version is queued so the row
// written later shows that version even if the document is reprocessed in between. Column
// mappings are applied at write time, so a mapping change reaches rows still in the buffer.
import type { DocumentRow } from '../../documents/documents.types.js';
import type { SnapshotContext } from './sheets.types.js';

const iso = (d: Date | string | null | undefined): string | null =>
  d == null ? null : d instanceof Date ? d.toISOString() : d;

/** `document.*` paths a mapping can use (text and vectors are left out on purpose). */
export const DOCUMENT_FIELDS = [
  'id',
  'project_id',
  'filename',
  'mime_type',
  'size_bytes',
  'sha256',
  'source',
  'source_metadata',
  'metadata',
  'status',
  'version',
  'page_count',
  'language',
  'created_at',
  'updated_at',
  'parsed_at',
  'embedded_at',
  'classified_at',
  'extracted_at',
  'completed_at',
  'template_id',
] as const;

type SnapshotSource = Pick<DocumentRow, (typeof DOCUMENT_FIELDS)[number] | 'classification' | 'fields'>;

export function snapshotDocument(d: SnapshotSource): SnapshotContext {
  return {
    document: {
      id: d.id,
      project_id: d.project_id,
      filename: d.filename,
      mime_type: d.mime_type,
      size_bytes: d.size_bytes,
      sha256: d.sha256,
      source: d.source,
      source_metadata: d.source_metadata,
      metadata: d.metadata,
      status: d.status,
      version: d.version,
      page_count: d.page_count,
      language: d.language,
      template_id: d.template_id,
      created_at: iso(d.created_at),
      updated_at: iso(d.updated_at),
      parsed_at: iso(d.parsed_at),
      embedded_at: iso(d.embedded_at),
      classified_at: iso(d.classified_at),
      extracted_at: iso(d.extracted_at),
      completed_at: iso(d.completed_at),
    },
    classification: d.classification ? { ...d.classification } : null,
    fields: d.fields ? { ...d.fields } : null,
  };
}
