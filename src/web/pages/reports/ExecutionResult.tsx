// The latest completed execution drawn: document_summary as documents per day by status and by
// type (ECharts); sections of other types as a line chart when they are a series over days or
// hours, else as a table of their first rows. Read from the execution's JSON download.
import { lazy, Suspense, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as api from '../../lib/api';
import { useSession } from '../../lib/session';
import { humanize, valueText } from '../../lib/format';
import { ErrorBox, KeyValue, Spinner } from '../../components/ui';
import type { Execution, ResultJson } from './types';

const EChart = lazy(() => import('../../components/EChart'));
/** Above this many rows the page shows the summary only; the download has everything. */
const MAX_ROWS = 20_000;
const TABLE_ROWS = 50;

type Section = ResultJson['sections'][number];

function stackedByDay(rows: Record<string, unknown>[], dimension: string) {
  const mine = rows.filter((r) => r.dimension === dimension);
  const days = [...new Set(mine.map((r) => String(r.day)))].sort();
  const keys = [...new Set(mine.map((r) => String(r.label ?? r.key ?? '')))];
  const at = new Map(mine.map((r) => [`${r.day}\u0000${r.label ?? r.key ?? ''}`, Number(r.documents) || 0]));
  return {
    days,
    keys,
    option: {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', bottom: 0 },
      grid: { left: 40, right: 12, top: 12, bottom: 48 },
      xAxis: { type: 'category', data: days.map((d) => d.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: keys.map((k) => ({
        name: humanize(k),
        type: 'bar',
        stack: 'all',
        barMaxWidth: 48,
        data: days.map((d) => at.get(`${d}\u0000${k}`) ?? 0),
      })),
    },
  };
}

function isSeries(s: Section): boolean {
  const [first, ...rest] = s.columns;
  return (
    !!first &&
    (first.type === 'date' || first.type === 'datetime') &&
    rest.length > 0 &&
    rest.every((c) => c.type === 'integer' || c.type === 'number')
  );
}

function SeriesChart({ s }: { s: Section }) {
  const option = useMemo(() => {
    const [x, ...ys] = s.columns;
    return {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', bottom: 0 },
      grid: { left: 48, right: 12, top: 12, bottom: 48 },
      xAxis: { type: 'category', data: s.rows.map((r) => String(r[x.key] ?? '')) },
      yAxis: { type: 'value' },
      series: ys.map((c) => ({
        name: c.label,
        type: 'line',
        showSymbol: s.rows.length < 60,
        data: s.rows.map((r) => Number(r[c.key]) || 0),
      })),
    };
  }, [s]);
  return <EChart option={option} label={`${s.title}: ${s.rows.length} points`} />;
}

/** Ids are for joining, not reading: a person sees the named columns first, the ids last. */
const isIdColumn = (key: string) => key === 'id' || key.endsWith('_id');

function SectionTable({ s }: { s: Section }) {
  const columns = [...s.columns.filter((c) => !isIdColumn(c.key)), ...s.columns.filter((c) => isIdColumn(c.key))];
  return (
    <div className="table-wrap">
      <table aria-label={s.title}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={c.type === 'integer' || c.type === 'number' ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.rows.slice(0, TABLE_ROWS).map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key} className={c.type === 'integer' || c.type === 'number' ? 'num' : 'small'}>
                  {valueText(r[c.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {s.rows.length > TABLE_ROWS ? (
        <p className="small muted rp-more">
          First {TABLE_ROWS} of {s.rows.length.toLocaleString()} rows; the download has them all.
        </p>
      ) : null}
    </div>
  );
}

function Summary({ summary }: { summary: Record<string, unknown> | null }) {
  const scalars = Object.entries(summary ?? {}).filter(([, v]) => v === null || typeof v !== 'object');
  if (!scalars.length) return null;
  return (
    <KeyValue
      rows={scalars.map(([k, v]) => [humanize(k), typeof v === 'number' ? v.toLocaleString() : valueText(v)])}
    />
  );
}

export function ExecutionResult({ execution }: { execution: Execution }) {
  const { environment } = useSession();
  const path = execution.download_path?.replace(/^\/api\/v1/, '') ?? null;
  const small = (execution.row_count ?? 0) <= MAX_ROWS;
  const result = useQuery<ResultJson, api.ApiError>({
    queryKey: [environment, path, { format: 'json' }, 'result'],
    queryFn: async ({ signal }) =>
      (await api.send('GET', path!, { query: { format: 'json' }, signal })).json() as Promise<ResultJson>,
    enabled: !!path && small,
    staleTime: Infinity,
  });
  const sections = result.data?.sections ?? [];
  const daily = execution.report_type === 'document_summary' ? sections.find((s) => s.name === 'daily') : undefined;
  const byStatus = useMemo(() => (daily ? stackedByDay(daily.rows, 'status') : null), [daily]);
  const byType = useMemo(() => (daily ? stackedByDay(daily.rows, 'type') : null), [daily]);
  return (
    <div data-testid="execution-result">
      <Summary summary={execution.summary} />
      {!small ? (
        <p className="small muted">
          {execution.row_count?.toLocaleString()} rows: too many to draw here. Download the result.
        </p>
      ) : null}
      <ErrorBox error={result.error} retry={() => result.refetch()} />
      {result.isLoading ? <Spinner label="Loading the result…" /> : null}
      <Suspense fallback={<Spinner label="Loading chart…" />}>
        {byStatus && byType ? (
          byStatus.days.length === 0 ? (
            <p className="muted">No documents in this period.</p>
          ) : (
            <div className="grid-2 mt">
              <div>
                <h3>Documents per day by status</h3>
                <EChart
                  option={byStatus.option}
                  label={`Documents per day by status, ${byStatus.days.length} days: ${byStatus.keys.join(', ')}`}
                />
              </div>
              <div>
                <h3>Documents per day by type</h3>
                <EChart
                  option={byType.option}
                  label={`Documents per day by type, ${byType.days.length} days: ${byType.keys.join(', ')}`}
                />
              </div>
            </div>
          )
        ) : (
          sections.map((s) => (
            <div key={s.name} className="mt">
              <h3>
                {s.title} <span className="small muted">({s.rows.length.toLocaleString()} rows)</span>
              </h3>
              {s.rows.length === 0 ? (
                <p className="small muted">No rows.</p>
              ) : isSeries(s) && s.rows.length > 1 ? (
                <SeriesChart s={s} />
              ) : (
                <SectionTable s={s} />
              )}
            </div>
          ))
        )}
      </Suspense>
      {daily ? (
        <details className="mt">
          <summary>Documents per day as a table</summary>
          <SectionTable s={daily} />
        </details>
      ) : null}
    </div>
  );
}
