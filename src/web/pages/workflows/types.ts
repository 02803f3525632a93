// Shapes of the /workflows API as the pages use them, and helpers of the editor. The node types
// (palette, forms) come from the API's catalogue: see nodeTypes.ts.

import { allOf, type Operation, type Schemas, type Success } from '../../lib/client';

// The API's shapes: aliases of the generated schemas.
export type Workflow = Schemas['Workflow'] & { signing_secret?: string };
export type WorkflowStatus = Workflow['status'];
export const WORKFLOW_STATUSES = allOf<WorkflowStatus>()(['draft', 'active', 'inactive']);
export type Run = Schemas['WorkflowRun'] & { step_counts?: Record<string, number> };
export const RUN_STATUSES = allOf<Run['status']>()(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type WorkflowNode = Workflow['nodes'][number];
export type WorkflowEdge = Workflow['edges'][number];
export type Step = NonNullable<Run['steps']>[number];
/** A problem with the graph, as a 400's `details` or POST /workflows/validate names it. */
export type GraphIssue = Success<Operation<'/api/v1/workflows/validate', 'post'>>['data']['issues'][number];

/** What the editor has selected: a node or an edge (by edgeId). */
export type Selection = { kind: 'node' | 'edge'; id: string } | null;
export const edgeId = (e: WorkflowEdge) => `e:${e.source}>${e.target}>${e.when ?? ''}`;

export const isRunActive = (status: string) => status === 'queued' || status === 'running';

export function getPath(o: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
}

/** A copy of `o` with `path` set (or removed when the value is undefined); empty parents go too. */
export function setPath(o: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const out = { ...o };
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  const child = out[head] && typeof out[head] === 'object' ? (out[head] as Record<string, unknown>) : {};
  const next = setPath(child, rest.join('.'), value);
  if (Object.keys(next).length === 0) delete out[head];
  else out[head] = next;
  return out;
}

/** A fresh node id for a type: letters first, unique in the graph (the API's id rule). */
export function newNodeId(type: string, taken: Set<string>): string {
  const base = type.replace(/^trigger\./, '').replace(/[^A-Za-z0-9]+/g, '_');
  for (let i = 1; ; i++) {
    const id = `${base}_${i}`;
    if (!taken.has(id)) return id;
  }
}

export const NODE_ID_RULE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Which node an API problem points at: its node_id, else the node index in its JSON path. */
export function issueNode(issue: GraphIssue, nodes: WorkflowNode[]): string | undefined {
  if (issue.node_id && nodes.some((n) => n.id === issue.node_id)) return issue.node_id;
  const m = /^nodes\[(\d+)\]/.exec(issue.field);
  return m ? nodes[Number(m[1])]?.id : issue.node_id;
}
