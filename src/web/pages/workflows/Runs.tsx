// Runs: a table (of one workflow or all) and one run's detail with every step's status, input,
// output, error, attempts and duration. The accessible view of what the canvas shows.
import { useGet, useGetPage, useAction } from '../../lib/queries';
import { client, ok, oneOf } from '../../lib/client';
import { Link } from '../../lib/router';
import { formatDate, humanize } from '../../lib/format';
import { Badge, Button, Empty, ErrorBox, KeyValue, Pager, Spinner, StatusBadge } from '../../components/ui';
import { isRunActive, RUN_STATUSES } from './types';

export const PER_PAGE = 20;

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function ModeBadge({ mode }: { mode: string }) {
  return mode === 'dry_run' ? <Badge tone="warn">dry run</Badge> : <Badge tone="neutral">execute</Badge>;
}

function Json({ value, label }: { value: unknown; label: string }) {
  if (value === null || value === undefined) return <p className="small muted">{label}: none</p>;
  return (
    <div>
      <div className="small muted">{label}</div>
      <pre tabIndex={0} aria-label={label}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

export function RunsTable({
  workflowId,
  status,
  mode,
  page,
  onPage,
  names,
}: {
  workflowId?: string;
  status?: string;
  mode?: string;
  page: number;
  onPage(n: number): void;
  names?: Map<string, string>;
}) {
  const list = useGetPage(
    '/api/v1/workflows/runs',
    {
      query: {
        workflow_id: workflowId,
        status: oneOf(RUN_STATUSES, status),
        mode: oneOf(['execute', 'dry_run'] as const, mode),
        page,
        per_page: PER_PAGE,
      },
    },
    { refetchInterval: (q) => (q.state.data?.data.some((r) => isRunActive(r.status)) ? 2000 : false) },
  );
  const rows = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <Empty>{status || mode ? 'No run matches these filters.' : 'No runs yet.'}</Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label="Runs">
            <thead>
              <tr>
                <th>Run</th>
                {workflowId ? null : <th>Workflow</th>}
                <th>Status</th>
                <th>Mode</th>
                <th>Trigger</th>
                <th>Steps</th>
                <th className="num">Duration</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/workflows/runs/${r.id}`} className="mono">
                      {r.id}
                    </Link>
                  </td>
                  {workflowId ? null : (
                    <td>
                      <Link to={`/workflows/${r.workflow_id}`}>{names?.get(r.workflow_id) ?? r.workflow_id}</Link>
                    </td>
                  )}
                  <td>
                    <StatusBadge status={r.status} />
                    {r.error ? (
                      <div className="field-error small">
                        {r.error.code}
                        {r.error.node_id ? ` at ${r.error.node_id}` : ''}
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <ModeBadge mode={r.mode} />
                  </td>
                  <td className="small">{humanize(r.trigger.type)}</td>
                  <td className="small">
                    {Object.entries(r.step_counts ?? {})
                      .map(([k, v]) => `${v} ${k}`)
                      .join(', ') || '—'}
                  </td>
                  <td className="num">{duration(r.duration_ms)}</td>
                  <td className="small nowrap">{formatDate(r.started_at ?? r.queued_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} totalPages={Math.ceil(total / PER_PAGE)} total={total} onPage={onPage} />
    </>
  );
}

/** One run, polled while it is queued or running. */
export function RunDetail({ runId, compact }: { runId: string; compact?: boolean }) {
  const run = useGet(
    '/api/v1/workflows/runs/{runId}',
    { path: { runId } },
    {
      refetchInterval: (q) =>
        !q.state.data || isRunActive(q.state.data.status) || q.state.data.resume_at ? 1500 : false,
    },
  );
  const wf = useGet('/api/v1/workflows/{id}', run.data ? { path: { id: run.data.workflow_id } } : null);
  const cancel = useAction(
    () => ok(client.POST('/api/v1/workflows/runs/{runId}/cancel', { params: { path: { runId } } })),
    {
      invalidate: ['/workflows/runs'],
      success: 'Run cancelled',
    },
  );
  if (run.isPending) return <Spinner label="Loading the run…" />;
  if (run.error) return <ErrorBox error={run.error} retry={() => run.refetch()} />;
  const r = run.data;
  const names = new Map((wf.data?.nodes ?? []).map((n) => [n.id, n.name]));
  const steps = [...(r.steps ?? [])].sort((a, b) => a.position - b.position);
  return (
    <div className="wf-run" data-testid="run-detail" aria-busy={isRunActive(r.status) || undefined}>
      <div className="row">
        <StatusBadge status={r.status} /> <ModeBadge mode={r.mode} />
        <span className="small muted">
          {humanize(r.trigger.type)} · version {r.workflow_version} · {duration(r.duration_ms)}
        </span>
        <span className="spacer" />
        {isRunActive(r.status) ? (
          <Button className="btn-sm" busy={cancel.isPending} onClick={() => cancel.mutate(undefined)}>
            Cancel run
          </Button>
        ) : null}
        {compact ? (
          <Link to={`/workflows/runs/${r.id}`} className="small">
            Open the run
          </Link>
        ) : null}
      </div>
      {r.error ? (
        <div className="error-box" role="alert">
          <strong>{r.error.code}</strong>
          {r.error.node_id ? (
            <>
              {' '}
              at <code>{r.error.node_id}</code>
            </>
          ) : null}
          : {r.error.message}
        </div>
      ) : null}
      {r.mode === 'dry_run' ? (
        <p className="small muted">A dry run computes every step and records what it would do; it changes nothing.</p>
      ) : null}
      {!compact ? (
        <KeyValue
          rows={[
            [
              'Workflow',
              wf.data ? <Link to={`/workflows/${r.workflow_id}`}>{wf.data.name}</Link> : <code>{r.workflow_id}</code>,
            ],
            [
              'Document',
              r.document_id ? (
                <Link to={`/documents/${r.document_id}`} className="mono">
                  {r.document_id}
                </Link>
              ) : (
                '—'
              ),
            ],
            ['Queued', formatDate(r.queued_at)],
            ['Started', formatDate(r.started_at)],
            ['Finished', formatDate(r.finished_at)],
            ...(r.resume_at ? [['Resumes', formatDate(r.resume_at)] as [string, string]] : []),
          ]}
        />
      ) : null}
      {!compact ? (
        <div className="grid-2 mt">
          <Json value={r.input} label="Run input" />
          <Json value={r.variables} label="Variables" />
        </div>
      ) : null}
      <h3 className="mt">Steps</h3>
      {steps.length === 0 ? (
        <p className="small muted">{isRunActive(r.status) ? 'No step has run yet.' : 'No step ran.'}</p>
      ) : (
        <ol className="wf-steps" aria-label="Steps">
          {steps.map((s) => (
            <li key={`${s.node_id}-${s.position}`} className={`wf-step wf-step-${s.status}`} data-node={s.node_id}>
              <details open={!compact && s.status === 'failed'}>
                <summary>
                  <span className="wf-step-head">
                    <strong>{names.get(s.node_id) || s.node_id}</strong> <code className="small">{s.type}</code>
                    <StatusBadge status={s.status} />
                    {s.branch ? <Badge tone="info">branch {s.branch}</Badge> : null}
                    <span className="small muted">
                      {s.attempts} {s.attempts === 1 ? 'attempt' : 'attempts'} · {duration(s.duration_ms)}
                    </span>
                  </span>
                  {s.error ? (
                    <span className="field-error small wf-step-error">
                      {s.error.code}: {s.error.message}
                    </span>
                  ) : null}
                </summary>
                <div className="grid-2 wf-step-body">
                  <Json value={s.input} label={`Input of ${s.node_id}`} />
                  <Json value={s.output} label={`Output of ${s.node_id}`} />
                </div>
                <p className="small muted">
                  Started {formatDate(s.started_at)} · finished {formatDate(s.finished_at)}
                  {s.error?.next_attempt_at ? ` · next attempt ${formatDate(s.error.next_attempt_at)}` : ''}
                </p>
              </details>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
