import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api';
import { client, ok, type RequestBody } from '../../../lib/client';
import { errorText, useGetPage, useInvalidate } from '../../../lib/queries';
import { Link } from '../../../lib/router';
import { usePermission } from '../../../lib/session';
import { formatDate } from '../../../lib/format';
import { Dialog } from '../../../components/Dialog';
import { CopySecret } from '../../../components/CopySecret';
import { Button, Empty, ErrorBox, Field, PageHeader, RoleButton, Spinner, StatusBadge } from '../../../components/ui';
import { EVENT_TYPES, type Webhook } from '../../../lib/types';

function CreateWebhook({ onDone, onClose }: { onDone(w: Webhook): void; onClose(): void }) {
  const [url, setUrl] = useState('https://');
  const [events, setEvents] = useState<RequestBody<'/api/v1/webhooks', 'post'>['events']>(['document.extracted']);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      onDone(
        await ok(client.POST('/api/v1/webhooks', { body: { url, events, ...(description ? { description } : {}) } })),
      );
    } catch (err) {
      // A refused URL is said next to the URL field, not below the list of events.
      const fields = err instanceof ApiError ? err.fields : [];
      if (fields.length) setFieldErrors(Object.fromEntries(fields.map((x) => [x.field.split(/[/.[]/)[0], x.message])));
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const all = events.includes('*');
  return (
    <Dialog open title="Add a webhook" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field
          label="Endpoint URL"
          htmlFor="wh-url"
          hint="Receives a signed POST for each event."
          error={fieldErrors.url}>
          <input
            id="wh-url"
            type="url"
            value={url}
            aria-invalid={!!fieldErrors.url}
            aria-describedby={fieldErrors.url ? 'wh-url-error' : 'wh-url-hint'}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <Field label="Description" htmlFor="wh-desc" error={fieldErrors.description}>
          <input id="wh-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <fieldset className="stack" style={{ border: 'none', padding: 0, margin: '0 0 1rem', gap: '0.1rem' }}>
          <legend className="small">
            <strong>Events</strong>
          </legend>
          <label className="check">
            <input type="checkbox" checked={all} onChange={(e) => setEvents(e.target.checked ? ['*'] : [])} /> All
            events
          </label>
          {EVENT_TYPES.map((t) => (
            <label key={t} className="check">
              <input
                type="checkbox"
                disabled={all}
                checked={all || events.includes(t)}
                onChange={(e) => setEvents(e.target.checked ? [...events, t] : events.filter((x) => x !== t))}
              />{' '}
              <code>{t}</code>
            </label>
          ))}
        </fieldset>
        {error || fieldErrors.events ? (
          <div className="error-box" role="alert">
            {error ?? fieldErrors.events}
          </div>
        ) : null}
        <div className="row dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!events.length}>
            Add webhook
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function WebhooksPage() {
  const perm = usePermission('admin');
  const list = useGetPage('/api/v1/webhooks', perm.allowed ? { query: { limit: 100 } } : null);
  const invalidate = useInvalidate();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Webhook | null>(null);
  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="Signed HTTP callbacks for events. Failing endpoints stop being tried until you re-enable them."
        actions={
          <RoleButton need="admin" variant="primary" onClick={() => setCreating(true)}>
            Add webhook
          </RoleButton>
        }
      />
      {!perm.allowed ? <div className="info-box">{perm.reason}</div> : null}
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {perm.allowed && list.isPending ? (
        <Spinner />
      ) : list.data && !list.data.data.length ? (
        <Empty>No webhooks in this mode.</Empty>
      ) : list.data ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Status</th>
                <th>Events</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/settings/webhooks/${w.id}`}>{w.description || w.url}</Link>
                    {w.description ? <div className="small muted mono">{w.url}</div> : null}
                  </td>
                  <td>
                    <StatusBadge status={w.status} />
                    {w.failing_since ? <div className="small muted">since {formatDate(w.failing_since)}</div> : null}
                  </td>
                  <td className="small">{w.events.includes('*') ? 'all events' : w.events.join(', ')}</td>
                  <td className="small nowrap">{formatDate(w.created_at, { time: false })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {creating ? (
        <CreateWebhook
          onClose={() => setCreating(false)}
          onDone={(w) => {
            setCreating(false);
            setCreated(w);
            void invalidate('/webhooks');
          }}
        />
      ) : null}
      <Dialog
        open={!!created}
        title="Webhook added"
        onClose={() => setCreated(null)}
        footer={
          <Button variant="primary" onClick={() => setCreated(null)}>
            I have stored it
          </Button>
        }>
        {created?.secret ? (
          <CopySecret
            value={created.secret}
            label="The signing secret. Your receiver needs it to verify X-Service-Signature; it is shown only now."
          />
        ) : null}
      </Dialog>
    </>
  );
}
