// Shapes of the API's responses, as far as the pages use them.
export interface Project {
  id: string; name: string; description: string | null; color: string | null; icon: string | null; status: 'active' | 'archived';
  environment: string; auto_classify: boolean; auto_extract: boolean; default_template_id: string | null; retention_days: number | null;
  allowed_file_types: string[]; classification_threshold: number; archived_at: string | null; created_at: string; updated_at: string;
}
export interface ProjectStats {
  project_id: string; total_documents: number; documents_by_status: Record<string, number>; documents_by_classification: Record<string, number>;
  total_bytes: number; total_pages: number; last_activity_at: string | null;
}
export interface FieldValue { value: unknown; confidence: number; method: string; confirmed?: boolean }
export interface DocumentRow {
  id: string; project_id: string; filename: string; mime_type: string; size_bytes: number; sha256: string; source: 'upload' | 'email' | 'api';
  source_metadata: Record<string, unknown>; metadata: Record<string, unknown>; status: string;
  error: { stage: string; code: string; message: string } | null; page_count: number | null; language: string | null;
  classification: { type: string; confidence: number; method: string; confirmed?: boolean } | null;
  fields: Record<string, FieldValue> | null; version: number;
  pipeline: { stages: string[]; current_stage: string | null; notes: Record<string, unknown> };
  models: { embedding_model: string | null; classifier_version: string | null; template_id: string | null; template_version: number | null };
  timestamps: Record<string, string | null>; created_at: string; updated_at: string; duplicate?: boolean;
  exports?: ExportStatus[];
}
export interface ExportStatus { export_id?: string; name?: string; status: string; version?: number; error?: unknown; updated_at?: string; [k: string]: unknown }
export interface Batch {
  id: string; kind: string; status: string; stages: string[]; mode: string; total: number; completed: number; skipped: number; failed: number; pending: number;
  progress: number; failures: { document_id: string; error: unknown }[]; skips: { document_id: string; reason: unknown }[];
}
export interface EventRow { id: string; type: string; createdAt: string; data: Record<string, unknown> }
export interface ApiKey {
  id: string; name: string; environment: string; masked_key: string; status: string; is_active: boolean; rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null; expires_at: string | null; allowed_ips: string[]; allowed_endpoints: string[]; metadata: Record<string, unknown>;
  created_by: string; last_used_at: string | null; revoked_at: string | null; created_at: string; key?: string;
}
export const DOCUMENT_STATUSES = ['uploaded', 'processing', 'processed', 'classified', 'extracted', 'completed', 'needs_review', 'failed'] as const;
export const STAGES = ['parse', 'embed', 'classify', 'extract'] as const;
/** The built-in classifier's types (an organization's own corrections can add more). */
export const KNOWN_TYPES = ['invoice', 'receipt', 'purchase_order', 'bank_statement', 'contract', 'letter', 'resume', 'other'];
