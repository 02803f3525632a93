import { useState, type FormEvent } from 'react';
import { client, ok, oneOf, type Operation, type RequestBody, type Schemas, type Success } from '../../lib/client';
import { errorText, useAction, useGetPage, useInvalidate } from '../../lib/queries';
import { useMe, usePermission, useSession, type Role } from '../../lib/session';
import { formatDate } from '../../lib/format';
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

type Member = Schemas['Member'];
/** A member as added: with `temporary_password` when none was given. */
type Added = Success<Operation<'/api/v1/members', 'post'>>['data'];
const ROLES: Role[] = ['viewer', 'member', 'admin', 'owner'];
const ROLE_HELP: Record<Role, string> = {
  viewer: 'reads everything',
  member: 'also uploads and edits documents, projects, templates',
  admin: 'also keys, webhooks, integrations, members',
  owner: 'everything, including owners',
};

function AddMember({ canOwner, onDone, onClose }: { canOwner: boolean; onDone(m: Added): void; onClose(): void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(
        await ok(
          client.POST('/api/v1/members', {
            body: { email, role, ...(name ? { name } : {}), ...(password ? { password } : {}) },
          }),
        ),
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open title="Add a person" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field label="E-mail" htmlFor="m-email">
          <input id="m-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Name" htmlFor="m-name">
          <input id="m-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Role" htmlFor="m-role" hint={ROLE_HELP[role]}>
          <select id="m-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.filter((r) => r !== 'owner' || canOwner).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Password"
          htmlFor="m-pass"
          hint="Empty: a temporary password is made for you to hand over (shown once).">
          <input
            id="m-pass"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {error ? (
          <div className="error-box" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!email}>
            Add
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function MembersPage() {
  const me = useMe();
  const { environment } = useSession();
  const perm = usePermission('admin');
  const list = useGetPage('/api/v1/members', { query: { limit: 100 } });
  const invalidate = useInvalidate();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<Added | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const update = useAction(
    (x: { m: Member; patch: RequestBody<'/api/v1/members/{id}', 'put'> }) =>
      ok(client.PUT('/api/v1/members/{id}', { params: { path: { id: x.m.id } }, body: x.patch })),
    { invalidate: ['/members'], success: (m) => `${m.email}: ${m.role}${m.is_active ? '' : ', deactivated'}` },
  );
  const remove = useAction(
    (m: Member) => ok(client.DELETE('/api/v1/members/{id}', { params: { path: { id: m.id } } })),
    {
      invalidate: ['/members'],
      success: 'Member removed',
    },
  );
  const isOwner = me.user.role === 'owner';
  const liveOnly =
    environment === 'test' ? 'Members are managed in live mode (they are the same in both modes).' : null;
  const why = (m: Member): string | null => {
    if (!perm.allowed) return perm.reason!;
    if (liveOnly) return liveOnly;
    if (m.id === me.user.id) return 'You cannot change yourself; ask another admin or owner.';
    if (m.role === 'owner' && !isOwner) return 'Only an owner can change an owner.';
    return null;
  };
  return (
    <>
      <PageHeader
        title="Members"
        subtitle="The people of your organization and what they may do."
        actions={
          <RoleButton
            need="admin"
            variant="primary"
            disabled={!!liveOnly}
            title={liveOnly ?? undefined}
            onClick={() => setAdding(true)}>
            Add person
          </RoleButton>
        }
      />
      {liveOnly ? <div className="info-box">{liveOnly}</div> : null}
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : !list.data?.data.length ? (
        <Empty>No members.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Person</th>
                <th>Role</th>
                <th>Status</th>
                <th>Added</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((m) => {
                const blocked = why(m);
                return (
                  <tr key={m.id}>
                    <td>
                      {m.name ? <strong>{m.name}</strong> : null}{' '}
                      <span className={m.name ? 'small muted' : ''}>{m.email}</span>{' '}
                      {m.id === me.user.id ? <Badge tone="info">you</Badge> : null}
                    </td>
                    <td>
                      <label className="sr-only" htmlFor={`role-${m.id}`}>
                        Role of {m.email}
                      </label>
                      <select
                        id={`role-${m.id}`}
                        value={m.role}
                        disabled={!!blocked}
                        title={blocked ?? undefined}
                        onChange={(e) => update.mutate({ m, patch: { role: oneOf(ROLES, e.target.value) } })}>
                        {ROLES.filter((r) => r !== 'owner' || isOwner || m.role === 'owner').map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      <StatusBadge status={m.is_active ? 'active' : 'inactive'} />
                    </td>
                    <td className="small nowrap">{formatDate(m.created_at, { time: false })}</td>
                    <td className="nowrap">
                      {blocked ? (
                        <span className="small muted">{blocked}</span>
                      ) : (
                        <span className="row">
                          <Button
                            className="btn-sm"
                            onClick={() => update.mutate({ m, patch: { is_active: !m.is_active } })}>
                            {m.is_active ? 'Deactivate' : 'Activate'}
                          </Button>
                          <Button className="btn-sm" variant="danger" onClick={() => setRemoving(m)}>
                            Remove
                          </Button>
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {adding ? (
        <AddMember
          canOwner={isOwner}
          onClose={() => setAdding(false)}
          onDone={(m) => {
            setAdding(false);
            setAdded(m);
            void invalidate('/members');
          }}
        />
      ) : null}
      <Dialog
        open={!!added}
        title={`${added?.email} added`}
        onClose={() => setAdded(null)}
        footer={
          <Button variant="primary" onClick={() => setAdded(null)}>
            Done
          </Button>
        }>
        {added?.temporary_password ? (
          <CopySecret
            value={added.temporary_password}
            label="Their temporary password, shown only now. Hand it over in person or over a channel you trust."
          />
        ) : (
          <p>They can sign in with the password you chose.</p>
        )}
      </Dialog>
      <ConfirmDialog
        open={!!removing}
        title={`Remove ${removing?.email}?`}
        danger
        confirmLabel="Remove"
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => remove.mutate(removing!, { onSuccess: () => setRemoving(null) })}>
        <p>They are signed out everywhere and the API keys they created stop working.</p>
      </ConfirmDialog>
    </>
  );
}
