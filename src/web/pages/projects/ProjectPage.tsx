import { useState } from 'react';
import { client, ok } from '../../lib/client';
import { useAction, useGet, useGetPage } from '../../lib/queries';
import { Link, navigate } from '../../lib/router';
import { bytes, formatDate, relativeTime } from '../../lib/format';
import { Bars } from '../../components/Bars';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { CopyText } from '../../components/CopyText';
import { AUTH_LABELS, InboundFields, inboundBody, inboundState } from './InboundFields';
import {
  Button,
  Card,
  ErrorBox,
  Field,
  KeyValue,
  PageHeader,
  RoleButton,
  Spinner,
  StatusBadge,
} from '../../components/ui';
import type { Project } from '../../lib/types';
import { usePermission } from '../../lib/session';
import { UploadZone } from '../documents/UploadZone';

function EditDialog({ project, onClose }: { project: Project; onClose(): void }) {
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const [color, setColor] = useState(project.color ?? '#1f5fbf');
  const [inbound, setInbound] = useState(inboundState(project));
  const save = useAction(
    () =>
      ok(
        client.PUT('/api/v1/projects/{id}', {
          params: { path: { id: project.id } },
          body: { name, description, color, ...inboundBody(inbound) },
        }),
      ),
    {
      invalidate: ['/projects'],
      success: 'Project saved',
    },
  );
  return (
    <Dialog
      open
      title="Edit project"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            busy={save.isPending}
            disabled={!name.trim()}
            onClick={() => save.mutate(undefined, { onSuccess: onClose })}>
            Save
          </Button>
        </>
      }>
      <Field label="Name" htmlFor="e-name">
        <input id="e-name" value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label="Description" htmlFor="e-desc">
        <input id="e-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <Field label="Colour" htmlFor="e-color">
        <input id="e-color" type="color" value={color} onChange={(e) => setColor(e.target.value)} />
      </Field>
      <InboundFields value={inbound} onChange={setInbound} idPrefix="e" />
    </Dialog>
  );
}

function DeleteDialog({ project, documents, onClose }: { project: Project; documents: number; onClose(): void }) {
  const others = useGetPage('/api/v1/projects', { query: { limit: 100, sort: 'name', order: 'asc' } });
  const [choice, setChoice] = useState<'move' | 'delete'>('move');
  const [target, setTarget] = useState('');
  const remove = useAction(
    () =>
      ok(
        client.DELETE('/api/v1/projects/{id}', {
          params: {
            path: { id: project.id },
            query:
              documents === 0 ? {} : choice === 'delete' ? { delete_documents: true } : { move_to_project_id: target },
          },
        }),
      ),
    { invalidate: ['/projects', '/documents'], success: 'Project deleted' },
  );
  const candidates = (others.data?.data ?? []).filter((p) => p.id !== project.id);
  return (
    <ConfirmDialog
      open
      title={`Delete “${project.name}”?`}
      danger
      confirmLabel="Delete project"
      busy={remove.isPending}
      onClose={onClose}
      onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/projects') })}>
      {documents === 0 ? (
        <p>The project has no documents.</p>
      ) : (
        <fieldset className="stack" style={{ border: 'none', padding: 0, margin: 0 }}>
          <legend>It holds {documents.toLocaleString()} documents. What should happen to them?</legend>
          <label className="check">
            <input type="radio" name="del-choice" checked={choice === 'move'} onChange={() => setChoice('move')} /> Move
            them to another project
          </label>
          {choice === 'move' ? (
            <Field label="Target project" htmlFor="del-target">
              <select id="del-target" value={target} onChange={(e) => setTarget(e.target.value)}>
                <option value="">Choose…</option>
                {candidates.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <label className="check">
            <input type="radio" name="del-choice" checked={choice === 'delete'} onChange={() => setChoice('delete')} />{' '}
            Delete them and their files
          </label>
        </fieldset>
      )}
    </ConfirmDialog>
  );
}

export function ProjectPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const project = useGet('/api/v1/projects/{id}', { path: { id } });
  const stats = useGet('/api/v1/projects/{id}/stats', { path: { id } });
  const canWrite = usePermission('member');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [rotating, setRotating] = useState(false);
  const rotate = useAction(
    () => ok(client.POST('/api/v1/projects/{id}/inbound-address/rotate', { params: { path: { id } } })),
    {
      invalidate: ['/projects'],
      success: 'New receiving address; the old one is refused from now on',
    },
  );
  const archive = useAction(
    (to: 'archive' | 'unarchive') => ok(client.POST(`/api/v1/projects/{id}/${to}`, { params: { path: { id } } })),
    {
      invalidate: ['/projects'],
      success: (_o) => 'Project updated',
    },
  );
  if (project.isPending) return <Spinner />;
  if (project.error) return <ErrorBox error={project.error} />;
  const p = project.data;
  const s = stats.data;
  return (
    <>
      <PageHeader
        title={p.name}
        subtitle={p.description ?? undefined}
        back={<Link to="/projects">← Projects</Link>}
        actions={
          <>
            <Link className="btn" to={`/documents?project_id=${p.id}`}>
              Documents
            </Link>
            <RoleButton need="member" onClick={() => setEditing(true)}>
              Edit
            </RoleButton>
            <RoleButton
              need="member"
              busy={archive.isPending}
              onClick={() => archive.mutate(p.status === 'archived' ? 'unarchive' : 'archive')}>
              {p.status === 'archived' ? 'Unarchive' : 'Archive'}
            </RoleButton>
            <RoleButton need="admin" variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </RoleButton>
          </>
        }
      />
      <div className="grid-3">
        <Card>
          <div className="stat">
            <span className="value">{s ? s.total_documents.toLocaleString() : '…'}</span>
            <span className="label">documents</span>
          </div>
        </Card>
        <Card>
          <div className="stat">
            <span className="value">{s ? bytes(s.total_bytes) : '…'}</span>
            <span className="label">stored · {s?.total_pages ?? '…'} pages</span>
          </div>
        </Card>
        <Card>
          <div className="stat">
            {/* Without documents the project's own creation is not "activity". */}
            <span className="value">
              {!s ? '…' : s.total_documents ? relativeTime(s.last_activity_at) : 'no documents yet'}
            </span>
            <span className="label">last activity</span>
          </div>
        </Card>
      </div>
      {p.status !== 'archived' ? (
        <div className="mt">
          <UploadZone
            projects={[p]}
            defaultProject={p.id}
            disabledReason={canWrite.allowed ? undefined : canWrite.reason}
          />
        </div>
      ) : null}
      <div className="grid-2" style={{ marginTop: '1rem' }}>
        <Card title="By status">
          {s ? <Bars data={s.documents_by_status} label="Documents by status" /> : <Spinner />}
        </Card>
        <Card title="By type">
          {s ? <Bars data={s.documents_by_classification} label="Documents by type" /> : <Spinner />}
        </Card>
      </div>
      <Card title="Receiving address" className="mt">
        {p.inbound_address ? (
          <div className="stack" style={{ gap: '0.5rem' }}>
            <p className="small muted" style={{ margin: 0 }}>
              Mail sent to this address becomes documents of this project (
              {p.inbound_consume === 'attachments'
                ? 'its attachments'
                : p.inbound_consume === 'eml'
                  ? 'the message itself, as .eml'
                  : 'its attachments and the message itself'}
              ).
            </p>
            <CopyText value={p.inbound_address} label="the receiving address" />
            <div>
              <RoleButton need="member" onClick={() => setRotating(true)}>
                New address…
              </RoleButton>
            </div>
          </div>
        ) : (
          <p className="small muted" style={{ margin: 0 }}>
            This server receives no mail (INBOUND_DOMAIN and SMTP_PORT are not set).
          </p>
        )}
      </Card>
      <Card title="Settings" className="mt">
        <KeyValue
          rows={[
            ['Status', <StatusBadge key="s" status={p.status} />],
            ['Classify automatically', p.auto_classify ? 'Yes' : 'No'],
            ['Extract automatically', p.auto_extract ? 'Yes' : 'No'],
            ['Review threshold', String(p.classification_threshold)],
            ['Retention', p.retention_days ? `${p.retention_days} days` : 'Keep forever'],
            [
              'Allowed file types',
              p.allowed_file_types.length ? p.allowed_file_types.join(', ') : 'Everything supported',
            ],
            [
              'Default template',
              p.default_template_id ? (
                <Link key="t" to={`/templates/${p.default_template_id}`}>
                  {p.default_template_id}
                </Link>
              ) : (
                'Chosen by keywords'
              ),
            ],
            ['Mail accepted from', p.inbound_allowed_senders.length ? p.inbound_allowed_senders.join(', ') : 'Anyone'],
            ['Mail must pass', AUTH_LABELS[p.inbound_authentication]],
            ['Created', formatDate(p.created_at)],
            ['Id', <code key="i">{p.id}</code>],
          ]}
        />
      </Card>
      <ConfirmDialog
        open={rotating}
        title="Replace the receiving address?"
        danger
        confirmLabel="Replace address"
        busy={rotate.isPending}
        onClose={() => setRotating(false)}
        onConfirm={() => rotate.mutate(undefined, { onSuccess: () => setRotating(false) })}>
        <p>Mail to {p.inbound_address} is refused from then on; tell your senders the new address.</p>
      </ConfirmDialog>
      {editing ? <EditDialog project={p} onClose={() => setEditing(false)} /> : null}
      {deleting ? (
        <DeleteDialog project={p} documents={s?.total_documents ?? 0} onClose={() => setDeleting(false)} />
      ) : null}
    </>
  );
}
