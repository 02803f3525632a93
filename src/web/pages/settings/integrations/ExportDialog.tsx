import { useState } from 'react';
import { client, ok } from '../../../lib/client';
import { errorText, useGetPage } from '../../../lib/queries';
import { valueText } from '../../../lib/format';
import { Dialog } from '../../../components/Dialog';
import { Badge, Button, Card, Field } from '../../../components/ui';
import type { ConnectionTest, Project, SheetsConnection, SheetsExport } from '../../../lib/types';
import { BASE_FIELDS, ColumnMapper, type Column } from './ColumnMapper';
import { previewValue } from './preview';

/** Connect a project to a sheet: account, spreadsheet (tested), sheet, columns with a preview row. */
export function ExportDialog({
  projects,
  connections,
  onDone,
  onClose,
}: {
  projects: Project[];
  connections: SheetsConnection[];
  onDone(e: SheetsExport): void;
  onClose(): void;
}) {
  const [projectId, setProjectId] = useState(projects[0]?.id ?? '');
  const [connectionId, setConnectionId] = useState(connections[0]?.id ?? '');
  const [spreadsheet, setSpreadsheet] = useState('');
  const [tested, setTested] = useState<ConnectionTest | null>(null);
  const [sheet, setSheet] = useState('');
  const [columns, setColumns] = useState<Column[]>([
    { header: 'Document', field: 'document.id' },
    { header: 'File', field: 'document.filename' },
    { header: 'Type', field: 'classification.type' },
  ]);
  const [mode, setMode] = useState<'append' | 'upsert'>('append');
  const [trigger, setTrigger] = useState<'after_extraction' | 'manual'>('after_extraction');
  const [previewId, setPreviewId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const docs = useGetPage('/api/v1/documents', projectId ? { query: { project_id: projectId, per_page: 50 } } : null);
  const preview = docs.data?.data.find((d) => d.id === previewId) ?? docs.data?.data[0];
  const fieldNames = [...new Set((docs.data?.data ?? []).flatMap((d) => Object.keys(d.fields ?? {})))]
    .sort()
    .map((f) => `fields.${f}`);

  const test = async () => {
    setBusy('test');
    setError(null);
    try {
      const r = await ok(
        client.POST('/api/v1/integrations/sheets/connections/{id}/test', {
          params: { path: { id: connectionId } },
          body: { spreadsheet_id: spreadsheet },
        }),
      );
      setTested(r);
      if (r.ok && r.sheets.length && !sheet) setSheet(r.sheets[0]);
    } catch (e) {
      setTested(null);
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const save = async () => {
    setBusy('save');
    setError(null);
    try {
      onDone(
        await ok(
          client.POST('/api/v1/integrations/sheets/exports', {
            body: {
              project_id: projectId,
              connection_id: connectionId,
              spreadsheet_id: spreadsheet,
              sheet_name: sheet,
              columns,
              mode,
              trigger,
            },
          }),
        ),
      );
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Dialog
      open
      wide
      title="Export a project to Google Sheets"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            busy={busy === 'save'}
            disabled={!tested?.ok || !sheet || !columns.length}
            onClick={() => void save()}>
            Create export
          </Button>
        </>
      }>
      <div className="form-grid">
        <Field label="Project" htmlFor="ex-project">
          <select id="ex-project" value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Google account" htmlFor="ex-conn">
          <select
            id="ex-conn"
            value={connectionId}
            onChange={(e) => {
              setConnectionId(e.target.value);
              setTested(null);
            }}>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field
        label="Spreadsheet id"
        htmlFor="ex-ss"
        hint="The long id in the spreadsheet's address: docs.google.com/spreadsheets/d/<id>/edit">
        <div className="row">
          <input
            id="ex-ss"
            value={spreadsheet}
            onChange={(e) => {
              setSpreadsheet(e.target.value.trim());
              setTested(null);
            }}
            style={{ flex: 1 }}
          />
          <Button busy={busy === 'test'} disabled={!spreadsheet || !connectionId} onClick={() => void test()}>
            Check access
          </Button>
        </div>
      </Field>
      {tested ? (
        tested.ok ? (
          <div className="info-box" role="status">
            <Badge tone="good">access ok</Badge> {tested.sheets.length} sheet{tested.sheets.length === 1 ? '' : 's'}:{' '}
            {tested.sheets.join(', ')}
          </div>
        ) : (
          <div className="error-box" role="alert">
            No access: {tested.error.reason}
            {tested.error.code ? ` (${tested.error.code})` : ''}
          </div>
        )
      ) : null}
      {tested?.ok ? (
        <>
          <div className="form-grid">
            <Field label="Sheet" htmlFor="ex-sheet">
              <select id="ex-sheet" value={sheet} onChange={(e) => setSheet(e.target.value)}>
                {tested.sheets.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </Field>
            <Field
              label="Rows"
              htmlFor="ex-mode"
              hint={
                mode === 'upsert' ? 'Found again by the document.id column.' : 'A reprocessed document adds a row.'
              }>
              <select id="ex-mode" value={mode} onChange={(e) => setMode(e.target.value as 'append')}>
                <option value="append">A row per version (append)</option>
                <option value="upsert">One row per document (upsert)</option>
              </select>
            </Field>
            <Field label="When" htmlFor="ex-trigger">
              <select id="ex-trigger" value={trigger} onChange={(e) => setTrigger(e.target.value as 'manual')}>
                <option value="after_extraction">After extraction, automatically</option>
                <option value="manual">Only when asked</option>
              </select>
            </Field>
          </div>
          <ColumnMapper columns={columns} onChange={setColumns} fields={[...BASE_FIELDS, ...fieldNames]} />
          <Card title="Preview row" className="mt">
            {!docs.data?.data.length ? (
              <p className="small muted">The project has no documents to preview with.</p>
            ) : (
              <>
                <div className="row">
                  <label htmlFor="ex-prev" className="small">
                    Document
                  </label>
                  <select id="ex-prev" value={preview?.id ?? ''} onChange={(e) => setPreviewId(e.target.value)}>
                    {docs.data.data.map((d) => (
                      <option key={d.id} value={d.id}>
                        {d.filename}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="table-wrap mt">
                  <table aria-label="Preview of the row" data-testid="export-preview">
                    <thead>
                      <tr>
                        {columns.map((c, i) => (
                          <th key={i}>{c.header}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      <tr>
                        {columns.map((c, i) => (
                          <td key={i} className="small">
                            {preview ? valueText(previewValue(c.field, preview)) : ''}
                          </td>
                        ))}
                      </tr>
                    </tbody>
                  </table>
                </div>
              </>
            )}
          </Card>
        </>
      ) : null}
      {error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : null}
    </Dialog>
  );
}
