import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import * as api from '../../lib/api';
import { client, ok } from '../../lib/client';
import { errorText, useGet, useGetPage, useInvalidate } from '../../lib/queries';
import { Link, navigate, useSearchState } from '../../lib/router';
import { usePermission } from '../../lib/session';
import { useToast } from '../../components/Toast';
import { ConfirmDialog } from '../../components/Dialog';
import {
  Badge,
  Button,
  Card,
  ErrorBox,
  PageHeader,
  RoleButton,
  Spinner,
  StatusBadge,
  Tabs,
  TabPanel,
} from '../../components/ui';
import { SidePanel } from './SidePanel';
import { RunDialog } from './RunDialog';
import { RunDetail, RunsTable } from './Runs';
import { useNodeTypes, type NodeCatalogue, type NodeTypeInfo } from './nodeTypes';
import {
  issueNode,
  newNodeId,
  type GraphIssue,
  type Selection,
  type Workflow,
  type WorkflowEdge,
  type WorkflowNode,
} from './types';
import './workflows.css';

// The canvas library is the heaviest part of this page: loaded with it, never with the shell.
const GraphEditor = lazy(() => import('./GraphEditor'));

interface Draft {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

/** The catalogue's types by category, in the order the API lists them. */
function byCategory(types: readonly NodeTypeInfo[]): { label: string; types: NodeTypeInfo[] }[] {
  const groups = new Map<string, { label: string; types: NodeTypeInfo[] }>();
  for (const t of types) {
    const g = groups.get(t.category) ?? { label: t.category_label, types: [] };
    g.types.push(t);
    groups.set(t.category, g);
  }
  return [...groups.values()];
}

function Palette({
  types,
  disabled,
  reason,
  onAdd,
  selected,
}: {
  types: NodeCatalogue;
  disabled: boolean;
  reason?: string;
  onAdd(type: string, connect: boolean): void;
  selected?: string;
}) {
  const [connect, setConnect] = useState(true);
  return (
    <nav className="wf-palette card" aria-label="Add a step">
      <h2 className="wf-panel-title">Add a step</h2>
      {reason ? <p className="small muted">{reason}</p> : null}
      <label className="check small">
        <input
          type="checkbox"
          checked={connect}
          onChange={(e) => setConnect(e.target.checked)}
          disabled={disabled || !selected}
        />
        <span>
          Connect from the selected step
          {selected ? (
            <>
              {' '}
              (<code>{selected}</code>)
            </>
          ) : (
            ''
          )}
        </span>
      </label>
      {byCategory(types.types).map((group) => (
        <div key={group.label}>
          <h3 className="wf-palette-h">{group.label}</h3>
          <ul className="wf-palette-list">
            {group.types.map((t) => (
              <li key={t.type}>
                <button
                  type="button"
                  className="wf-palette-btn"
                  disabled={disabled}
                  title={t.description}
                  onClick={() => onAdd(t.type, connect && !!selected)}
                  aria-label={`Add ${t.label}`}>
                  <span aria-hidden="true" className="wf-plus">
                    +
                  </span>{' '}
                  {t.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

function Problems({
  issues,
  nodes,
  onPick,
}: {
  issues: GraphIssue[];
  nodes: WorkflowNode[];
  onPick(id: string): void;
}) {
  if (!issues.length) return null;
  return (
    <section className="error-box wf-problems" aria-labelledby="wf-problems-h" data-testid="workflow-problems">
      <h2 id="wf-problems-h" className="small">
        <strong>{issues.length === 1 ? '1 problem' : `${issues.length} problems`} found by the API</strong>
      </h2>
      <ul>
        {issues.map((i, k) => {
          const id = issueNode(i, nodes);
          return (
            <li key={k}>
              {id ? (
                <button type="button" className="link-btn" onClick={() => onPick(id)}>
                  {id}
                </button>
              ) : null}
              {id ? ' · ' : null}
              <code>{i.field}</code> {i.message}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function StepsList({
  types,
  nodes,
  edges,
  issuesByNode,
  onPick,
}: {
  types: NodeCatalogue;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  issuesByNode: Map<string, string[]>;
  onPick(id: string): void;
}) {
  return (
    <details className="mt wf-steps-list">
      <summary>Steps as a list ({nodes.length})</summary>
      {nodes.length ? (
        <div className="table-wrap mt">
          <table aria-label="Steps of the workflow">
            <thead>
              <tr>
                <th>Step</th>
                <th>Type</th>
                <th>Goes to</th>
                <th>Problems</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((n) => (
                <tr key={n.id}>
                  <td>
                    <button type="button" className="link-btn" onClick={() => onPick(n.id)}>
                      {n.name || n.id}
                    </button>
                    {n.name ? <div className="small muted mono">{n.id}</div> : null}
                  </td>
                  <td className="small">{types.label(n.type)}</td>
                  <td className="small">
                    {edges
                      .filter((e) => e.source === n.id)
                      .map((e) => `${e.target}${e.when ? ` (${e.when})` : ''}`)
                      .join(', ') || '—'}
                  </td>
                  <td className="small">{issuesByNode.get(n.id)?.join('; ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="small muted">No steps yet.</p>
      )}
    </details>
  );
}

export function WorkflowPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const wf = useGet('/api/v1/workflows/{id}', { path: { id } });
  const nodeTypes = useNodeTypes();
  const types = nodeTypes.catalogue;
  const perm = usePermission('member');
  const toast = useToast();
  const invalidate = useInvalidate();
  const [s, set] = useSearchState();
  const tab = (s.get('tab') ?? 'editor') as 'editor' | 'runs';
  const [draft, setDraft] = useState<Draft | null>(null);
  // The saved graph the draft started from: unsaved changes are the difference between the two.
  const [base, setBase] = useState<Draft | null>(null);
  const [issues, setIssues] = useState<GraphIssue[]>([]);
  const [checked, setChecked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [selection, setSelection] = useState<Selection>(null);
  const [running, setRunning] = useState<'execute' | 'dry_run' | null>(null);
  const [launched, setLaunched] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [runsPage, setRunsPage] = useState(1);
  const placeRef = useRef<((id: string, after?: string) => void) | null>(null);

  const dirty = !!draft && !!base && JSON.stringify(draft) !== JSON.stringify(base);
  useEffect(() => {
    // A fresh read replaces the draft, but never over unsaved changes.
    if (!wf.data) return;
    const fresh = { nodes: wf.data.nodes, edges: wf.data.edges };
    if (!dirty) setDraft(fresh);
    setBase(fresh);
  }, [wf.data]); // `dirty` as of this render: whether the draft still equals what it started from
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const latest = useGetPage('/api/v1/workflows/runs', { query: { workflow_id: id, per_page: 1 } });
  const watched = launched ?? latest.data?.data[0]?.id ?? null;
  const watchedRun = useGet('/api/v1/workflows/runs/{runId}', watched ? { path: { runId: watched } } : null, {
    refetchInterval: (q) => (!q.state.data || ['queued', 'running'].includes(q.state.data.status) ? 1500 : false),
  });

  const nodes = draft?.nodes ?? [];
  const edges = draft?.edges ?? [];
  const issuesByNode = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const i of issues) {
      const n = issueNode(i, nodes);
      if (n) m.set(n, [...(m.get(n) ?? []), `${i.field.replace(/^nodes\[\d+\]\./, '')} ${i.message}`]);
    }
    return m;
  }, [issues, nodes]);
  const stepStatus = useMemo(
    () => new Map((watchedRun.data?.steps ?? []).map((st) => [st.node_id, st.status])),
    [watchedRun.data],
  );

  if (wf.isPending) return <Spinner />;
  if (wf.error)
    return (
      <>
        <PageHeader title="Workflow" back={<Link to="/workflows">← Workflows</Link>} />
        <ErrorBox error={wf.error} retry={() => wf.refetch()} />
      </>
    );
  const w = wf.data;

  const change = (n: WorkflowNode[], e: WorkflowEdge[]) => {
    setDraft({ nodes: n, edges: e });
    setChecked(null);
  };
  const fail = (err: unknown) => {
    // Graph problems are listed below and shown on their steps: the headline is enough here.
    const graph = err instanceof api.ApiError && err.status === 400 && err.fields.length > 0;
    setError(graph ? `${(err as api.ApiError).message.split(':')[0]}.` : errorText(err));
    if (graph) setIssues((err as api.ApiError).fields as GraphIssue[]);
  };
  const save = async (extra: Partial<Workflow> = {}, what = 'Saved') => {
    setBusy(extra.status ?? 'save');
    setError(null);
    try {
      const out = await ok(
        client.PUT('/api/v1/workflows/{id}', { params: { path: { id } }, body: { nodes, edges, ...extra } }),
      );
      const saved = { nodes: out.nodes, edges: out.edges };
      setDraft(saved);
      setBase(saved);
      setIssues([]);
      toast.show(`${what} (version ${out.version})`, 'success');
      await invalidate(`/workflows/${id}`, '/workflows');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  };
  const check = async () => {
    setBusy('check');
    setError(null);
    try {
      const r = await ok(client.POST('/api/v1/workflows/validate', { body: { nodes, edges } }));
      setIssues(r.issues);
      setChecked(r.valid ? 'The graph is valid and can run.' : null);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  };
  const add = (type: string, connect: boolean) => {
    const taken = new Set(nodes.map((n) => n.id));
    const nid = newNodeId(type, taken);
    const info = types.get(type);
    if (!info) return;
    const from = connect && selection?.kind === 'node' ? nodes.find((n) => n.id === selection.id) : undefined;
    const when = from ? types.branches(from.type)?.[0] : undefined;
    const edge = from && info.kind !== 'trigger' ? [{ source: from.id, target: nid, ...(when ? { when } : {}) }] : [];
    placeRef.current?.(nid, from?.id);
    change([...nodes, { id: nid, type, config: structuredClone(info.initial_config) }], [...edges, ...edge]);
    setSelection({ kind: 'node', id: nid });
  };
  const remove = async () => {
    setBusy('delete');
    try {
      await ok(client.DELETE('/api/v1/workflows/{id}', { params: { path: { id } } }));
      toast.show(`Deleted ${w.name}`, 'success');
      await invalidate('/workflows');
      navigate('/workflows');
    } catch (err) {
      fail(err);
      setDeleting(false);
    } finally {
      setBusy(null);
    }
  };
  const runReason = dirty
    ? 'Save the changes first: a run uses the saved version.'
    : !perm.allowed
      ? perm.reason
      : undefined;
  const pick = (nid: string) => {
    setSelection({ kind: 'node', id: nid });
    set({ tab: undefined });
  };

  return (
    <>
      <PageHeader
        back={<Link to="/workflows">← Workflows</Link>}
        title={
          <>
            {w.name} <StatusBadge status={w.status} /> {dirty ? <Badge tone="warn">unsaved changes</Badge> : null}
          </>
        }
        subtitle={
          <>
            {w.description ? <>{w.description} · </> : null}version {w.version} ·{' '}
            {w.trigger ? types.label(`trigger.${w.trigger.type}`) : 'no trigger yet'}
          </>
        }
        actions={
          <>
            <RoleButton
              need="member"
              variant="primary"
              busy={busy === 'save'}
              disabled={!dirty}
              onClick={() => void save()}>
              Save
            </RoleButton>
            <Button busy={busy === 'check'} onClick={() => void check()}>
              Check
            </Button>
            {w.status === 'active' ? (
              <RoleButton
                need="member"
                busy={busy === 'inactive'}
                onClick={() => void save({ status: 'inactive' }, 'Deactivated')}>
                Deactivate
              </RoleButton>
            ) : (
              <RoleButton
                need="member"
                busy={busy === 'active'}
                onClick={() => void save({ status: 'active' }, dirty ? 'Saved and activated' : 'Activated')}>
                {dirty ? 'Save and activate' : 'Activate'}
              </RoleButton>
            )}
            <Button disabled={!!runReason} title={runReason} onClick={() => setRunning('dry_run')}>
              Dry run…
            </Button>
            <Button disabled={!!runReason} title={runReason} onClick={() => setRunning('execute')}>
              Run…
            </Button>
            <RoleButton need="member" variant="danger" showReason={false} onClick={() => setDeleting(true)}>
              Delete
            </RoleButton>
          </>
        }
      />
      {dirty && perm.allowed ? <p className="small muted wf-run-hint">{runReason}</p> : null}
      {w.paused ? (
        <div className="error-box" role="alert">
          <strong>Schedule paused {new Date(w.paused.at).toLocaleString()}.</strong> {w.paused.reason}. Fix the
          workflow, then activate it again.
        </div>
      ) : null}
      {error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : null}
      {checked ? (
        <div className="info-box" role="status">
          {checked}
        </div>
      ) : null}
      <Tabs
        label="Workflow views"
        value={tab}
        onChange={(t) => set({ tab: t === 'editor' ? undefined : t })}
        tabs={[
          { id: 'editor', label: 'Editor' },
          { id: 'runs', label: 'Runs' },
        ]}
      />
      {tab === 'editor' ? (
        <TabPanel id="editor">
          {nodeTypes.isPending ? (
            <Spinner label="Loading the step types…" />
          ) : nodeTypes.error ? (
            <ErrorBox error={nodeTypes.error} retry={() => void nodeTypes.refetch()} />
          ) : (
            <>
              <Problems issues={issues} nodes={nodes} onPick={pick} />
              <div className="wf-editor">
                <Palette
                  types={types}
                  disabled={!perm.allowed}
                  reason={perm.allowed ? undefined : perm.reason}
                  onAdd={add}
                  selected={selection?.kind === 'node' ? selection.id : undefined}
                />
                <section className="wf-canvas-wrap" aria-label="Workflow graph">
                  <Suspense fallback={<Spinner label="Loading the editor…" />}>
                    <GraphEditor
                      types={types}
                      storageKey={`docpipe.workflow-layout.${id}`}
                      nodes={nodes}
                      edges={edges}
                      issuesByNode={issuesByNode}
                      stepStatus={stepStatus}
                      selection={selection}
                      readOnly={!perm.allowed}
                      onSelect={setSelection}
                      onChange={change}
                      placeRef={placeRef}
                    />
                  </Suspense>
                  <p className="small muted wf-legend">
                    Tab to a step and press Enter to select it; arrow keys move it, Delete removes it. Drag from a
                    step’s bottom handle to another step’s top handle to connect.
                    {stepStatus.size ? ' Badges show each step’s status in the run below.' : ''}
                  </p>
                </section>
                <SidePanel
                  types={types}
                  selection={selection}
                  nodes={nodes}
                  edges={edges}
                  issues={issues}
                  readOnly={!perm.allowed}
                  onChange={change}
                  onSelect={setSelection}
                />
              </div>
              <StepsList types={types} nodes={nodes} edges={edges} issuesByNode={issuesByNode} onPick={pick} />
            </>
          )}
          {watched ? (
            <Card className="mt" title={launched ? 'This run' : 'Latest run'}>
              <RunDetail runId={watched} compact />
            </Card>
          ) : null}
        </TabPanel>
      ) : (
        <TabPanel id="runs">
          <RunsTable workflowId={id} page={runsPage} onPage={setRunsPage} />
        </TabPanel>
      )}
      {running ? (
        <RunDialog
          workflow={w}
          mode={running}
          onClose={() => setRunning(null)}
          onIssues={setIssues}
          onStarted={(r) => {
            setRunning(null);
            setLaunched(r.id);
            toast.show(r.mode === 'dry_run' ? 'Dry run started' : 'Run started', 'success');
            void invalidate('/workflows/runs');
          }}
        />
      ) : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${w.name}?`}
        confirmLabel="Delete workflow"
        danger
        busy={busy === 'delete'}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(false)}>
        <p>The workflow and all its runs are deleted. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
