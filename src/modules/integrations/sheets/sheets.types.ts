import type { Environment } from '../../../lib/scope.js';
import type { ColumnMapping } from './mapping/row.js';

export type ExportMode = 'append' | 'upsert';
export type ExportTrigger = 'after_extraction' | 'manual';
export type DocumentExportStatus = 'pending' | 'writing' | 'exported' | 'superseded';

export interface ConnectionRow {
  id: string;
  org_id: string;
  environment: Environment;
  name: string;
  type: 'service_account' | 'oauth';
  credentials_sealed: string;
  principal: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ExportRow {
  id: string;
  org_id: string;
  environment: Environment;
  project_id: string;
  connection_id: string;
  spreadsheet_id: string;
  sheet_name: string;
  columns: ColumnMapping[];
  mode: ExportMode;
  write_header: boolean;
  trigger: ExportTrigger;
  is_active: boolean;
  config_version: number;
  status: 'active' | 'error';
  last_error: string | null;
  error_at: Date | null;
  consecutive_failures: number;
  retry_at: Date | null;
  header_verified_for: string | null;
  header_verified_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DocumentExportRow {
  export_id: string;
  document_id: string;
  document_version: number;
  seq: number;
  status: DocumentExportStatus;
  context: SnapshotContext | null;
  attempts: number;
  queued_at: Date;
  exported_at: Date | null;
  range: string | null;
  row_number: number | null;
  error: string | null;
  updated_at: Date;
}

/** What a row is built from, captured when a document version is queued (JSON-safe). */
export interface SnapshotContext {
  document: Record<string, unknown>;
  classification: Record<string, unknown> | null;
  fields: Record<string, unknown> | null;
}

export interface CreateConnectionInput {
  name: string;
  service_account_key?: Record<string, unknown>;
  oauth?: { client_id: string; client_secret: string; refresh_token: string };
}

export interface ExportInput {
  project_id: string;
  connection_id: string;
  spreadsheet_id: string;
  sheet_name: string;
  columns: ColumnMapping[];
  mode?: ExportMode;
  write_header?: boolean;
  trigger?: ExportTrigger;
  is_active?: boolean;
}

export type UpdateExportInput = Partial<ExportInput>;

export interface ListQuery {
  limit: number;
  offset: number;
  project_id?: string;
}

/** Jobs on the `export` queue. */
export type ExportJob = { kind: 'document'; documentId: string; version: number } | { kind: 'flush'; exportId: string };

export function presentConnection(c: ConnectionRow) {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    ...(c.type === 'service_account' ? { client_email: c.principal } : { client_id: c.principal }),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

export function presentExport(e: ExportRow, extra: Record<string, unknown> = {}) {
  return {
    id: e.id,
    project_id: e.project_id,
    connection_id: e.connection_id,
    spreadsheet_id: e.spreadsheet_id,
    sheet_name: e.sheet_name,
    columns: e.columns,
    mode: e.mode,
    write_header: e.write_header,
    trigger: e.trigger,
    is_active: e.is_active,
    status: e.status,
    last_error: e.last_error,
    error_at: e.error_at,
    // a transient Google failure being retried (status stays active)
    retry_at: e.retry_at,
    created_at: e.created_at,
    updated_at: e.updated_at,
    ...extra,
  };
}

export function presentDocumentExport(
  d: DocumentExportRow & {
    spreadsheet_id: string;
    sheet_name: string;
    export_status: string;
    export_error: string | null;
  },
) {
  // A buffered row of an export in error state is waiting on that error: say so.
  const waitingOn =
    d.status !== 'exported' && d.status !== 'superseded' && d.export_status === 'error' ? d.export_error : null;
  return {
    export_id: d.export_id,
    document_version: d.document_version,
    status: d.status,
    spreadsheet_id: d.spreadsheet_id,
    sheet_name: d.sheet_name,
    exported_at: d.exported_at,
    range: d.range,
    error: d.error ?? waitingOn,
    queued_at: d.queued_at,
    updated_at: d.updated_at,
  };
}
