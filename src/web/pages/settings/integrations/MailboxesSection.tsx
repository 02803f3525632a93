import { useState } from 'react';
import { client, ok } from '../../../lib/client';
import { useAction, useGetPage, useInvalidate } from '../../../lib/queries';
import { Link } from '../../../lib/router';
import { relativeTime } from '../../../lib/format';
import { Dialog } from '../../../components/Dialog';
import { Button, Card, Empty, ErrorBox, RoleButton, Spinner, StatusBadge } from '../../../components/ui';
import type { Mailbox, MailboxTest, Project } from '../../../lib/types';
import { MailboxForm } from './MailboxForm';
import { MailboxTestResult } from './MailboxTestResult';

export function MailboxesSection({ projects }: { projects: Project[] }) {
  const list = useGetPage('/api/v1/integrations/mailboxes', { query: { limit: 100 } }, { refetchInterval: 10_000 });
  const invalidate = useInvalidate();
  const [adding, setAdding] = useState(false);
  const [tests, setTests] = useState<Record<string, MailboxTest>>({});
  const test = useAction(
    (m: Mailbox) => ok(client.POST('/api/v1/integrations/mailboxes/{id}/test', { params: { path: { id: m.id } } })),
    {},
  );
  return (
    <Card
      title="Mailboxes"
      actions={
        <RoleButton need="admin" variant="primary" onClick={() => setAdding(true)}>
          Add mailbox
        </RoleButton>
      }>
      <p className="small muted">Attachments of mail arriving in these IMAP folders become documents.</p>
      <ErrorBox error={list.error} />
      {list.isPending ? (
        <Spinner />
      ) : !list.data?.data.length ? (
        <Empty>No mailboxes.</Empty>
      ) : (
        <ul className="plain-list">
          {list.data.data.map((m) => (
            <li key={m.id} className="mailbox-row">
              <div className="row">
                <StatusBadge status={m.is_active ? m.status : 'inactive'} />
                <Link to={`/settings/integrations/mailboxes/${m.id}`}>{m.name}</Link>
                <span className="small muted">
                  {m.username}@{m.host}:{m.port} · {m.folder} · checked {relativeTime(m.last_checked_at)}
                </span>
                <span className="spacer" />
                <Button
                  className="btn-sm"
                  busy={test.isPending && test.variables?.id === m.id}
                  onClick={() => test.mutate(m, { onSuccess: (r) => setTests((t) => ({ ...t, [m.id]: r })) })}>
                  Test connection
                </Button>
              </div>
              {m.last_error ? <div className="field-error small">{m.last_error}</div> : null}
              {tests[m.id] ? <MailboxTestResult result={tests[m.id]} security={m.security} /> : null}
            </li>
          ))}
        </ul>
      )}
      <Dialog open={adding} wide title="Add a mailbox" onClose={() => setAdding(false)}>
        {adding ? (
          <MailboxForm
            projects={projects}
            onCancel={() => setAdding(false)}
            onDone={() => {
              setAdding(false);
              void invalidate('/integrations/mailboxes');
            }}
          />
        ) : null}
      </Dialog>
    </Card>
  );
}
