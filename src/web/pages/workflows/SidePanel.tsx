// The panel beside the canvas: the selected step's settings (generated form or JSON), retries,
// error handling and connections; or the selected connection's `when`. Everything the canvas
// does by pointer can be done here by keyboard.
import { useState } from 'react';
import { Button, Field, Tabs, TabPanel } from '../../components/ui';
import { ConfigForm, ConfigJson } from './ConfigForm';
import type { NodeCatalogue } from './nodeTypes';
import { edgeId, NODE_ID_RULE, type GraphIssue, type Selection, type WorkflowEdge, type WorkflowNode } from './types';

interface Props {
  /** The node types as the API describes them. */
  types: NodeCatalogue;
  selection: Selection;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  issues: GraphIssue[];
  readOnly: boolean;
  onChange(nodes: WorkflowNode[], edges: WorkflowEdge[]): void;
  onSelect(s: Selection): void;
}

/** The `when` values an edge leaving this node may take ('' = none). */
export function whenOptions(types: NodeCatalogue, n: WorkflowNode | undefined): string[] {
  const branches = n ? types.branches(n.type) : undefined;
  return branches ? [...branches, 'error'] : ['', 'error'];
}

function Connections({ node, p }: { node: WorkflowNode; p: Props }) {
  const targets = p.nodes.filter((n) => n.id !== node.id && !p.types.isTrigger(n.type));
  const opts = whenOptions(p.types, node);
  const [target, setTarget] = useState('');
  const [when, setWhen] = useState(opts[0]);
  const out = p.edges.filter((e) => e.source === node.id);
  const inc = p.edges.filter((e) => e.target === node.id);
  const add = () => {
    const e: WorkflowEdge = { source: node.id, target, ...(when ? { when } : {}) };
    if (!target || p.edges.some((x) => edgeId(x) === edgeId(e))) return;
    p.onChange(p.nodes, [...p.edges, e]);
    setTarget('');
  };
  const remove = (e: WorkflowEdge) =>
    p.onChange(
      p.nodes,
      p.edges.filter((x) => edgeId(x) !== edgeId(e)),
    );
  return (
    <section aria-labelledby="wf-conn-h" className="wf-panel-section">
      <h3 id="wf-conn-h">Connections</h3>
      {inc.length ? (
        <p className="small muted">From: {inc.map((e) => `${e.source}${e.when ? ` (${e.when})` : ''}`).join(', ')}</p>
      ) : null}
      {out.length ? (
        <ul className="plain-list small" aria-label={`Connections from ${node.id}`}>
          {out.map((e) => (
            <li key={edgeId(e)} className="row">
              <span>
                → <code>{e.target}</code>
                {e.when ? (
                  <>
                    {' '}
                    when <code>{e.when}</code>
                  </>
                ) : null}
              </span>
              <Button
                className="btn-sm"
                disabled={p.readOnly}
                onClick={() => remove(e)}
                aria-label={`Remove the connection to ${e.target}${e.when ? ` when ${e.when}` : ''}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="small muted">No outgoing connections.</p>
      )}
      {targets.length ? (
        <div className="row wf-connect">
          <label className="sr-only" htmlFor="wf-conn-target">
            Connect to
          </label>
          <select id="wf-conn-target" value={target} disabled={p.readOnly} onChange={(e) => setTarget(e.target.value)}>
            <option value="">Connect to…</option>
            {targets.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name ? `${n.name} (${n.id})` : n.id}
              </option>
            ))}
          </select>
          <label className="sr-only" htmlFor="wf-conn-when">
            When
          </label>
          <select id="wf-conn-when" value={when} disabled={p.readOnly} onChange={(e) => setWhen(e.target.value)}>
            {opts.map((o) => (
              <option key={o} value={o}>
                {o ? `when ${o}` : 'always'}
              </option>
            ))}
          </select>
          <Button className="btn-sm" disabled={p.readOnly || !target} onClick={add}>
            Connect
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function NodeSettings({ node, p }: { node: WorkflowNode; p: Props }) {
  const info = p.types.get(node.type);
  const mine = p.issues.filter(
    (i) =>
      i.node_id === node.id ||
      (!i.node_id && p.nodes.findIndex((n) => n.id === node.id) === Number(/^nodes\[(\d+)\]/.exec(i.field)?.[1] ?? -1)),
  );
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [idText, setIdText] = useState(node.id);
  const [idError, setIdError] = useState<string | null>(null);
  const update = (patch: Partial<WorkflowNode>) =>
    p.onChange(
      p.nodes.map((n) => (n.id === node.id ? { ...n, ...patch } : n)),
      p.edges,
    );
  const rename = () => {
    const next = idText.trim();
    if (next === node.id) return setIdError(null);
    if (!NODE_ID_RULE.test(next)) return setIdError('Start with a letter; up to 64 letters, digits, _ or -.');
    if (p.nodes.some((n) => n.id === next)) return setIdError('Another step has this id.');
    setIdError(null);
    p.onChange(
      p.nodes.map((n) => (n.id === node.id ? { ...n, id: next } : n)),
      p.edges.map((e) => ({
        ...e,
        source: e.source === node.id ? next : e.source,
        target: e.target === node.id ? next : e.target,
      })),
    );
    p.onSelect({ kind: 'node', id: next });
  };
  const remove = () => {
    p.onChange(
      p.nodes.filter((n) => n.id !== node.id),
      p.edges.filter((e) => e.source !== node.id && e.target !== node.id),
    );
    p.onSelect(null);
  };
  const retry = node.retry;
  const setRetry = (tries: string, type: string, delay: string) => {
    if (!tries) return update({ retry: undefined });
    update({
      retry: {
        max_tries: Number(tries),
        ...(type ? { backoff: { type: type as 'fixed', delay_ms: Number(delay || 1000) } } : {}),
      },
    });
  };
  const other = mine.filter((i) => !/^nodes\[\d+\]\.config(\.|$)/.test(i.field));
  // Config problems of a field the form shows appear at that field; the rest are listed on top.
  const formPaths = mode === 'form' ? (info?.fields ?? []).map((f) => f.path) : [];
  const placed = (i: GraphIssue) => {
    const m = /^nodes\[\d+\]\.config\.(.+)$/.exec(i.field);
    return (
      (!!m && formPaths.some((p) => m[1] === p || m[1].startsWith(`${p}.`) || m[1].startsWith(`${p}[`))) ||
      /\.id$/.test(i.field)
    );
  };
  const unplaced = mine.filter((i) => !placed(i));
  return (
    <div className="wf-panel-body">
      <h2 className="wf-panel-title">
        {p.types.label(node.type)}: {node.name || node.id}
      </h2>
      {info ? (
        <p className="small muted">{info.description}</p>
      ) : (
        <p className="warn-box small">
          Unknown step type <code>{node.type}</code>.
        </p>
      )}
      {mine.length ? (
        <div className="error-box small" role="alert">
          <strong>{mine.length === 1 ? '1 problem' : `${mine.length} problems`} in this step</strong>
          {unplaced.length < mine.length ? (
            <> — shown at the {mine.length - unplaced.length === 1 ? 'field' : 'fields'} concerned.</>
          ) : null}
          {unplaced.length ? (
            <ul className="wf-issue-list">
              {unplaced.map((i, k) => (
                <li key={k}>
                  <code>{i.field}</code> {i.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <div className="form-grid">
        <Field
          label="Id"
          htmlFor="wf-node-id"
          error={
            idError ??
            (other
              .filter((i) => /\.id$/.test(i.field))
              .map((i) => i.message)
              .join('; ') ||
              undefined)
          }
          hint="Used by expressions as steps.<id>.">
          <input
            id="wf-node-id"
            className="mono"
            value={idText}
            disabled={p.readOnly}
            onChange={(e) => setIdText(e.target.value)}
            onBlur={rename}
            onKeyDown={(e) => {
              if (e.key === 'Enter') rename();
            }}
          />
        </Field>
        <Field label="Name" htmlFor="wf-node-name">
          <input
            id="wf-node-name"
            value={node.name ?? ''}
            disabled={p.readOnly}
            maxLength={200}
            onChange={(e) => update({ name: e.target.value || undefined })}
          />
        </Field>
      </div>
      <Tabs<'form' | 'json'>
        label="Step settings as"
        value={mode}
        onChange={setMode}
        tabs={[
          { id: 'form', label: 'Form' },
          { id: 'json', label: 'JSON' },
        ]}
      />
      <TabPanel id={mode}>
        {mode === 'form' ? (
          <ConfigForm
            key={node.id}
            fields={info?.fields ?? []}
            config={node.config}
            issues={mine}
            disabled={p.readOnly}
            onChange={(config) => update({ config })}
          />
        ) : (
          <ConfigJson
            key={node.id}
            label="Config (JSON)"
            config={node.config}
            disabled={p.readOnly}
            onChange={(config) => update({ config })}
          />
        )}
      </TabPanel>
      {!p.types.isTrigger(node.type) ? (
        <details className="wf-panel-section">
          <summary>Retries and errors</summary>
          <div className="form-grid mt">
            <Field
              label="When it fails"
              htmlFor="wf-node-onerror"
              hint="Continue follows connections without a condition or with “when error”.">
              <select
                id="wf-node-onerror"
                value={node.on_error ?? ''}
                disabled={p.readOnly}
                onChange={(e) => update({ on_error: (e.target.value || undefined) as 'stop' | undefined })}>
                <option value="">As the workflow says</option>
                <option value="stop">Stop the run</option>
                <option value="continue">Continue</option>
              </select>
            </Field>
            <Field label="Tries in all" htmlFor="wf-node-tries" hint="Empty: no retries. 1 to 10.">
              <input
                id="wf-node-tries"
                type="number"
                min={1}
                max={10}
                value={retry?.max_tries ?? ''}
                disabled={p.readOnly}
                onChange={(e) =>
                  setRetry(e.target.value, retry?.backoff?.type ?? '', String(retry?.backoff?.delay_ms ?? ''))
                }
              />
            </Field>
            <Field label="Backoff" htmlFor="wf-node-backoff">
              <select
                id="wf-node-backoff"
                value={retry?.backoff?.type ?? ''}
                disabled={p.readOnly || !retry}
                onChange={(e) =>
                  setRetry(String(retry?.max_tries ?? ''), e.target.value, String(retry?.backoff?.delay_ms ?? 1000))
                }>
                <option value="">Default (exponential from 1 s)</option>
                <option value="fixed">Fixed</option>
                <option value="exponential">Exponential</option>
              </select>
            </Field>
            <Field label="Delay (ms)" htmlFor="wf-node-delay">
              <input
                id="wf-node-delay"
                type="number"
                min={0}
                max={3600000}
                value={retry?.backoff?.delay_ms ?? ''}
                disabled={p.readOnly || !retry?.backoff}
                onChange={(e) =>
                  setRetry(String(retry?.max_tries ?? ''), retry?.backoff?.type ?? 'exponential', e.target.value)
                }
              />
            </Field>
          </div>
        </details>
      ) : null}
      <Connections key={node.id} node={node} p={p} />
      <div className="row mt">
        <Button variant="danger" disabled={p.readOnly} onClick={remove}>
          Delete step
        </Button>
      </div>
    </div>
  );
}

function EdgeSettings({ edge, p }: { edge: WorkflowEdge; p: Props }) {
  const source = p.nodes.find((n) => n.id === edge.source);
  const opts = whenOptions(p.types, source);
  const set = (when: string) => {
    const next = { source: edge.source, target: edge.target, ...(when ? { when } : {}) };
    if (p.edges.some((x) => edgeId(x) === edgeId(next))) return;
    p.onChange(
      p.nodes,
      p.edges.map((e) => (edgeId(e) === edgeId(edge) ? next : e)),
    );
    p.onSelect({ kind: 'edge', id: edgeId(next) });
  };
  return (
    <div className="wf-panel-body">
      <h2 className="wf-panel-title">Connection</h2>
      <p>
        <code>{edge.source}</code> → <code>{edge.target}</code>
      </p>
      <Field
        label="Follow it"
        htmlFor="wf-edge-when"
        hint={
          source && p.types.branches(source.type)
            ? 'Edges leaving a branching step need a branch.'
            : '“When error” is followed when the step fails and the run continues.'
        }>
        <select id="wf-edge-when" value={edge.when ?? ''} disabled={p.readOnly} onChange={(e) => set(e.target.value)}>
          {[...new Set([...(edge.when && !opts.includes(edge.when) ? [edge.when] : []), ...opts])].map((o) => (
            <option key={o} value={o}>
              {o ? `when ${o}` : 'always'}
            </option>
          ))}
        </select>
      </Field>
      <Button
        variant="danger"
        disabled={p.readOnly}
        onClick={() => {
          p.onChange(
            p.nodes,
            p.edges.filter((e) => edgeId(e) !== edgeId(edge)),
          );
          p.onSelect(null);
        }}>
        Remove connection
      </Button>
    </div>
  );
}

export function SidePanel(p: Props) {
  const node = p.selection?.kind === 'node' ? p.nodes.find((n) => n.id === p.selection!.id) : undefined;
  const edge = p.selection?.kind === 'edge' ? p.edges.find((e) => edgeId(e) === p.selection!.id) : undefined;
  return (
    <aside className="wf-panel card" aria-label="Selected step">
      {node ? (
        <NodeSettings key={node.id} node={node} p={p} />
      ) : edge ? (
        <EdgeSettings edge={edge} p={p} />
      ) : (
        <div className="wf-panel-body">
          <h2 className="wf-panel-title">No step selected</h2>
          <p className="small muted">
            Select a step on the canvas (or in the list of steps) to configure it. Add steps from the palette; connect
            them by dragging from a step’s bottom handle to another step’s top handle, or with “Connect to…” here.
          </p>
          <label className="small" htmlFor="wf-pick">
            Step
          </label>
          <select
            id="wf-pick"
            value=""
            onChange={(e) => e.target.value && p.onSelect({ kind: 'node', id: e.target.value })}>
            <option value="">Choose a step…</option>
            {p.nodes.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name ? `${n.name} (${n.id})` : n.id} — {p.types.label(n.type)}
              </option>
            ))}
          </select>
        </div>
      )}
    </aside>
  );
}
