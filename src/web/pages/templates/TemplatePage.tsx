import { useState } from 'react';
import { client, ok } from '../../lib/client';
import { errorText, useAction, useGet, useGetPage } from '../../lib/queries';
import { Link, navigate } from '../../lib/router';
import { usePermission } from '../../lib/session';
import { valueText } from '../../lib/format';
import { ConfirmDialog } from '../../components/Dialog';
import { Badge, Button, Card, ErrorBox, Field, PageHeader, RoleButton, Spinner } from '../../components/ui';
import type { TemplateTest } from '../../lib/types';
import type { Operation } from '../../lib/client';

type Definition = NonNullable<Operation<'/api/v1/templates/{id}', 'put'>['requestBody']>['content']['application/json'];

const TONE: Record<string, 'good' | 'warn' | 'bad' | 'neutral'> = {
  ok: 'good',
  no_match: 'warn',
  empty: 'warn',
  failed: 'bad',
  skipped: 'neutral',
};

function TestPanel({
  definition,
  parseError,
}: {
  definition: () => Record<string, unknown> | null;
  parseError: string | null;
}) {
  const docs = useGetPage('/api/v1/documents', { query: { per_page: 50 } });
  const [docId, setDocId] = useState('');
  const [result, setResult] = useState<TemplateTest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    const def = definition();
    if (!def) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await ok(client.POST('/api/v1/templates/test', { body: { document_id: docId, template: def } })));
    } catch (e) {
      setResult(null);
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Test against a document">
      <div className="row">
        <label htmlFor="test-doc" className="small">
          Document
        </label>
        <select id="test-doc" value={docId} onChange={(e) => setDocId(e.target.value)}>
          <option value="">Choose…</option>
          {docs.data?.data.map((d) => (
            <option key={d.id} value={d.id}>
              {d.filename}
            </option>
          ))}
        </select>
        <Button variant="primary" disabled={!docId || !!parseError} busy={busy} onClick={() => void run()}>
          Run template
        </Button>
      </div>
      <p className="small muted">Runs the definition as it is in the editor (saved or not); nothing is stored.</p>
      {error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : null}
      {result ? (
        <div className="stack" style={{ gap: '0.5rem' }} data-testid="template-test-result">
          <div>
            {result.matched ? (
              <Badge tone="good">keywords match</Badge>
            ) : (
              <Badge tone="warn">keywords do not match</Badge>
            )}{' '}
            {result.reason ? <span className="small muted">{result.reason}</span> : null}
          </div>
          {result.note ? <div className="warn-box">{result.note}</div> : null}
          {result.keywords?.length ? (
            <p className="small">
              Keywords:{' '}
              {result.keywords.map((k) => (
                <code key={k.pattern} className={k.hit ? '' : 'field-error'}>
                  {k.hit ? '✓' : '✗'} {k.pattern}{' '}
                </code>
              ))}
            </p>
          ) : null}
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Field</th>
                  <th>Outcome</th>
                  <th>Value</th>
                </tr>
              </thead>
              <tbody>
                {result.fields.map((f) => (
                  <tr key={f.field}>
                    <td>
                      {f.field} <span className="muted small">{f.parser}</span>
                    </td>
                    <td>
                      <Badge tone={TONE[f.status] ?? 'neutral'}>{f.status.replace('_', ' ')}</Badge>
                      {f.reason ? <div className="small muted">{f.reason}</div> : null}
                    </td>
                    <td className="mono small">{valueText(result.values[f.field])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {result.missing_required.length ? (
            <p className="small">Required but missing: {result.missing_required.join(', ')}</p>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

export function TemplatePage({ params }: { params: Record<string, string> }) {
  const t = useGet('/api/v1/templates/{id}', { path: { id: params.id } });
  const perm = usePermission('member');
  const [text, setText] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const source = text ?? (t.data ? JSON.stringify(t.data.definition, null, 2) : '');
  let parseError: string | null = null;
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(source);
  } catch (e) {
    parseError = (e as Error).message;
  }
  const save = useAction(
    () =>
      // The editor's JSON goes as written: the server validates a definition in depth and names
      // what is wrong (the document only lists the required keys).
      ok(client.PUT('/api/v1/templates/{id}', { params: { path: { id: params.id } }, body: parsed as Definition })),
    {
      invalidate: ['/templates'],
      success: (r) => `Saved as version ${r.version}`,
      quiet: true,
    },
  );
  const remove = useAction(() => ok(client.DELETE('/api/v1/templates/{id}', { params: { path: { id: params.id } } })), {
    invalidate: ['/templates'],
    success: 'Template deleted',
  });
  if (t.isPending) return <Spinner />;
  if (t.error) return <ErrorBox error={t.error} />;
  return (
    <>
      <PageHeader
        title={t.data.name || t.data.issuer}
        subtitle={`${t.data.issuer} · priority ${t.data.priority} · version ${t.data.version}`}
        back={<Link to="/templates">← Templates</Link>}
        actions={
          <RoleButton need="member" variant="danger" onClick={() => setDeleting(true)}>
            Delete
          </RoleButton>
        }
      />
      <div className="doc-layout">
        <Card title="Definition">
          <Field
            label="Template as JSON"
            htmlFor="tpl-def"
            hint="invoice2data's keys: issuer, keywords, exclude_keywords, priority, fields, lines, options, required_fields."
            error={parseError ?? undefined}>
            <textarea
              id="tpl-def"
              rows={24}
              wrap="off"
              value={source}
              readOnly={!perm.allowed}
              spellCheck={false}
              onChange={(e) => setText(e.target.value)}
            />
          </Field>
          {save.error ? <ErrorBox error={save.error} /> : null}
          <div className="row">
            <RoleButton
              need="member"
              variant="primary"
              disabled={!!parseError || text === null}
              busy={save.isPending}
              onClick={() => save.mutate(undefined, { onSuccess: () => setText(null) })}>
              Save
            </RoleButton>
            {text !== null ? <Button onClick={() => setText(null)}>Discard changes</Button> : null}
          </div>
        </Card>
        <TestPanel definition={() => parsed} parseError={parseError} />
      </div>
      <ConfirmDialog
        open={deleting}
        title="Delete this template?"
        danger
        confirmLabel="Delete"
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/templates') })}>
        <p>Documents already extracted with it keep their fields.</p>
      </ConfirmDialog>
    </>
  );
}
