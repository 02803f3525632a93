import { useState, type FormEvent } from 'react';
import { client, ok, oneOf } from '../../lib/client';
import { errorText, useGetPage, useInvalidate } from '../../lib/queries';
import { Link, navigate, useSearchState } from '../../lib/router';
import { formatDate, humanize } from '../../lib/format';
import { Dialog } from '../../components/Dialog';
import { CopySecret } from '../../components/CopySecret';
import {
  Badge,
  Button,
  Empty,
  ErrorBox,
  Field,
  PageHeader,
  Pager,
  RoleButton,
  Spinner,
  StatusBadge,
} from '../../components/ui';
import { useNodeTypes } from './nodeTypes';
import { WORKFLOW_STATUSES, type Workflow } from './types';
import './workflows.css';

const PER_PAGE = 20;

function CreateWorkflow({ onDone, onClose }: { onDone(w: Workflow): void; onClose(): void }) {
  const { catalogue: types } = useNodeTypes();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [start, setStart] = useState<'manual' | 'document' | 'empty'>('manual');
  const [timeout, setTimeoutS] = useState('3600');
  const [concurrent, setConcurrent] = useState('10');
  const [onError, setOnError] = useState<'stop' | 'continue'>('stop');
  const [variables, setVariables] = useState('{}');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  let varsError: string | null = null;
  let vars: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(variables || '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) varsError = 'Variables must be a JSON object.';
    else vars = parsed as Record<string, unknown>;
  } catch (e) {
    varsError = `Not valid JSON: ${(e as Error).message}`;
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (varsError) return;
    setBusy(true);
    setError(null);
    const trigger = `trigger.${start}`;
    const nodes =
      start === 'empty' ? [] : [{ id: 'start', type: trigger, config: types.get(trigger)?.initial_config ?? {} }];
    try {
      onDone(
        await ok(
          client.POST('/api/v1/workflows', {
            body: {
              name,
              ...(description ? { description } : {}),
              nodes,
              edges: [],
              variables: vars,
              settings: {
                timeout_seconds: Number(timeout),
                max_concurrent_runs: Number(concurrent),
                on_error: onError,
              },
            },
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
    <Dialog open title="New workflow" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="wf-name">
          <input id="wf-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </Field>
        <Field label="Description" htmlFor="wf-desc">
          <input id="wf-desc" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        </Field>
        <Field
          label="Start with"
          htmlFor="wf-start"
          hint="A workflow has exactly one trigger; you can change it in the editor.">
          <select id="wf-start" value={start} onChange={(e) => setStart(e.target.value as typeof start)}>
            <option value="manual">{types.label('trigger.manual')}</option>
            <option value="document">{types.label('trigger.document')}</option>
            <option value="empty">An empty canvas</option>
          </select>
        </Field>
        <details className="mb">
          <summary>Settings and variables (set at creation only)</summary>
          <div className="form-grid mt">
            <Field label="Run timeout (seconds)" htmlFor="wf-timeout">
              <input
                id="wf-timeout"
                type="number"
                min={1}
                max={604800}
                value={timeout}
                onChange={(e) => setTimeoutS(e.target.value)}
              />
            </Field>
            <Field label="Runs at once" htmlFor="wf-conc">
              <input
                id="wf-conc"
                type="number"
                min={1}
                max={100}
                value={concurrent}
                onChange={(e) => setConcurrent(e.target.value)}
              />
            </Field>
            <Field label="When a step fails" htmlFor="wf-onerror">
              <select id="wf-onerror" value={onError} onChange={(e) => setOnError(e.target.value as 'stop')}>
                <option value="stop">Stop the run</option>
                <option value="continue">Continue</option>
              </select>
            </Field>
          </div>
          <Field
            label="Variables (JSON)"
            htmlFor="wf-vars"
            error={varsError ?? undefined}
            hint="Defaults that a run request can override.">
            <textarea
              id="wf-vars"
              rows={4}
              value={variables}
              onChange={(e) => setVariables(e.target.value)}
              spellCheck={false}
            />
          </Field>
        </details>
        {error ? (
          <div className="error-box" role="alert">
            {error}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!name.trim() || !!varsError}>
            Create workflow
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function WorkflowsPage() {
  const { catalogue: types } = useNodeTypes();
  const [s, set] = useSearchState();
  const page = Number(s.get('page') ?? 1);
  const status = s.get('status') ?? '';
  const search = s.get('search') ?? '';
  const [q, setQ] = useState(search);
  const list = useGetPage('/api/v1/workflows', {
    query: { status: oneOf(WORKFLOW_STATUSES, status), search: search || undefined, page, per_page: PER_PAGE },
  });
  const invalidate = useInvalidate();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Workflow | null>(null);
  const rows = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  return (
    <>
      <PageHeader
        title="Workflows"
        subtitle="Graphs of steps that run on a document: on an event, on a schedule or by hand."
        actions={
          <>
            <Link to="/workflows/runs" className="btn">
              All runs
            </Link>
            <RoleButton need="member" variant="primary" onClick={() => setCreating(true)}>
              New workflow
            </RoleButton>
          </>
        }
      />
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          set({ search: q, page: undefined });
        }}>
        <div className="field grow">
          <label htmlFor="wf-search">Search</label>
          <input
            id="wf-search"
            type="search"
            value={q}
            placeholder="Name or description"
            onChange={(e) => setQ(e.target.value)}
            onBlur={() => q !== search && set({ search: q, page: undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="wf-status">Status</label>
          <select id="wf-status" value={status} onChange={(e) => set({ status: e.target.value, page: undefined })}>
            <option value="">All</option>
            {WORKFLOW_STATUSES.map((x) => (
              <option key={x} value={x}>
                {humanize(x)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <ErrorBox error={list.error} retry={() => list.refetch()} />
      {list.isPending ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <Empty>
          {status || search
            ? 'No workflow matches these filters.'
            : 'No workflows yet. Create one to route, check or export documents automatically.'}
        </Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Trigger</th>
                <th className="num">Steps</th>
                <th className="num">Version</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/workflows/${w.id}`}>{w.name}</Link>
                    {w.description ? <div className="small muted">{w.description}</div> : null}
                  </td>
                  <td>
                    <StatusBadge status={w.status} />{' '}
                    {w.paused ? (
                      <Badge tone="bad" title={w.paused.reason}>
                        paused
                      </Badge>
                    ) : null}
                  </td>
                  <td className="small">
                    {w.trigger ? types.label(`trigger.${w.trigger.type}`) : <span className="muted">none</span>}
                  </td>
                  <td className="num">{w.nodes.length}</td>
                  <td className="num">{w.version}</td>
                  <td className="small nowrap">{formatDate(w.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={page}
        totalPages={Math.ceil(total / PER_PAGE)}
        total={total}
        onPage={(n) => set({ page: String(n) }, false)}
      />
      {creating ? (
        <CreateWorkflow
          onClose={() => setCreating(false)}
          onDone={(w) => {
            setCreating(false);
            setCreated(w);
            void invalidate('/workflows');
          }}
        />
      ) : null}
      <Dialog
        open={!!created}
        title="Workflow created"
        onClose={() => setCreated(null)}
        footer={
          <Button
            variant="primary"
            onClick={() => {
              const id = created!.id;
              setCreated(null);
              navigate(`/workflows/${id}`);
            }}>
            Open the editor
          </Button>
        }>
        {created?.signing_secret ? (
          <CopySecret
            value={created.signing_secret}
            label="The signing secret of this workflow's outbound requests (HTTP request, webhook event). Receivers verify X-Service-Signature with it; it is shown only now."
          />
        ) : null}
      </Dialog>
    </>
  );
}
