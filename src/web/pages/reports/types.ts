// The /reports API as the pages use it: aliases of the generated schemas, and the lists the
// forms offer (each checked against the schema's enum, so the API adding a value fails to compile).
import { allOf, type Schemas } from '../../lib/client';

export type ReportType = Schemas['Report']['type'];
export const REPORT_TYPES = allOf<ReportType>()([
  'document_summary',
  'extraction_export',
  'processing_performance',
  'classification_quality',
  'usage',
]);
type Frequency = Schemas['ReportSchedule']['frequency'];
export const FREQUENCIES = allOf<Frequency>()(['daily', 'weekly', 'monthly']);
type Weekday = NonNullable<Schemas['ReportSchedule']['day_of_week']>;
export const WEEKDAYS = allOf<Weekday>()([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);
type ExecutionStatus = Schemas['ReportExecution']['status'];
export const EXECUTION_STATUSES = allOf<ExecutionStatus>()(['queued', 'running', 'completed', 'failed']);

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

export type Report = Schemas['Report'];
export type DataSource = Report['data_source'];
export type Period = NonNullable<DataSource['period']>;
export type Filters = Report['filters'];
export type Schedule = Schemas['ReportSchedule'];
export type Execution = Schemas['ReportExecution'];
export type Column = Execution['sections'][number]['columns'][number];
/**
 * The JSON download (`…/download?format=json`, a file rather than an API answer, so not in the
 * OpenAPI document): the execution's summary and every section with its rows.
 */
export interface ResultJson {
  summary?: Record<string, unknown>;
  sections: (Omit<Execution['sections'][number], 'rows'> & { rows: Record<string, unknown>[] })[];
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
