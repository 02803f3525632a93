// Shapes of the /workflows API as the pages use them, and helpers of the editor. The node types
// (palette, forms) come from the API's catalogue: see nodeTypes.ts.

export type WorkflowStatus = 'draft' | 'active' | 'inactive';
export const WORKFLOW_STATUSES: WorkflowStatus[] = ['draft', 'active', 'inactive'];
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

export interface WorkflowNode {
  id: string;
  type: string;
  name?: string;
  config: Record<string, unknown>;
  retry?: { max_tries: number; backoff?: { type: 'fixed' | 'exponential'; delay_ms: number } };
  on_error?: 'stop' | 'continue';
}
export interface WorkflowEdge {
  source: string;
  target: string;
  when?: string;
}
export interface Workflow {
  id: string;
  name: string;
  description: string | null;
  status: WorkflowStatus;
  version: number;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  settings: { timeout_seconds: number; max_concurrent_runs: number; on_error: 'stop' | 'continue' };
  variables: Record<string, unknown>;
  trigger: ({ type: string } & Record<string, unknown>) | null;
  /** Set when the platform deactivated the workflow (its scheduled runs kept crashing). */
  paused?: { reason: string; at: string } | null;
  created_at: string;
  updated_at: string;
  signing_secret?: string;
}
export interface GraphIssue {
  field: string;
  message: string;
  node_id?: string;
}
export interface Step {
  node_id: string;
  type: string;
  position: number;
  status: string;
  branch: string | null;
  attempts: number;
  input: unknown;
  output: unknown;
  error: { code: string; message: string; next_attempt_at?: string } | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}
export interface Run {
  id: string;
  workflow_id: string;
  workflow_version: number;
  mode: 'execute' | 'dry_run';
  status: string;
  trigger: { type: string; user_id?: string | null; event_type?: string; scheduled_for?: string };
  document_id: string | null;
  input: Record<string, unknown>;
  variables: Record<string, unknown>;
  error: { code: string; message: string; node_id?: string } | null;
  resume_at: string | null;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  created_at: string;
  steps?: Step[];
  step_counts?: Record<string, number>;
}

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
