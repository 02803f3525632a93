import { useState, type FormEvent } from 'react';
import * as api from '../../lib/api';
import { client, ok, type RequestBody } from '../../lib/client';
import { errorText, useAction, useGetPage, useInvalidate } from '../../lib/queries';
import { useSession, usePermission } from '../../lib/session';
import { formatDate, relativeTime } from '../../lib/format';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { CopySecret } from '../../components/CopySecret';
import {
  Badge,
  Button,
  Empty,
  ErrorBox,
  Field,
  PageHeader,
  RoleButton,
  Spinner,
  StatusBadge,
} from '../../components/ui';
import type { ApiKey } from '../../lib/types';

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const list = (s: string) =>
  s
    .split(/[\n,]/)
    .map((x) => x.trim())
    .filter(Boolean);

function CreateKey({ onCreated, onClose }: { onCreated(k: ApiKey): void; onClose(): void }) {
  const { environment } = useSession();
  const [f, setF] = useState({ name: '', per_minute: '', per_day: '', expires: '', ips: '', endpoints: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setGeneral(null);
    const body: RequestBody<'/api/v1/api-keys', 'post'> = { name: f.name };
    if (f.per_minute) body.rate_limit_per_minute = Number(f.per_minute);
    if (f.per_day) body.rate_limit_per_day = Number(f.per_day);
    if (f.expires) body.expires_in_days = Number(f.expires);
    if (f.ips.trim()) body.allowed_ips = list(f.ips);
    if (f.endpoints.trim()) body.allowed_endpoints = list(f.endpoints);
    try {
      onCreated(await ok(client.POST('/api/v1/api-keys', { body })));
    } catch (err) {
      if (err instanceof api.ApiError)
        setErrors(Object.fromEntries(err.fields.map((x) => [x.field.split(/[/.[]/)[0], x.message])));
      setGeneral(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open title="Create an API key" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p className="small muted">
          A {environment === 'test' ? <Badge tone="test">test</Badge> : 'live'} key (<code>svc_{environment}_…</code>).
          It acts with your role, now and later.
        </p>
        <Field label="Name" htmlFor="k-name" hint="What uses it, e.g. “accounting export”." error={errors.name}>
          <input id="k-name" required value={f.name} onChange={set('name')} />
        </Field>
        <div className="form-grid">
          <Field label="Requests per minute" htmlFor="k-min" error={errors.rate_limit_per_minute}>
            <input id="k-min" type="number" min={1} value={f.per_minute} onChange={set('per_minute')} />
          </Field>
          <Field label="Requests per day" htmlFor="k-day" error={errors.rate_limit_per_day}>
            <input id="k-day" type="number" min={1} value={f.per_day} onChange={set('per_day')} />
          </Field>
          <Field label="Expires after (days)" htmlFor="k-exp" error={errors.expires_in_days}>
            <input id="k-exp" type="number" min={1} value={f.expires} onChange={set('expires')} />
          </Field>
        </div>
        <Field
          label="Allowed IPs"
          htmlFor="k-ips"
          hint="Addresses or CIDRs, one per line. Empty: any."
          error={errors.allowed_ips}>
          <textarea id="k-ips" rows={2} value={f.ips} onChange={set('ips')} />
        </Field>
        <Field
          label="Allowed endpoints"
          htmlFor="k-eps"
          hint="e.g. GET /projects, /documents/* or POST /workflows/*/run. Empty: all."
          error={errors.allowed_endpoints}>
          <textarea id="k-eps" rows={2} value={f.endpoints} onChange={set('endpoints')} />
        </Field>
        {general ? (
          <div className="error-box" role="alert">
            {general}
          </div>
        ) : null}
        <div className="row dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!f.name.trim()}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * "Create API key" from start to the secret shown once: the form, then the new key. Used by this
 * page and by the API keys card of Settings → Integrations.
 */
export function CreateKeyFlow({ onClose }: { onClose(): void }) {
  const invalidate = useInvalidate();
  const [created, setCreated] = useState<ApiKey | null>(null);
  return created ? (
    <Dialog
      open
      title="Your new API key"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          I have stored it
        </Button>
      }>
      {created.key ? (
        <CopySecret
          value={created.key}
          label={`The key “${created.name}”. It is shown only now: copy it into your program's configuration.`}
        />
      ) : null}
    </Dialog>
  ) : (
    <CreateKey
      onClose={onClose}
      onCreated={(k) => {
        setCreated(k);
        void invalidate('/api-keys');
      }}
    />
  );
}

export function ApiKeysPage() {
  const keys = useGetPage('/api/v1/api-keys', { query: { limit: 100 } });
  const perm = usePermission('admin');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const toggle = useAction(
    (k: ApiKey) =>
      ok(
        client.PUT('/api/v1/api-keys/{api_key_id}', {
          params: { path: { api_key_id: k.id } },
          body: { is_active: !k.is_active },
        }),
      ),
    {
      invalidate: ['/api-keys'],
      success: 'Key updated',
    },
  );
  const revoke = useAction(
    (k: ApiKey) => ok(client.DELETE('/api/v1/api-keys/{api_key_id}', { params: { path: { api_key_id: k.id } } })),
    {
      invalidate: ['/api-keys'],
      success: 'Key revoked',
    },
  );
  return (
    <>
      <PageHeader
        title="API keys"
        subtitle="Keys for programs that call the API. Each key acts with the role of the person who created it."
        actions={
          <RoleButton need="admin" variant="primary" onClick={() => setCreating(true)}>
            Create API key
          </RoleButton>
        }
      />
      <ErrorBox error={keys.error} retry={() => keys.refetch()} />
      {keys.isPending ? (
        <Spinner />
      ) : !keys.data?.data.length ? (
        <Empty>No keys in this mode yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Status</th>
                <th>Limits</th>
                <th>Last used</th>
                <th>Created</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.masked_key}</code>
                  </td>
                  <td>
                    <StatusBadge status={k.revoked_at ? 'revoked' : k.status} />
                  </td>
                  <td className="small">
                    {[
                      k.rate_limit_per_minute && `${k.rate_limit_per_minute}/min`,
                      k.rate_limit_per_day && `${k.rate_limit_per_day}/day`,
                      k.allowed_ips.length && plural(k.allowed_ips.length, 'IP rule'),
                      k.allowed_endpoints.length && plural(k.allowed_endpoints.length, 'endpoint rule'),
                      k.expires_at && `expires ${formatDate(k.expires_at, { time: false })}`,
                    ]
                      .filter(Boolean)
                      .join(' · ') || 'none'}
                  </td>
                  <td className="small nowrap" title={k.last_used_at ?? undefined}>
                    {relativeTime(k.last_used_at)}
                  </td>
                  <td className="small nowrap">{formatDate(k.created_at, { time: false })}</td>
                  <td className="nowrap">
                    {k.revoked_at ? null : perm.allowed ? (
                      <span className="row">
                        <Button className="btn-sm" onClick={() => toggle.mutate(k)}>
                          {k.is_active ? 'Deactivate' : 'Activate'}
                        </Button>
                        <Button className="btn-sm" variant="danger" onClick={() => setRevoking(k)}>
                          Revoke
                        </Button>
                      </span>
                    ) : (
                      <span className="small muted" title={perm.reason}>
                        admin only
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating ? <CreateKeyFlow onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog
        open={!!revoking}
        title={`Revoke “${revoking?.name}”?`}
        danger
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoke.mutate(revoking!, { onSuccess: () => setRevoking(null) })}>
        <p>Programs using it get 401 from their next request. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
