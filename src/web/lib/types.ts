// Shapes of the API's responses, as far as the pages use them.
export interface Project {
  id: string;
  name: string;
  description: string | null;
  color: string | null;
  icon: string | null;
  status: 'active' | 'archived';
  environment: string;
  auto_classify: boolean;
  auto_extract: boolean;
  default_template_id: string | null;
  retention_days: number | null;
  allowed_file_types: string[];
  classification_threshold: number;
  /** `<slug>-<random>@INBOUND_DOMAIN`; null when the server receives no mail (no INBOUND_DOMAIN). */
  inbound_address: string | null;
  inbound_allowed_senders: string[];
  inbound_authentication: 'none' | 'spf' | 'dkim' | 'dmarc';
  inbound_consume: 'attachments' | 'eml' | 'both';
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface ProjectStats {
  project_id: string;
  total_documents: number;
  documents_by_status: Record<string, number>;
  documents_by_classification: Record<string, number>;
  total_bytes: number;
  total_pages: number;
  last_activity_at: string | null;
}
/** Where a value was read: a box on a page (PDF points or image pixels) or offsets into the text. */
export type FieldPosition =
  { page: number; bbox: [number, number, number, number]; unit: 'pt' | 'px' } | { start: number; end: number };
export interface FieldValue {
  value: unknown;
  confidence: number;
  method: string;
  confirmed?: boolean;
  position?: FieldPosition;
}
export interface DocumentRow {
  id: string;
  project_id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  source: 'upload' | 'email' | 'api';
  source_metadata: Record<string, unknown>;
  metadata: Record<string, unknown>;
  status: string;
  error: { stage: string; code: string; message: string } | null;
  page_count: number | null;
  language: string | null;
  classification: { type: string; confidence: number; method: string; confirmed?: boolean } | null;
  fields: Record<string, FieldValue> | null;
  version: number;
  pipeline: {
    stages: string[];
    current_stage: string | null;
    notes: Record<string, unknown>;
    skipped?: Record<string, { code: string; message: string }>;
  };
  models: {
    embedding_model: string | null;
    classifier_version: string | null;
    template_id: string | null;
    template_version: number | null;
  };
  timestamps: Record<string, string | null>;
  created_at: string;
  updated_at: string;
  duplicate?: boolean;
  exports?: ExportStatus[];
}
export interface ExportStatus {
  export_id?: string;
  name?: string;
  status: string;
  version?: number;
  error?: unknown;
  updated_at?: string;
  [k: string]: unknown;
}
export interface Batch {
  id: string;
  kind: string;
  status: string;
  stages: string[];
  mode: string;
  total: number;
  completed: number;
  skipped: number;
  failed: number;
  pending: number;
  progress: number;
  failures: { document_id: string; error: unknown }[];
  skips: { document_id: string; reason: unknown }[];
}
export interface EventRow {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}
export interface ApiKey {
  id: string;
  name: string;
  environment: string;
  masked_key: string;
  status: string;
  is_active: boolean;
  rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null;
  expires_at: string | null;
  allowed_ips: string[];
  allowed_endpoints: string[];
  metadata: Record<string, unknown>;
  created_by: string;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  key?: string;
}
export const DOCUMENT_STATUSES = [
  'uploaded',
  'processing',
  'processed',
  'classified',
  'extracted',
  'completed',
  'needs_review',
  'failed',
] as const;
export const STAGES = ['parse', 'embed', 'classify', 'extract'] as const;
/** The built-in classifier's types (an organization's own corrections can add more). */
export const KNOWN_TYPES = [
  'invoice',
  'receipt',
  'purchase_order',
  'bank_statement',
  'contract',
  'letter',
  'resume',
  'other',
];
export interface Template {
  id: string;
  name: string;
  issuer: string;
  priority: number;
  version: number;
  definition: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  warnings?: { path: string; message: string }[];
}
export interface TemplateTest {
  document_id: string;
  template: { id: string | null; name?: string; issuer?: string };
  text_source: string | null;
  note?: string;
  matched: boolean;
  reason?: string;
  keywords?: { pattern: string; hit: boolean }[];
  exclude_keywords?: { pattern: string; hit: boolean }[];
  fields: { field: string; parser: string; status: string; reason?: string }[];
  values: Record<string, unknown>;
  missing_required: string[];
  warnings: { path: string; message: string }[];
}
export const EVENT_TYPES = [
  'document.uploaded',
  'document.processed',
  'document.classified',
  'document.extracted',
  'document.deleted',
  'workflow.started',
  'workflow.step_completed',
  'workflow.completed',
  'workflow.failed',
  'report.completed',
];
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'failing' | 'disabled';
  environment: string;
  failing_since: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  secret?: string;
  released_deliveries?: number;
}
export interface Delivery {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}
export interface Attempt {
  attempt: number;
  trigger: string;
  status_code: number | null;
  error: { code: string; message: string } | null;
  duration_ms: number | null;
  response_body: string | null;
  response_truncated: boolean;
  next_attempt_at: string | null;
  attempted_at: string;
}
export interface Mailbox {
  id: string;
  name: string;
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  username: string;
  folder: string;
  project_id: string;
  after_processing: string;
  processed_folder: string | null;
  failed_folder: string | null;
  allowed_senders: string[];
  subject_filter: string | null;
  attachment_include: string[];
  attachment_exclude: string[];
  consume: string;
  include_inline: boolean;
  max_age_days: number | null;
  is_active: boolean;
  status: string;
  last_error: string | null;
  last_error_at: string | null;
  last_checked_at: string | null;
  created_at: string;
}
export type MailboxTest =
  | { ok: true; folder: string; messages: number; unseen: number; uid_validity: string }
  | { ok: false; stage: string; message: string; folder: string };
export interface MailMessage {
  id: string;
  mailbox_id: string;
  folder: string;
  uid: number;
  message_id: string | null;
  sender: string | null;
  subject: string | null;
  date: string | null;
  size_bytes: number | null;
  status: string;
  reason: string | null;
  document_ids: string[];
  attempts: number;
  next_attempt_at: string | null;
  action: string | null;
  action_error: string | null;
}
export interface SheetsConnection {
  id: string;
  name: string;
  type: 'service_account' | 'oauth';
  client_email?: string;
  client_id?: string;
  created_at: string;
}
export interface SheetsExport {
  id: string;
  project_id: string;
  connection_id: string;
  spreadsheet_id: string;
  sheet_name: string;
  columns: { header: string; field: string }[];
  mode: 'append' | 'upsert';
  write_header: boolean;
  trigger: 'after_extraction' | 'manual';
  is_active: boolean;
  status: string;
  last_error: string | null;
  retry_at: string | null;
  created_at: string;
  [k: string]: unknown;
}
export type ConnectionTest =
  | { ok: true; sheets: string[] }
  | { ok: false; error: { status: number; code: string | null; reason: string; retryable: boolean } };
