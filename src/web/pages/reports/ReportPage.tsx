import { useEffect, useState } from 'react';
import * as api from '../../lib/api';
import { client, ok, oneOf } from '../../lib/client';
import { useAction, useGet, useGetPage, useInvalidate } from '../../lib/queries';
import { Link, navigate } from '../../lib/router';
import { formatDate, humanize } from '../../lib/format';
import { useToast } from '../../components/Toast';
import { ConfirmDialog } from '../../components/Dialog';
import {
  Badge,
  Button,
  Card,
  Empty,
  ErrorBox,
  KeyValue,
  PageHeader,
  Pager,
  RoleButton,
  Spinner,
  StatusBadge,
} from '../../components/ui';
import { ReportForm } from './ReportForm';
import { ScheduleCard } from './ScheduleCard';
import { ExecutionResult } from './ExecutionResult';
import { EXECUTION_STATUSES, isExecutionActive, periodText, typeName, type Execution, type Report } from './types';
import './reports.css';

const PER_PAGE = 10;

function duration(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Fetches a result with the session's token and hands it to the browser as a file. */
async function download(e: Execution, format: 'csv' | 'json' | 'xlsx') {
  const res = await api.send('GET', e.download_path!.replace(/^\/api\/v1/, ''), { query: { format } });
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `report-${e.id}.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

function Downloads({ e }: { e: Execution }) {
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  if (!e.download_path) return <span className="muted small">—</span>;
  const go = async (f: 'csv' | 'json' | 'xlsx') => {
    setBusy(f);
    try {
      await download(e, f);
    } catch (err) {
      toast.show(err instanceof Error ? err.message : String(err), 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <span className="row rp-downloads" role="group" aria-label={`Download the result of ${formatDate(e.finished_at)}`}>
      {(['csv', 'json', 'xlsx'] as const).map((f) => (
        <Button
          key={f}
          className="btn-sm"
          busy={busy === f}
          onClick={() => void go(f)}
          aria-label={`Download ${f.toUpperCase()}`}>
          {f.toUpperCase()}
        </Button>
      ))}
    </span>
  );
}

function Executions({ report }: { report: Report }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const list = useGetPage(
    '/api/v1/reports/{id}/executions',
    { path: { id: report.id }, query: { status: oneOf(EXECUTION_STATUSES, status), page, per_page: PER_PAGE } },
    { refetchInterval: (q) => (q.state.data?.data.some((x) => isExecutionActive(x.status)) ? 1500 : false) },
  );
  const rows = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  return (
    <Card
      title="Executions"
      actions={
        <label className="row small">
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
            aria-label="Execution status">
            <option value="">All</option>
            {EXECUTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </label>
      }>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <Empty>{status ? 'No execution with this status.' : 'Not run yet. Press Run now, or schedule it.'}</Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label="Executions">
            <thead>
              <tr>
                <th>Status</th>
                <th>Trigger</th>
                <th>Period ({rows[0].timezone})</th>
                <th className="num">Rows</th>
                <th className="num">Time</th>
                <th>Finished</th>
                <th>Download</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} data-execution={e.id}>
                  <td>
                    <StatusBadge status={e.status} />
                    {e.error ? (
                      <div className="field-error small">
                        {e.error.code}: {e.error.message}
                      </div>
                    ) : null}
                  </td>
                  <td className="small">
                    {e.trigger === 'schedule' ? (
                      <>
                        schedule<div className="muted">{e.scheduled_for ? formatDate(e.scheduled_for) : null}</div>
                      </>
                    ) : (
                      'manual'
                    )}
                  </td>
                  <td className="small">
                    {formatDate(e.period.from, { zone: e.timezone })} – {formatDate(e.period.to, { zone: e.timezone })}
                  </td>
                  <td className="num">{e.row_count?.toLocaleString() ?? '—'}</td>
                  <td className="num nowrap">{duration(e.duration_ms)}</td>
                  <td className="small nowrap">{formatDate(e.finished_at)}</td>
                  <td>
                    <Downloads e={e} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} totalPages={Math.ceil(total / PER_PAGE)} total={total} onPage={setPage} />
    </Card>
  );
}

function Latest({ report }: { report: Report }) {
  const done = useGetPage('/api/v1/reports/{id}/executions', {
    path: { id: report.id },
    query: { status: 'completed', page: 1, per_page: 1 },
  });
  const e = done.data?.data[0];
  // The report's page follows its last execution; when that one ends, look again.
  const last = report.last_execution;
  const { refetch } = done;
  useEffect(() => {
    if (last?.status === 'completed' && last.id !== e?.id) void refetch();
  }, [last?.id, last?.status, e?.id, refetch]);
  return (
    <Card
      title="Latest result"
      actions={
        e ? (
          <span className="small muted">
            {formatDate(e.period.from, { zone: e.timezone })} – {formatDate(e.period.to, { zone: e.timezone })}
          </span>
        ) : null
      }>
      {done.isPending ? (
        <Spinner />
      ) : !e ? (
        <p className="muted small">No completed execution yet.</p>
      ) : (
        <ExecutionResult key={e.id} execution={e} />
      )}
    </Card>
  );
}

export function ReportPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const r = useGet(
    '/api/v1/reports/{id}',
    { path: { id } },
    {
      refetchInterval: (q) =>
        q.state.data?.last_execution && isExecutionActive(q.state.data.last_execution.status) ? 1500 : false,
    },
  );
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100 } });
  const invalidate = useInvalidate();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const run = useAction(() => ok(client.POST('/api/v1/reports/{id}/run', { params: { path: { id } } })), {
    invalidate: [`/reports/${id}`],
    success: 'Execution queued',
  });
  const remove = useAction(() => ok(client.DELETE('/api/v1/reports/{id}', { params: { path: { id } } })), {
    invalidate: ['/reports'],
  });
  if (r.isPending) return <Spinner />;
  if (r.error)
    return (
      <>
        <PageHeader title="Report" back={<Link to="/reports">← Reports</Link>} />
        <ErrorBox error={r.error} retry={() => r.refetch()} />
      </>
    );
  const rep = r.data;
  const names = new Map((projects.data?.data ?? []).map((p) => [p.id, p.name]));
  const f = rep.filters;
  const filterText =
    [
      f.status?.length ? `status ${f.status.join(', ')}` : '',
      f.classification?.length ? `type ${f.classification.join(', ')}` : '',
      f.source?.length ? `source ${f.source.join(', ')}` : '',
      f.min_confidence !== undefined ? `confidence ≥ ${f.min_confidence}` : '',
      f.fields?.length ? `fields ${f.fields.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' · ') || 'none';
  const active = rep.last_execution && isExecutionActive(rep.last_execution.status);
  return (
    <>
      <PageHeader
        back={<Link to="/reports">← Reports</Link>}
        title={rep.name}
        subtitle={
          <>
            {typeName(rep.type)}
            {rep.category ? <> · {rep.category}</> : null}
            {rep.description ? <> · {rep.description}</> : null}
          </>
        }
        actions={
          <>
            <RoleButton
              need="member"
              variant="primary"
              busy={run.isPending}
              disabled={!!active}
              onClick={() => run.mutate(undefined)}>
              {active ? 'Running…' : 'Run now'}
            </RoleButton>
            <RoleButton need="member" showReason={false} onClick={() => setEditing(true)}>
              Edit
            </RoleButton>
            <RoleButton need="member" showReason={false} variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </RoleButton>
          </>
        }
      />
      <div className="grid-2">
        <Card title="Definition">
          <KeyValue
            rows={[
              ['Type', typeName(rep.type)],
              ['Period', periodText(rep.data_source.period)],
              [
                'Time zone',
                rep.data_source.timezone ?? (rep.schedule ? `${rep.schedule.timezone} (the schedule's)` : 'UTC'),
              ],
              [
                'Projects',
                rep.data_source.project_ids?.length
                  ? rep.data_source.project_ids.map((p) => names.get(p) ?? p).join(', ')
                  : 'all',
              ],
              ['Filters', filterText],
              ['Tags', rep.tags.length ? rep.tags.map((t) => <Badge key={t}>{t}</Badge>) : '—'],
              ['Kept', `${rep.retention_days} days`],
              [
                'Last execution',
                rep.last_execution ? (
                  <>
                    <StatusBadge status={rep.last_execution.status} />{' '}
                    {formatDate(rep.last_execution.finished_at ?? rep.last_execution.created_at)}
                  </>
                ) : (
                  'never'
                ),
              ],
            ]}
          />
        </Card>
        <ScheduleCard key={rep.schedule?.next_run_at ?? 'none'} report={rep} />
      </div>
      <div className="mt">
        <Latest report={rep} />
      </div>
      <div className="mt">
        <Executions report={rep} />
      </div>
      {editing ? (
        <ReportForm
          report={rep}
          onClose={() => setEditing(false)}
          onDone={() => {
            setEditing(false);
            toast.show('Report saved', 'success');
            void invalidate('/reports');
          }}
        />
      ) : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${rep.name}?`}
        confirmLabel="Delete report"
        danger
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              toast.show(`Deleted ${rep.name}`, 'success');
              navigate('/reports');
            },
          })
        }>
        <p>The report, its schedule and every execution with its files are deleted.</p>
      </ConfirmDialog>
    </>
  );
}
