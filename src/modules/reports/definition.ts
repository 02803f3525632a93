// Validation of a report's data_source and filters (unknown keys and values that do not apply
// to the report's type are refused, naming the key), and the period a run covers.
import { errors, type FieldIssue } from '../../lib/errors.js';
import { addDays, daysInMonth, instantOf, isValidTimeZone, wallTimeAt } from '../../lib/time.js';
import { DOCUMENT_STATUSES } from '../documents/documents.types.js';
import type { DataSource, Filters, PeriodSpec, ReportType } from './reports.types.js';

const SOURCES = ['upload', 'email', 'api'];
const DATA_SOURCE_KEYS = ['project_ids', 'period', 'timezone'];
const FILTER_KEYS = ['status', 'classification', 'source', 'min_confidence', 'fields'];
/** Filters each type reads; any other filter given is refused rather than silently ignored. */
const FILTERS_BY_TYPE: Record<ReportType, string[]> = {
  document_summary: ['status', 'classification', 'source', 'min_confidence'],
  extraction_export: ['status', 'classification', 'source', 'min_confidence', 'fields'],
  processing_performance: ['status', 'classification', 'source', 'min_confidence'],
  classification_quality: ['status', 'classification', 'source', 'min_confidence'],
  usage: [],
};

export const LAST_PATTERN = /^([1-9]\d{0,3})([hdwm])$/;
/** The longest period a report covers (ten years): bounds day and hour buckets. */
export const MAX_PERIOD_DAYS = 3660;
const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FIELD_NAME = /^[^\u0000-\u001f]{1,100}$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A string or a list of strings, as a list. */
function stringList(
  v: unknown,
  field: string,
  issues: FieldIssue[],
  allowed?: readonly string[],
  max = 50,
): string[] | undefined {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || list.length > max) {
    issues.push({ field, message: `must be a string or a list of 1-${max} strings` });
    return undefined;
  }
  const out: string[] = [];
  list.forEach((s, i) => {
    if (typeof s !== 'string' || s.length === 0 || s.length > 100)
      issues.push({ field: `${field}[${i}]`, message: 'must be a string of 1-100 characters' });
    else if (allowed && !allowed.includes(s))
      issues.push({ field: `${field}[${i}]`, message: `must be one of ${allowed.join(', ')}` });
    else out.push(s);
  });
  return [...new Set(out)];
}

/** Parses a period bound: an ISO date (midnight in `tz`; `to` dates are inclusive) or date-time. */
function parseBound(v: unknown, tz: string, end: boolean): number | null {
  if (typeof v !== 'string') return null;
  if (DATE_ONLY.test(v)) {
    const [y, m, d] = v.split('-').map(Number);
    if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
    const date = end ? addDays({ year: y, month: m, day: d }, 1) : { year: y, month: m, day: d };
    return instantOf({ ...date, hour: 0, minute: 0 }, tz);
  }
  if (!DATE_TIME.test(v)) return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

function validatePeriod(v: unknown, tz: string, issues: FieldIssue[]): PeriodSpec | undefined {
  if (!isObject(v)) {
    issues.push({ field: 'data_source.period', message: 'must be {from, to} or {last}' });
    return undefined;
  }
  const keys = Object.keys(v);
  for (const k of keys)
    if (!['from', 'to', 'last'].includes(k))
      issues.push({ field: `data_source.period.${k}`, message: 'is not an accepted field' });
  if ('last' in v) {
    if ('from' in v || 'to' in v)
      issues.push({ field: 'data_source.period', message: 'give either last or from and to, not both' });
    const m = typeof v.last === 'string' ? LAST_PATTERN.exec(v.last) : null;
    if (!m) {
      issues.push({
        field: 'data_source.period.last',
        message: 'must be a count and a unit h, d, w or m, e.g. "24h", "7d", "4w", "3m"',
      });
      return undefined;
    }
    const n = Number(m[1]);
    const days = m[2] === 'h' ? n / 24 : m[2] === 'd' ? n : m[2] === 'w' ? n * 7 : n * 31;
    if (days > MAX_PERIOD_DAYS)
      issues.push({ field: 'data_source.period.last', message: `must cover at most ${MAX_PERIOD_DAYS} days` });
    return { last: v.last as string };
  }
  const from = parseBound(v.from, tz, false);
  const to = parseBound(v.to, tz, true);
  if (from === null)
    issues.push({ field: 'data_source.period.from', message: 'must be an ISO 8601 date or date-time with offset' });
  if (to === null)
    issues.push({ field: 'data_source.period.to', message: 'must be an ISO 8601 date or date-time with offset' });
  if (from === null || to === null) return undefined;
  if (from >= to) issues.push({ field: 'data_source.period', message: 'from must be before to' });
  else if (to - from > MAX_PERIOD_DAYS * DAY_MS)
    issues.push({ field: 'data_source.period', message: `must cover at most ${MAX_PERIOD_DAYS} days` });
  return { from: v.from as string, to: v.to as string };
}

/**
 * Checks `data_source` and `filters` for a report of `type` and returns them normalised
 * (single values as lists, duplicates dropped). Throws a validation error listing every problem.
 */
export function validateDefinition(
  type: ReportType,
  dataSource: unknown,
  filters: unknown,
): { data_source: DataSource; filters: Filters } {
  const issues: FieldIssue[] = [];
  const ds: DataSource = {};
  const f: Filters = {};
  if (dataSource !== undefined && dataSource !== null) {
    if (!isObject(dataSource)) issues.push({ field: 'data_source', message: 'must be an object' });
    else {
      for (const k of Object.keys(dataSource))
        if (!DATA_SOURCE_KEYS.includes(k))
          issues.push({ field: `data_source.${k}`, message: 'is not an accepted field' });
      if (dataSource.timezone !== undefined) {
        if (typeof dataSource.timezone !== 'string' || !isValidTimeZone(dataSource.timezone))
          issues.push({ field: 'data_source.timezone', message: 'must be an IANA time zone such as Europe/Berlin' });
        else ds.timezone = dataSource.timezone;
      }
      if (dataSource.project_ids !== undefined) {
        const ids = stringList(dataSource.project_ids, 'data_source.project_ids', issues, undefined, 100);
        ids?.forEach((id, i) => {
          if (!ID.test(id)) issues.push({ field: `data_source.project_ids[${i}]`, message: 'is not a project id' });
        });
        if (ids) ds.project_ids = ids;
      }
      if (dataSource.period !== undefined) {
        const p = validatePeriod(dataSource.period, ds.timezone ?? 'UTC', issues);
        if (p) ds.period = p;
      }
    }
  }
  if (filters !== undefined && filters !== null) {
    if (!isObject(filters)) issues.push({ field: 'filters', message: 'must be an object' });
    else {
      const applies = FILTERS_BY_TYPE[type];
      for (const k of Object.keys(filters)) {
        if (!FILTER_KEYS.includes(k)) issues.push({ field: `filters.${k}`, message: 'is not an accepted field' });
        else if (!applies.includes(k))
          issues.push({ field: `filters.${k}`, message: `does not apply to ${type} reports` });
      }
      if (applies.includes('status') && filters.status !== undefined)
        f.status = stringList(filters.status, 'filters.status', issues, DOCUMENT_STATUSES);
      if (applies.includes('source') && filters.source !== undefined)
        f.source = stringList(filters.source, 'filters.source', issues, SOURCES);
      if (applies.includes('classification') && filters.classification !== undefined)
        f.classification = stringList(filters.classification, 'filters.classification', issues);
      if (applies.includes('min_confidence') && filters.min_confidence !== undefined) {
        const c = filters.min_confidence;
        if (typeof c !== 'number' || !Number.isFinite(c) || c < 0 || c > 1)
          issues.push({ field: 'filters.min_confidence', message: 'must be a number from 0 to 1' });
        else f.min_confidence = c;
      }
      if (applies.includes('fields') && filters.fields !== undefined) {
        const names = stringList(filters.fields, 'filters.fields', issues, undefined, 100);
        names?.forEach((n, i) => {
          if (!FIELD_NAME.test(n))
            issues.push({ field: `filters.fields[${i}]`, message: 'must be 1-100 printable characters' });
        });
        if (names) f.fields = names;
      }
    }
  }
  if (issues.length > 0) throw errors.validation(issues.map((i) => `${i.field} ${i.message}`).join('; '), issues);
  for (const k of Object.keys(f) as (keyof Filters)[]) if (f[k] === undefined) delete f[k];
  return { data_source: ds, filters: f };
}

/** A calendar shift of an instant's wall time in `tz` (months clamp to the month's last day). */
function shiftWall(instant: number, tz: string, unit: 'd' | 'w' | 'm', n: number): number {
  const w = wallTimeAt(instant, tz);
  let date = { year: w.year, month: w.month, day: w.day };
  if (unit === 'm') {
    const months = w.year * 12 + (w.month - 1) - n;
    const year = Math.floor(months / 12);
    const month = (months % 12) + 1;
    date = { year, month, day: Math.min(w.day, daysInMonth(year, month)) };
  } else {
    date = addDays(date, -(unit === 'w' ? 7 * n : n));
  }
  return instantOf({ ...date, hour: w.hour, minute: w.minute }, tz) + w.second * 1000 + (instant % 1000);
}

/**
 * The period a run covers, [from, to). `end` is when the run was requested (manual) or its tick
 * (scheduled). `last` counts calendar days, weeks and months in `tz` (a day across a DST change
 * is 23 or 25 hours). Without a period: the span since the previous tick for scheduled runs
 * (`previousTick`), else the last 30 days.
 */
export function resolvePeriod(
  spec: PeriodSpec | undefined,
  tz: string,
  end: number,
  previousTick?: number,
): { from: Date; to: Date } {
  if (!spec) {
    if (previousTick !== undefined && previousTick < end) return { from: new Date(previousTick), to: new Date(end) };
    return { from: new Date(shiftWall(end, tz, 'd', 30)), to: new Date(end) };
  }
  if ('last' in spec) {
    const m = LAST_PATTERN.exec(spec.last);
    if (!m) throw errors.invalidField('data_source.period.last', 'is not a valid span');
    const n = Number(m[1]);
    const unit = m[2] as 'h' | 'd' | 'w' | 'm';
    const from = unit === 'h' ? end - n * 3_600_000 : shiftWall(end, tz, unit, n);
    return { from: new Date(from), to: new Date(end) };
  }
  const from = parseBound(spec.from, tz, false);
  const to = parseBound(spec.to, tz, true);
  if (from === null || to === null) throw errors.invalidField('data_source.period', 'is not a valid range');
  return { from: new Date(from), to: new Date(to) };
}
