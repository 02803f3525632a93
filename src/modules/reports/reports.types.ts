import type { Environment } from '../../lib/scope.js';
import type { Frequency, Weekday } from './schedule-math.js';

export const REPORT_TYPES = [
  'document_summary',
  'extraction_export',
  'processing_performance',
  'classification_quality',
  'usage',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export type ExecutionTrigger = 'manual' | 'schedule';

/** `period`: a fixed range, or the span ending when the run happens ("7d", "24h", "4w", "3m"). */
export type PeriodSpec = { from: string; to: string } | { last: string };

export interface DataSource {
  project_ids?: string[];
  period?: PeriodSpec;
  /** IANA zone for day and hour buckets and date-only periods. Default: the schedule's zone, else UTC. */
  timezone?: string;
}

export interface Filters {
  status?: string[];
  classification?: string[];
  source?: string[];
  min_confidence?: number;
  /** extraction_export: the fields to export, in order (default: every field found). */
  fields?: string[];
}

export interface ReportRow {
  id: string;
  org_id: string;
  environment: Environment;
  name: string;
  type: ReportType;
  description: string | null;
  category: string | null;
  data_source: DataSource;
  filters: Filters;
  tags: string[];
  retention_days: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ScheduleRow {
  report_id: string;
  frequency: Frequency;
  time: string;
  timezone: string;
  day_of_week: Weekday | null;
  day_of_month: number | null;
  version: number;
  next_run_at: Date;
  last_run_at: Date | null;
  last_period_key: string | null;
  last_execution_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ColumnSpec {
  key: string;
  label: string;
  type: 'string' | 'number' | 'integer' | 'datetime' | 'date' | 'json';
}

export interface SectionInfo {
  name: string;
  title: string;
  columns: ColumnSpec[];
  rows: number;
}

/** What an execution ran: the report's definition when it was requested, resolved. */
export interface ExecutionDefinition {
  type: ReportType;
  name: string;
  data_source: DataSource;
  filters: Filters;
  timezone: string;
}

export interface ExecutionRow {
  id: string;
  report_id: string;
  org_id: string;
  environment: Environment;
  run_key: string;
  trigger: ExecutionTrigger;
  status: ExecutionStatus;
  report_type: ReportType;
  definition: ExecutionDefinition;
  period_from: Date;
  period_to: Date;
  scheduled_for: Date | null;
  row_count: number | null;
  summary: Record<string, unknown> | null;
  sections: SectionInfo[] | null;
  error: { code: string; message: string } | null;
  file_key: string | null;
  file_bytes: number | null;
  attempts: number;
  requested_by: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CreateReportInput {
  name: string;
  type: ReportType;
  description?: string | null;
  category?: string | null;
  data_source?: DataSource;
  filters?: Filters;
  tags?: string[];
  retention_days?: number;
}

export type UpdateReportInput = Partial<Omit<CreateReportInput, 'type'>>;

export interface ListReportsQuery {
  type?: string;
  category?: string;
  search?: string;
  page: number;
  per_page: number;
}

export interface ScheduleInput {
  time: string;
  frequency?: Frequency;
  timezone?: string;
  day_of_week?: Weekday;
  day_of_month?: number;
}

export interface ListExecutionsQuery {
  status?: ExecutionStatus;
  page: number;
  per_page: number;
}

export const downloadPath = (reportId: string, executionId: string) =>
  `/api/v1/reports/${reportId}/executions/${executionId}/download`;
