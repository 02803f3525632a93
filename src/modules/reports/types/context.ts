import type { Queryable } from '../../../db/client.js';
import type { Scope } from '../../../lib/scope.js';
import type { ResultWriter } from '../output/result-file.js';
import type { DataSource, Filters } from '../reports.types.js';

/** What a report type's query gets: the caller's tenant and environment, never more. */
export interface ReportContext {
  db: Queryable;
  scope: Scope;
  from: Date;
  to: Date;
  /** IANA zone for day buckets and labels. */
  timezone: string;
  dataSource: DataSource;
  filters: Filters;
  writer: ResultWriter;
  /** Rows per page of a paged read (extraction_export). Default 5000. */
  batchSize?: number;
}

/** A report type: writes its sections and returns the summary kept with the execution. */
export type ReportQuery = (ctx: ReportContext) => Promise<Record<string, unknown>>;

/** Collects query parameters and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/**
 * The documents a document-based report covers: the caller's organization and environment,
 * uploaded in [from, to), narrowed by data_source.project_ids and the filters.
 */
export function documentScope(ctx: ReportContext, p: Params, alias = 'd'): string {
  const a = alias;
  const where = [
    `${a}.org_id = ${p.add(ctx.scope.orgId)}`,
    `${a}.environment = ${p.add(ctx.scope.environment)}`,
    `${a}.created_at >= ${p.add(ctx.from)}`,
    `${a}.created_at < ${p.add(ctx.to)}`,
  ];
  const f = ctx.filters;
  if (ctx.dataSource.project_ids?.length)
    where.push(`${a}.project_id = ANY(${p.add(ctx.dataSource.project_ids)}::text[])`);
  if (f.status?.length) where.push(`${a}.status = ANY(${p.add(f.status)}::text[])`);
  if (f.source?.length) where.push(`${a}.source = ANY(${p.add(f.source)}::text[])`);
  if (f.classification?.length) where.push(`${a}.classification->>'type' = ANY(${p.add(f.classification)}::text[])`);
  if (f.min_confidence !== undefined)
    where.push(`(${a}.classification->>'confidence')::float8 >= ${p.add(f.min_confidence)}`);
  return where.join(' AND ');
}

/** A timestamptz column as ISO 8601 UTC text with milliseconds, whatever the session's zone. */
export const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const round = (n: number | null | undefined, digits = 1): number | null =>
  n === null || n === undefined || !Number.isFinite(Number(n))
    ? null
    : Math.round(Number(n) * 10 ** digits) / 10 ** digits;
