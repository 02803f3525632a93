import { lazy, Suspense, useMemo } from 'react';
import type { Data } from '../../lib/client';
import { useGet, useGetPage } from '../../lib/queries';
import { Link } from '../../lib/router';
import { usePermission } from '../../lib/session';
import { humanize, relativeTime } from '../../lib/format';
import { Badge, Card, ErrorBox, PageHeader, Spinner, StatusBadge } from '../../components/ui';

const EChart = lazy(() => import('../../components/EChart'));

type Activity = Data<'/api/v1/documents/activity'>;
type Dim = 'by_status' | 'by_type' | 'by_source';

function stacked(a: Activity, dim: Dim) {
  const keys = [...new Set(a.series.flatMap((d) => Object.keys(d[dim])))];
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', bottom: 0 },
    grid: { left: 36, right: 12, top: 12, bottom: 48 },
    xAxis: { type: 'category', data: a.series.map((d) => d.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: keys.map((k) => ({
      name: humanize(k),
      type: 'bar',
      stack: 'all',
      data: a.series.map((d) => d[dim][k] ?? 0),
    })),
  };
}

function Chart({ a, dim, label }: { a: Activity; dim: Dim; label: string }) {
  const option = useMemo(() => stacked(a, dim), [a, dim]);
  const summary =
    Object.entries(a.totals[dim])
      .map(([k, v]) => `${humanize(k)} ${v}`)
      .join(', ') || 'none';
  return (
    <Suspense fallback={<Spinner label="Loading chart…" />}>
      <EChart option={option} label={`${label} over the last ${a.days} days: ${summary}`} />
    </Suspense>
  );
}

export function OverviewPage() {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const activity = useGet('/api/v1/documents/activity', { query: { days: 14, tz } }, { refetchInterval: 30_000 });
  const admin = usePermission('admin');
  // Webhooks and mailboxes are admin matters; others see a note instead of a 403.
  const webhooks = useGetPage('/api/v1/webhooks', admin.allowed ? { query: { limit: 100 } } : null);
  const mailboxes = useGetPage('/api/v1/integrations/mailboxes', admin.allowed ? { query: { limit: 100 } } : null);
  const a = activity.data;
  const st = a?.totals.by_status ?? {};
  const waiting = st.needs_review ?? 0;
  return (
    <>
      <PageHeader title="Overview" subtitle={`The last ${a?.days ?? 14} days in ${tz}.`} />
      <ErrorBox error={activity.error} retry={() => activity.refetch()} />
      <div className="grid-3">
        <Card>
          <div className="stat">
            <span className="value">{a ? a.totals.total.toLocaleString() : '…'}</span>
            <span className="label">documents received</span>
          </div>
        </Card>
        <Card>
          <div className="stat">
            <span className="value">{(st.completed ?? 0).toLocaleString()}</span>
            <span className="label">completed</span>
          </div>
        </Card>
        <Card>
          <div className="stat">
            <span className="value">{waiting.toLocaleString()}</span>
            <span className="label">
              <Link to="/review">waiting for review</Link>
            </span>
          </div>
        </Card>
        <Card>
          <div className="stat">
            <span className="value">{(st.failed ?? 0).toLocaleString()}</span>
            <span className="label">
              <Link to="/documents?status=failed">failed</Link>
            </span>
          </div>
        </Card>
      </div>
      {a ? (
        <div className="grid-2 mt">
          <Card title="Documents per day by status">
            <Chart a={a} dim="by_status" label="Documents per day by status" />
          </Card>
          <Card title="By type">
            <Chart a={a} dim="by_type" label="Documents per day by type" />
          </Card>
          <Card title="By source">
            <Chart a={a} dim="by_source" label="Documents per day by source" />
          </Card>
          <Card
            title="Pipeline stages"
            actions={
              <Link to="/settings/pipeline" className="small">
                Pipeline settings
              </Link>
            }>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Stage</th>
                    <th className="num">In progress</th>
                    <th className="num">Failed</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(a.stages).map(([s, v]) => (
                    <tr key={s}>
                      <td>{s}</td>
                      <td className="num">{v.in_progress}</td>
                      <td className="num">{v.failed ? <Link to={`/documents?status=failed`}>{v.failed}</Link> : 0}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        </div>
      ) : activity.isPending ? (
        <Spinner />
      ) : null}
      <div className="grid-2 mt">
        <Card
          title="Webhooks"
          actions={
            <Link to="/settings/webhooks" className="small">
              All webhooks
            </Link>
          }>
          {!admin.allowed ? (
            <p className="muted small">{admin.reason}</p>
          ) : webhooks.error ? (
            <ErrorBox error={webhooks.error} />
          ) : !webhooks.data ? (
            <Spinner />
          ) : !webhooks.data.data.length ? (
            <p className="muted small">No webhooks.</p>
          ) : (
            <ul className="plain-list">
              {webhooks.data.data.map((w) => (
                <li key={w.id}>
                  <StatusBadge status={w.status} />{' '}
                  <Link to={`/settings/webhooks/${w.id}`}>{w.description || w.url}</Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card
          title="Mailboxes"
          actions={
            <Link to="/settings/integrations" className="small">
              Integrations
            </Link>
          }>
          {!admin.allowed ? (
            <p className="muted small">{admin.reason}</p>
          ) : mailboxes.error ? (
            <ErrorBox error={mailboxes.error} />
          ) : !mailboxes.data ? (
            <Spinner />
          ) : !mailboxes.data.data.length ? (
            <p className="muted small">No mailboxes.</p>
          ) : (
            <ul className="plain-list">
              {mailboxes.data.data.map((m) => (
                <li key={m.id}>
                  <StatusBadge status={m.status} />{' '}
                  <Link to={`/settings/integrations/mailboxes/${m.id}`}>{m.name || `${m.username}@${m.host}`}</Link>
                  <span className="muted small"> · checked {relativeTime(m.last_checked_at ?? null)}</span>
                  {m.last_error ? <div className="field-error small">{m.last_error}</div> : null}
                </li>
              ))}
            </ul>
          )}
          {waiting ? (
            <p className="small">
              <Badge tone="warn">{waiting}</Badge> documents wait for review.
            </p>
          ) : null}
        </Card>
      </div>
    </>
  );
}
