import type { FieldPosition } from '../../pipeline/extract/types.js';
import type { StoredLayout } from '../../pipeline/parse/pdf-layout.js';
import { clipForList, LIST_ITEM_VALUES_BYTES } from '../../lib/limits.js';
import type { Environment } from '../../lib/scope.js';
import type { DocumentStatus, Stage } from '../../pipeline/stages.js';

// The statuses and stages are pipeline facts (src/pipeline/stages.ts); re-exported for the domain.
export { DOCUMENT_STATUSES, STAGES, TERMINAL_STATUSES, isTerminalStatus } from '../../pipeline/stages.js';
export type { DocumentStatus, Stage, TerminalStatus } from '../../pipeline/stages.js';

export interface FieldValue {
  value: unknown;
  confidence: number;
  method: string;
  confirmed?: boolean;
  /** Where the value was read (see FieldPosition); absent for values not read from the page. */
  position?: FieldPosition;
  /** Table values: each row's cell positions by column. */
  cells?: Array<Record<string, FieldPosition>>;
  /** Not read from the document (static, summed or worked out from other values): no position. */
  computed?: true;
}

export interface Classification {
  type: string;
  confidence: number;
  method: string;
  confirmed?: boolean;
  distribution?: Record<string, number>;
  /** On a person's correction: the machine's prediction it replaced. */
  predicted?: { type: string; confidence: number; method: string; needs_review: boolean };
}

export interface DocumentRow {
  id: string;
  org_id: string;
  environment: Environment;
  project_id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  storage_key: string;
  source: 'upload' | 'email' | 'api';
  source_metadata: Record<string, unknown>;
  metadata: Record<string, unknown>;
  status: DocumentStatus;
  error: { stage: string; code: string; message: string } | null;
  text_content: string | null;
  page_count: number | null;
  language: string | null;
  /** A near-duplicate found when the text was parsed (see near-duplicates.ts). */
  duplicate_of: DuplicateOf | null;
  classification: Classification | null;
  fields: Record<string, FieldValue> | null;
  version: number;
  pipeline: PipelineState;
  uploaded_by: string | null;
  parsed_at: Date | null;
  embedded_at: Date | null;
  classified_at: Date | null;
  extracted_at: Date | null;
  exported_at: Date | null;
  completed_at: Date | null;
  embedding_model: string | null;
  classifier_version: string | null;
  template_id: string | null;
  template_version: number | null;
  confirmed: Record<string, unknown>;
  embedding: number[] | null;
  parser_version: string | null;
  extractor_version: string | null;
  /** PDF text positions; only the extract stage's read selects it. */
  layout?: StoredLayout | null;
  created_at: Date;
  updated_at: Date;
}

/** Where a document is in its current run, kept on the row so a sweeper can resume it. */
export interface PipelineState {
  /** Stages of this run, in order. */
  stages?: Stage[];
  /** Stage whose job should currently exist. */
  current?: Stage | null;
  batch_id?: string | null;
  /** Per-stage notes, e.g. why embedding was skipped. */
  notes?: Partial<Record<Stage, string>>;
  /** Stages of this run that let the document go on without doing their work, and why. */
  skipped?: Partial<Record<Stage, { code: string; message: string }>>;
  queued_at?: string;
}

/** The earlier document of the organization a document's text nearly repeats. */
export interface DuplicateOf {
  id: string;
  similarity: number;
  method: 'minhash';
}

export function presentDocument(d: DocumentRow, extra: Record<string, unknown> = {}) {
  return {
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
    error: d.error,
    page_count: d.page_count,
    language: d.language,
    classification: d.classification
      ? {
          type: d.classification.type,
          confidence: d.classification.confidence,
          method: d.classification.method,
          confirmed: d.classification.confirmed ?? false,
        }
      : null,
    fields: d.fields,
    duplicate_of: d.duplicate_of ?? null,
    version: d.version,
    pipeline: {
      stages: d.pipeline.stages ?? [],
      current_stage: d.pipeline.current ?? null,
      notes: d.pipeline.notes ?? {},
      skipped: d.pipeline.skipped ?? {},
    },
    models: {
      embedding_model: d.embedding_model,
      classifier_version: d.classifier_version,
      template_id: d.template_id,
      template_version: d.template_version,
    },
    timestamps: {
      uploaded_at: d.created_at,
      parsed_at: d.parsed_at,
      embedded_at: d.embedded_at,
      classified_at: d.classified_at,
      extracted_at: d.extracted_at,
      exported_at: d.exported_at,
      completed_at: d.completed_at,
    },
    created_at: d.created_at,
    updated_at: d.updated_at,
    ...extra,
  };
}

/**
 * A document as a list shows it: fields, then metadata, while they fit LIST_ITEM_VALUES_BYTES of
 * JSON (an entry over LIST_VALUE_BYTES never does). `values_truncated` says entries were left
 * out; GET /documents/{id} has them all. A page of 100 stays around a megabyte however large
 * documents' values are.
 */
export function presentListItem(d: DocumentRow & { values_oversized?: boolean }) {
  const f = clipForList(d.fields, LIST_ITEM_VALUES_BYTES);
  const m = clipForList(d.metadata, f.left);
  const { values_oversized: oversized, ...row } = d;
  return presentDocument(
    { ...row, fields: f.kept, metadata: m.kept ?? {} },
    { values_truncated: Boolean(oversized) || f.omitted + m.omitted > 0 },
  );
}
