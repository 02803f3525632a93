import { Fragment, useState } from 'react';
import { client, ok, oneOf } from '../../../lib/client';
import { useAction, useGet, useGetPage } from '../../../lib/queries';
import { Link, navigate } from '../../../lib/router';
import { formatDate } from '../../../lib/format';
import { ConfirmDialog, Dialog } from '../../../components/Dialog';
import { CopySecret } from '../../../components/CopySecret';
import {
  Badge,
  Button,
  Card,
  Empty,
  ErrorBox,
  Field,
  KeyValue,
  PageHeader,
  Pager,
  RoleButton,
  Spinner,
  StatusBadge,
} from '../../../components/ui';
import { DELIVERY_STATUSES, type Delivery } from '../../../lib/types';

const PER_PAGE = 20;

function Attempts({ id }: { id: string }) {
  const d = useGet('/api/v1/webhooks/deliveries/{id}', { path: { id } });
  if (d.isPending) return <Spinner />;
  if (d.error) return <ErrorBox error={d.error} />;
  const attempts = d.data.attempt_log;
  if (!attempts.length) return <p className="small muted">Not attempted yet.</p>;
  return (
    <table className="small" aria-label="Attempts">
      <thead>
        <tr>
          <th>#</th>
          <th>When</th>
          <th>Trigger</th>
          <th>Result</th>
          <th className="num">Time</th>
          <th>Response</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr key={a.attempt}>
            <td>{a.attempt}</td>
            <td className="nowrap">{formatDate(a.attempted_at)}</td>
            <td>{a.trigger}</td>
            <td>
              {a.status_code ? <Badge tone={a.status_code < 300 ? 'good' : 'bad'}>{a.status_code}</Badge> : null}{' '}
              {a.error ? (
                <span className="field-error">
                  {a.error.code}: {a.error.message}
                </span>
              ) : null}
            </td>
            <td className="num">{a.duration_ms ?? '—'} ms</td>
            <td className="mono" style={{ maxWidth: '20rem', overflowWrap: 'anywhere' }}>
              {a.response_body?.slice(0, 300)}
              {a.response_truncated ? '…' : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Deliveries({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const list = useGetPage(
    '/api/v1/webhooks/{id}/deliveries',
    {
      path: { id },
      query: { limit: PER_PAGE, offset: (page - 1) * PER_PAGE, status: oneOf(DELIVERY_STATUSES, status) },
    },
    { refetchInterval: 5000 },
  );
  const resend = useAction(
    (d: Delivery) => ok(client.POST('/api/v1/webhooks/deliveries/{id}/resend', { params: { path: { id: d.id } } })),
    {
      invalidate: [`/webhooks/${id}/deliveries`, '/webhooks/deliveries'],
      success: 'Sent again',
    },
  );
  const total = list.data?.pagination.total ?? 0;
  return (
    <Card
      title="Deliveries"
      actions={
        <label className="row small">
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
            aria-label="Delivery status">
            <option value="">All</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      }>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Spinner />
      ) : !list.data?.data.length ? (
        <Empty>No deliveries.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th>Last answer</th>
                <th>Created</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((d) => (
                <Fragment key={d.id}>
                  <tr>
                    <td>
                      <code>{d.event_type}</code>
                      <div className="small muted mono">{d.event_id}</div>
                    </td>
                    <td>
                      <StatusBadge status={d.status} />
                      {d.next_attempt_at ? (
                        <div className="small muted">next {formatDate(d.next_attempt_at)}</div>
                      ) : null}
                    </td>
                    <td className="num">{d.attempts}</td>
                    <td className="small">
                      {d.last_status_code ?? ''} {d.last_error ?? ''}
                    </td>
                    <td className="small nowrap">{formatDate(d.created_at)}</td>
                    <td className="nowrap">
                      <Button
                        className="btn-sm"
                        aria-expanded={open === d.id}
                        onClick={() => setOpen(open === d.id ? null : d.id)}>
                        Attempts
                      </Button>{' '}
                      <Button className="btn-sm" onClick={() => resend.mutate(d)}>
                        Resend
                      </Button>
                    </td>
                  </tr>
                  {open === d.id ? (
                    <tr>
                      <td colSpan={6}>
                        <Attempts id={d.id} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} totalPages={Math.ceil(total / PER_PAGE)} total={total} onPage={setPage} />
    </Card>
  );
}

function RecoverDialog({ id, onClose }: { id: string; onClose(): void }) {
  const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const [since, setSince] = useState(local(new Date(Date.now() - 86_400_000)));
  const [until, setUntil] = useState(local(new Date()));
  const recover = useAction(
    () =>
      ok(
        client.POST('/api/v1/webhooks/{id}/recover', {
          params: { path: { id } },
          body: { since: new Date(since).toISOString(), until: new Date(until).toISOString() },
        }),
      ),
    { invalidate: [`/webhooks/${id}`], success: (r) => `${r.queued} failed deliveries queued again` },
  );
  return (
    <Dialog
      open
      title="Recover failed deliveries"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            busy={recover.isPending}
            onClick={() => recover.mutate(undefined, { onSuccess: onClose })}>
            Send again
          </Button>
        </>
      }>
      <p>Every delivery that failed in this window (at most 14 days) is sent again.</p>
      <div className="form-grid">
        <Field label="From" htmlFor="rc-since">
          <input id="rc-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
        </Field>
        <Field label="Until" htmlFor="rc-until">
          <input id="rc-until" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </Field>
      </div>
    </Dialog>
  );
}

export function WebhookPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const w = useGet('/api/v1/webhooks/{id}', { path: { id } }, { refetchInterval: 5000 });
  const [secret, setSecret] = useState<string | null>(null);
  const [recovering, setRecovering] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const inv = [`/webhooks`];
  const at = { params: { path: { id } } };
  const enable = useAction(() => ok(client.POST('/api/v1/webhooks/{id}/enable', at)), {
    invalidate: inv,
    success: (r) => `Re-enabled; ${r.released_deliveries ?? 0} held deliveries are being sent`,
  });
  const disable = useAction(() => ok(client.PUT('/api/v1/webhooks/{id}', { ...at, body: { status: 'disabled' } })), {
    invalidate: inv,
    success: 'Disabled',
  });
  const rotate = useAction(() => ok(client.POST('/api/v1/webhooks/{id}/rotate-secret', { ...at, body: {} })), {
    invalidate: inv,
    success: 'Secret rotated; the old one signs too for 24 hours',
  });
  const test = useAction(() => ok(client.POST('/api/v1/webhooks/{id}/test', at)), {
    invalidate: inv,
    success: 'Test event queued',
  });
  const remove = useAction(() => ok(client.DELETE('/api/v1/webhooks/{id}', at)), {
    invalidate: inv,
    success: 'Webhook deleted',
  });
  if (w.isPending) return <Spinner />;
  if (w.error) return <ErrorBox error={w.error} />;
  const h = w.data;
  return (
    <>
      <PageHeader
        title={h.description || h.url}
        subtitle={
          <span className="row">
            <StatusBadge status={h.status} /> <span className="mono small">{h.url}</span>
          </span>
        }
        back={<Link to="/settings/webhooks">← Webhooks</Link>}
        actions={
          <>
            {h.status !== 'active' ? (
              <RoleButton
                need="admin"
                variant="primary"
                busy={enable.isPending}
                onClick={() => enable.mutate(undefined)}>
                Re-enable
              </RoleButton>
            ) : (
              <RoleButton need="admin" busy={disable.isPending} onClick={() => disable.mutate(undefined)}>
                Disable
              </RoleButton>
            )}
            <RoleButton need="admin" busy={test.isPending} onClick={() => test.mutate(undefined)}>
              Send test event
            </RoleButton>
            <RoleButton
              need="admin"
              busy={rotate.isPending}
              onClick={() => rotate.mutate(undefined, { onSuccess: (r) => setSecret(r.secret ?? null) })}>
              Rotate secret
            </RoleButton>
            <RoleButton need="admin" onClick={() => setRecovering(true)}>
              Recover…
            </RoleButton>
            <RoleButton need="admin" variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </RoleButton>
          </>
        }
      />
      {h.status === 'failing' ? (
        <div className="error-box" role="alert">
          Every retry of a delivery failed{h.failing_since ? ` (since ${formatDate(h.failing_since)})` : ''}: new events
          are held, not sent. Fix the receiver, then re-enable; held events are delivered then.
        </div>
      ) : null}
      <Card title="Settings">
        <KeyValue
          rows={[
            ['Events', h.events.includes('*') ? 'all events' : h.events.join(', ')],
            ['Mode', h.environment],
            [
              'Previous secret',
              h.previous_secret_expires_at ? `still signs until ${formatDate(h.previous_secret_expires_at)}` : 'none',
            ],
            ['Created', formatDate(h.created_at)],
            ['Id', <code key="id">{h.id}</code>],
          ]}
        />
      </Card>
      <Deliveries id={id} />
      {recovering ? <RecoverDialog id={id} onClose={() => setRecovering(false)} /> : null}
      <Dialog
        open={!!secret}
        title="New signing secret"
        onClose={() => setSecret(null)}
        footer={
          <Button variant="primary" onClick={() => setSecret(null)}>
            I have stored it
          </Button>
        }>
        {secret ? (
          <CopySecret
            value={secret}
            label="Shown only now. The old secret keeps signing for 24 hours, so receivers can switch over."
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title="Delete this webhook?"
        danger
        confirmLabel="Delete"
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/settings/webhooks') })}>
        <p>Its delivery history goes with it.</p>
      </ConfirmDialog>
    </>
  );
}
