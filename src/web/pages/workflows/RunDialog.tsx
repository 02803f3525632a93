import { useState, type FormEvent } from 'react';
import * as api from '../../lib/api';
import { client, ok } from '../../lib/client';
import { errorText, useGetPage } from '../../lib/queries';
import { Dialog } from '../../components/Dialog';
import { Button, Field } from '../../components/ui';
import type { GraphIssue, Run, Workflow } from './types';

function parseObject(text: string, what: string): { value?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return { value: {} };
  try {
    const v = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: `${what} must be a JSON object.` };
    return { value: v as Record<string, unknown> };
  } catch (e) {
    return { error: `${what} is not valid JSON: ${(e as Error).message}` };
  }
}

/** Starts a run (execute or dry run) with an input and variable overrides. */
export function RunDialog({
  workflow,
  mode,
  onClose,
  onStarted,
  onIssues,
}: {
  workflow: Workflow;
  mode: 'execute' | 'dry_run';
  onClose(): void;
  onStarted(run: Run): void;
  onIssues(issues: GraphIssue[]): void;
}) {
  const docs = useGetPage('/api/v1/documents', { query: { per_page: 50 } });
  // Same-named files of different projects are told apart by their project.
  const projects = useGetPage('/api/v1/projects', { query: { limit: 100 } });
  const projectName = new Map((projects.data?.data ?? []).map((p) => [p.id, p.name]));
  const [input, setInput] = useState('{}');
  const [variables, setVariables] = useState(
    Object.keys(workflow.variables ?? {}).length ? JSON.stringify(workflow.variables, null, 2) : '{}',
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inp = parseObject(input, 'The input');
  const vars = parseObject(variables, 'The variables');
  const docId = typeof inp.value?.document_id === 'string' ? inp.value.document_id : '';
  const pickDoc = (id: string) => {
    const next = { ...(inp.value ?? {}) };
    if (id) next.document_id = id;
    else delete next.document_id;
    setInput(JSON.stringify(next, null, 2));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (inp.error || vars.error) return;
    setBusy(true);
    setError(null);
    try {
      onStarted(
        await ok(
          client.POST('/api/v1/workflows/{id}/run', {
            params: { path: { id: workflow.id } },
            body: { mode, input: inp.value, variables: vars.value },
          }),
        ),
      );
    } catch (err) {
      setError(errorText(err));
      if (err instanceof api.ApiError) onIssues(err.fields as GraphIssue[]);
    } finally {
      setBusy(false);
    }
  };
  const title = mode === 'dry_run' ? 'Dry run' : 'Run';
  return (
    <Dialog open title={`${title}: ${workflow.name}`} onClose={onClose} wide>
      <form onSubmit={submit} noValidate>
        <p className="small muted">
          {mode === 'dry_run'
            ? 'A dry run computes every step and records what it would do — fields it would set, requests it would send — without changing anything.'
            : 'The run works on the saved version of the workflow and changes the document for real.'}
        </p>
        <Field label="Document" htmlFor="run-doc" hint="Sets input.document_id.">
          <select id="run-doc" value={docId} onChange={(e) => pickDoc(e.target.value)}>
            <option value="">No document</option>
            {docId && !docs.data?.data.some((d) => d.id === docId) ? <option value={docId}>{docId}</option> : null}
            {/* Listed once the project names are there too (an id flashing in first reads as a bug);
                if they fail to load, with project ids rather than not at all. */}
            {docs.data && !projects.isPending ? (
              docs.data.data.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.filename} · {projectName.get(d.project_id) ?? d.project_id} ({d.status})
                </option>
              ))
            ) : docs.isPending || projects.isPending ? (
              <option disabled>Loading documents…</option>
            ) : null}
          </select>
        </Field>
        <div className="grid-2">
          <Field label="Input (JSON)" htmlFor="run-input" error={inp.error}>
            <textarea
              id="run-input"
              rows={7}
              value={input}
              spellCheck={false}
              onChange={(e) => setInput(e.target.value)}
            />
          </Field>
          <Field
            label="Variables (JSON)"
            htmlFor="run-vars"
            error={vars.error}
            hint="Override the workflow's defaults for this run.">
            <textarea
              id="run-vars"
              rows={7}
              value={variables}
              spellCheck={false}
              onChange={(e) => setVariables(e.target.value)}
            />
          </Field>
        </div>
        {error ? (
          <div className="error-box" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!!inp.error || !!vars.error}>
            {mode === 'dry_run' ? 'Start dry run' : 'Start run'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
