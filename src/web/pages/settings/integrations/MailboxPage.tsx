import { useState } from 'react';
import { client, ok, oneOf } from '../../../lib/client';
import { useAction, useGet, useGetPage, useInvalidate } from '../../../lib/queries';
import { Link, navigate } from '../../../lib/router';
import { formatDate } from '../../../lib/format';
import { ConfirmDialog, Dialog } from '../../../components/Dialog';
import {
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
} from '../../../components/ui';
import { MESSAGE_STATUSES, type MailMessage, type MailboxTest } from '../../../lib/types';
import { MailboxForm } from './MailboxForm';
import { MailboxTestResult } from './MailboxTestResult';

const PER_PAGE = 25;

function Messages({ id }: { id: string }) {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const list = useGetPage(
    '/api/v1/integrations/mailboxes/{id}/messages',
    {
      path: { id },
      query: { status: oneOf(MESSAGE_STATUSES, status), limit: PER_PAGE, offset: (page - 1) * PER_PAGE },
    },
    { refetchInterval: 5000 },
  );
  const retry = useAction(
    (m: MailMessage) =>
      ok(
        client.POST('/api/v1/integrations/mailboxes/{id}/messages/{messageId}/retry', {
          params: { path: { id, messageId: m.id } },
        }),
      ),
    {
      invalidate: [`/integrations/mailboxes/${id}`],
      success: 'Message queued again',
    },
  );
  const total = list.data?.pagination.total ?? 0;
  return (
    <Card
      title="Messages"
      actions={
        <label className="row small">
          Status
          <select
            value={status}
            aria-label="Message status"
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}>
            <option value="">All</option>
            {MESSAGE_STATUSES.map((s) => (
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
        <Empty>No messages seen yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Received</th>
                <th>From</th>
                <th>Subject</th>
                <th>Status</th>
                <th>Documents</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((m) => (
                <tr key={m.id}>
                  <td className="small nowrap">{formatDate(m.date)}</td>
                  <td className="small">{m.sender}</td>
                  <td>{m.subject}</td>
                  <td>
                    <StatusBadge status={m.status} />
                    {m.reason ? <div className="small muted">{m.reason}</div> : null}
                    {m.action_error ? <div className="small field-error">{m.action_error}</div> : null}
                  </td>
                  <td className="small">
                    {m.document_ids.map((d) => (
                      <div key={d}>
                        <Link to={`/documents/${d}`}>{d}</Link>
                      </div>
                    ))}
                  </td>
                  <td>
                    {m.status === 'failed' || m.status === 'skipped' ? (
                      <RoleButton need="admin" showReason={false} className="btn-sm" onClick={() => retry.mutate(m)}>
                        Retry
                      </RoleButton>
                    ) : null}
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

export function MailboxPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const m = useGet('/api/v1/integrations/mailboxes/{id}', { path: { id } }, { refetchInterval: 10_000 });
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100, sort: 'name', order: 'asc' } });
  const invalidate = useInvalidate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [result, setResult] = useState<MailboxTest | null>(null);
  const test = useAction(
    () => ok(client.POST('/api/v1/integrations/mailboxes/{id}/test', { params: { path: { id } } })),
    {},
  );
  const remove = useAction(
    () => ok(client.DELETE('/api/v1/integrations/mailboxes/{id}', { params: { path: { id } } })),
    {
      invalidate: ['/integrations/mailboxes'],
      success: 'Mailbox deleted',
    },
  );
  if (m.isPending) return <Spinner />;
  if (m.error) return <ErrorBox error={m.error} />;
  const b = m.data;
  const project = projects.data?.data.find((p) => p.id === b.project_id);
  return (
    <>
      <PageHeader
        title={b.name}
        subtitle={
          <span className="row">
            <StatusBadge status={b.is_active ? b.status : 'inactive'} />
            <span className="small muted">
              {b.username}@{b.host}
            </span>
          </span>
        }
        back={<Link to="/settings/integrations">← Integrations</Link>}
        actions={
          <>
            <Button busy={test.isPending} onClick={() => test.mutate(undefined, { onSuccess: setResult })}>
              Test connection
            </Button>
            <RoleButton need="admin" onClick={() => setEditing(true)}>
              Edit
            </RoleButton>
            <RoleButton need="admin" variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </RoleButton>
          </>
        }
      />
      {result ? (
        <Card title="Connection test">
          <MailboxTestResult result={result} security={b.security} />
        </Card>
      ) : null}
      {b.last_error ? (
        <div className="error-box" role="alert">
          Last error{b.last_error_at ? ` (${formatDate(b.last_error_at)})` : ''}: {b.last_error}
        </div>
      ) : null}
      <Card title="Settings">
        <KeyValue
          rows={[
            ['Server', `${b.host}:${b.port} (${b.security})`],
            ['Folder', b.folder],
            [
              'Project',
              project ? (
                <Link key="p" to={`/projects/${project.id}`}>
                  {project.name}
                </Link>
              ) : (
                b.project_id
              ),
            ],
            ['After processing', b.after_processing + (b.processed_folder ? ` → ${b.processed_folder}` : '')],
            ['Failed messages', b.failed_folder ?? 'stay unread'],
            ['Takes', b.consume],
            ['Allowed senders', b.allowed_senders.join(', ') || 'everyone'],
            ['Subject filter', b.subject_filter ?? 'none'],
            [
              'Attachments',
              [
                b.attachment_include.length ? `only ${b.attachment_include.join(', ')}` : 'all',
                b.attachment_exclude.length ? `not ${b.attachment_exclude.join(', ')}` : '',
              ]
                .filter(Boolean)
                .join('; '),
            ],
            ['Last checked', formatDate(b.last_checked_at)],
          ]}
        />
      </Card>
      <Messages id={id} />
      <Dialog open={editing} wide title="Edit mailbox" onClose={() => setEditing(false)}>
        {editing ? (
          <MailboxForm
            projects={projects.data?.data ?? []}
            mailbox={b}
            onCancel={() => setEditing(false)}
            onDone={() => {
              setEditing(false);
              void invalidate('/integrations/mailboxes');
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title="Delete this mailbox?"
        danger
        confirmLabel="Delete"
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/settings/integrations') })}>
        <p>Its message log goes with it; documents it created stay.</p>
      </ConfirmDialog>
    </>
  );
}
