import { useState } from 'react';
import { client, ok } from '../../../lib/client';
import { useAction, useGetPage, useInvalidate } from '../../../lib/queries';
import { formatDate } from '../../../lib/format';
import { ConfirmDialog, Dialog } from '../../../components/Dialog';
import { Badge, Button, Card, Empty, ErrorBox, RoleButton, Spinner, StatusBadge } from '../../../components/ui';
import type { Project, SheetsConnection, SheetsExport } from '../../../lib/types';
import { ConnectionDialog } from './ConnectionDialog';
import { ExportDialog } from './ExportDialog';

function SendNow({ exp, onClose }: { exp: SheetsExport; onClose(): void }) {
  const docs = useGetPage('/api/v1/documents', { query: { project_id: exp.project_id, per_page: 50 } });
  const [docId, setDocId] = useState('');
  const send = useAction(
    () =>
      ok(
        client.POST('/api/v1/documents/{id}/export', { params: { path: { id: docId } }, body: { export_id: exp.id } }),
      ),
    {
      invalidate: ['/integrations/sheets', `/documents/${docId}`],
      success: 'Export queued',
    },
  );
  return (
    <Dialog
      open
      title="Export a document now"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button
            variant="primary"
            disabled={!docId}
            busy={send.isPending}
            onClick={() => send.mutate(undefined, { onSuccess: onClose })}>
            Export
          </Button>
        </>
      }>
      <label htmlFor="send-doc" className="small">
        Document
      </label>{' '}
      <select id="send-doc" value={docId} onChange={(e) => setDocId(e.target.value)}>
        <option value="">Choose…</option>
        {docs.data?.data.map((d) => (
          <option key={d.id} value={d.id}>
            {d.filename} ({d.status})
          </option>
        ))}
      </select>
      <p className="small muted">
        Writes its current version to {exp.sheet_name}; the document's page shows the result.
      </p>
    </Dialog>
  );
}

export function SheetsSection({ projects }: { projects: Project[] }) {
  const connections = useGetPage('/api/v1/integrations/sheets/connections', { query: { limit: 100 } });
  const exports = useGetPage(
    '/api/v1/integrations/sheets/exports',
    { query: { limit: 100 } },
    { refetchInterval: 10_000 },
  );
  const invalidate = useInvalidate();
  const [adding, setAdding] = useState<'connection' | 'export' | null>(null);
  const [sending, setSending] = useState<SheetsExport | null>(null);
  const [removing, setRemoving] = useState<SheetsConnection | null>(null);
  const remove = useAction(
    (c: SheetsConnection) =>
      ok(client.DELETE('/api/v1/integrations/sheets/connections/{id}', { params: { path: { id: c.id } } })),
    {
      invalidate: ['/integrations/sheets'],
      success: 'Connection deleted',
    },
  );
  const toggle = useAction(
    (e: SheetsExport) =>
      ok(
        client.PUT('/api/v1/integrations/sheets/exports/{id}', {
          params: { path: { id: e.id } },
          body: { is_active: !e.is_active },
        }),
      ),
    { invalidate: ['/integrations/sheets'], success: 'Export updated' },
  );
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const conns = connections.data?.data ?? [];
  return (
    <Card
      title="Google Sheets"
      actions={
        <>
          <RoleButton need="admin" onClick={() => setAdding('connection')}>
            Connect account
          </RoleButton>
          <RoleButton
            need="admin"
            variant="primary"
            disabled={!conns.length || !projects.length}
            onClick={() => setAdding('export')}>
            New export
          </RoleButton>
        </>
      }>
      <h3>Accounts</h3>
      <ErrorBox error={connections.error} />
      {connections.isPending ? (
        <Spinner />
      ) : !conns.length ? (
        <Empty>No Google account connected.</Empty>
      ) : (
        <ul className="plain-list">
          {conns.map((c) => (
            <li key={c.id} className="row">
              <strong>{c.name}</strong> <Badge>{c.type === 'service_account' ? 'service account' : 'OAuth'}</Badge>
              <span className="small muted mono">{c.client_email ?? c.client_id}</span>
              <span className="spacer" />
              <Button className="btn-sm" variant="danger" onClick={() => setRemoving(c)}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt">Exports</h3>
      <ErrorBox error={exports.error} />
      {exports.isPending ? (
        <Spinner />
      ) : !exports.data?.data.length ? (
        <Empty>No exports.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Project</th>
                <th>Sheet</th>
                <th>Columns</th>
                <th>Status</th>
                <th>When</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {exports.data.data.map((e) => (
                <tr key={e.id}>
                  <td>{names.get(e.project_id) ?? e.project_id}</td>
                  <td>
                    <span className="mono small">{e.spreadsheet_id.slice(0, 12)}…</span> / {e.sheet_name}
                  </td>
                  <td className="small">{e.columns.map((c) => c.header).join(', ')}</td>
                  <td>
                    <StatusBadge status={e.is_active ? e.status : 'paused'} />
                    {e.last_error ? <div className="field-error small">{e.last_error}</div> : null}
                    {e.retry_at ? <div className="small muted">retry {formatDate(e.retry_at)}</div> : null}
                  </td>
                  <td className="small">
                    {e.trigger === 'after_extraction' ? 'after extraction' : 'manual'} · {e.mode}
                  </td>
                  <td className="nowrap">
                    <Button className="btn-sm" onClick={() => setSending(e)}>
                      Export now
                    </Button>{' '}
                    <Button className="btn-sm" onClick={() => toggle.mutate(e)}>
                      {e.is_active ? 'Pause' : 'Resume'}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {adding === 'connection' ? (
        <ConnectionDialog
          onClose={() => setAdding(null)}
          onDone={() => {
            setAdding(null);
            void invalidate('/integrations/sheets');
          }}
        />
      ) : null}
      {adding === 'export' ? (
        <ExportDialog
          projects={projects}
          connections={conns}
          onClose={() => setAdding(null)}
          onDone={() => {
            setAdding(null);
            void invalidate('/integrations/sheets');
          }}
        />
      ) : null}
      {sending ? <SendNow exp={sending} onClose={() => setSending(null)} /> : null}
      <ConfirmDialog
        open={!!removing}
        title={`Delete “${removing?.name}”?`}
        danger
        confirmLabel="Delete"
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => remove.mutate(removing!, { onSuccess: () => setRemoving(null) })}>
        <p>Its stored credentials are erased. Exports that use it must be deleted first.</p>
      </ConfirmDialog>
    </Card>
  );
}
