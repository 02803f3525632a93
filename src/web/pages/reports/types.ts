// Shapes of the /reports API as the pages use them.
export const REPORT_TYPES = [
  'document_summary',
  'extraction_export',
  'processing_performance',
  'classification_quality',
  'usage',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const TYPE_INFO: Record<ReportType, { label: string; about: string; filters: string[] }> = {
  document_summary: {
    label: 'Document summary',
    about: 'Documents per day by status, type, source and project.',
    filters: ['status', 'classification', 'source', 'min_confidence'],
  },
  extraction_export: {
    label: 'Extraction export',
    about: 'One row per document with the chosen fields and their confidence.',
    filters: ['status', 'classification', 'source', 'min_confidence', 'fields'],
  },
  processing_performance: {
    label: 'Processing performance',
    about: 'Stage durations (p50/p95), throughput per hour, failures by code.',
    filters: ['status', 'classification', 'source', 'min_confidence'],
  },
  classification_quality: {
    label: 'Classification quality',
    about: 'Confidence distribution, review rate, corrections per type.',
    filters: ['status', 'classification', 'source', 'min_confidence'],
  },
  usage: {
    label: 'Usage',
    about: 'API requests per key and day, documents and pages, webhook deliveries.',
    filters: [],
  },
};
export const typeName = (t: string) => TYPE_INFO[t as ReportType]?.label ?? t;

export type Period = { from: string; to: string } | { last: string };
export interface DataSource {
  project_ids?: string[];
  period?: Period;
  timezone?: string;
}
export interface Filters {
  status?: string[];
  classification?: string[];
  source?: string[];
  min_confidence?: number;
  fields?: string[];
}

export interface Schedule {
  frequency: 'daily' | 'weekly' | 'monthly';
  time: string;
  timezone: string;
  day_of_week: string | null;
  day_of_month: number | null;
  next_run_at: string;
  next_run_at_local: string;
  last_run_at: string | null;
  last_execution_id: string | null;
}
export interface Report {
  id: string;
  name: string;
  type: ReportType;
  description: string | null;
  category: string | null;
  data_source: DataSource;
  filters: Filters;
  tags: string[];
  retention_days: number;
  schedule: Schedule | null;
  last_execution: {
    id: string;
    status: string;
    trigger: string;
    row_count: number | null;
    created_at: string;
    finished_at: string | null;
  } | null;
  created_at: string;
  updated_at: string;
}
export interface Column {
  key: string;
  label: string;
  type: 'string' | 'number' | 'integer' | 'datetime' | 'date' | 'json';
}
export interface Execution {
  id: string;
  report_id: string;
  status: string;
  trigger: 'manual' | 'schedule';
  report_type: ReportType;
  period: { from: string; to: string };
  timezone: string;
  scheduled_for: string | null;
  row_count: number | null;
  summary: Record<string, unknown> | null;
  sections: { name: string; title: string; rows: number; columns: Column[] }[];
  error: { code: string; message: string } | null;
  attempts: number;
  file_bytes: number | null;
  download_path: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}
/** The JSON download: the execution's head and every section with its rows. */
export interface ResultJson {
  summary?: Record<string, unknown>;
  sections: { name: string; title: string; columns: Column[]; rows: Record<string, unknown>[] }[];
}

export const isExecutionActive = (s: string) => s === 'queued' || s === 'running';

export function periodText(p: Period | undefined): string {
  if (!p) return 'the last 30 days (a scheduled run: since the previous run)';
  if ('last' in p) {
    const m = /^(\d+)([hdwm])$/.exec(p.last);
    if (!m) return `last ${p.last}`;
    const unit = { h: 'hour', d: 'day', w: 'week', m: 'month' }[m[2]]!;
    return `the last ${m[1]} ${unit}${m[1] === '1' ? '' : 's'}`;
  }
  return `${p.from} to ${p.to}`;
}
