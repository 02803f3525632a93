// Shapes of the /workflows API as the pages use them, and the palette of node types: what each
// type's config holds, described for a generated form. The API stays the judge of validity (it
// answers 400 naming the node and the JSON path); this catalog only shapes the editor.

import type { Exactly, Operation, Schemas, Success } from '../../lib/client';

// The API's shapes: aliases of the generated schemas.
export type Workflow = Schemas['Workflow'] & { signing_secret?: string };
export type WorkflowStatus = Workflow['status'];
export const WORKFLOW_STATUSES = ['draft', 'active', 'inactive'] as const satisfies Exactly<
  WorkflowStatus,
  readonly WorkflowStatus[]
>;
export type Run = Schemas['WorkflowRun'] & { step_counts?: Record<string, number> };
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const satisfies Exactly<
  Run['status'],
  readonly Run['status'][]
>;
export type WorkflowNode = Workflow['nodes'][number];
export type WorkflowEdge = Workflow['edges'][number];
export type Step = NonNullable<Run['steps']>[number];
/** A problem with the graph, as a 400's `details` or POST /workflows/validate names it. */
export type GraphIssue = Success<Operation<'/api/v1/workflows/validate', 'post'>>['data']['issues'][number];

/** What the editor has selected: a node or an edge (by edgeId). */
export type Selection = { kind: 'node' | 'edge'; id: string } | null;
export const edgeId = (e: WorkflowEdge) => `e:${e.source}>${e.target}>${e.when ?? ''}`;

export const isRunActive = (status: string) => status === 'queued' || status === 'running';

/** One entry of a node's generated form. `path` is dotted within `config`. */
export interface ConfigField {
  path: string;
  label: string;
  kind:
    | 'text'
    | 'expression'
    | 'template'
    | 'integer'
    | 'number'
    | 'select'
    | 'checkboxes'
    | 'list'
    | 'map'
    | 'project'
    | 'projects'
    | 'template_ref'
    | 'export_ref';
  options?: readonly string[];
  required?: boolean;
  hint?: string;
  /** For maps: whether values are expressions (default) or templates. */
  values?: 'expression' | 'template';
}

export interface NodeTypeInfo {
  type: string;
  label: string;
  kind: 'trigger' | 'action';
  summary: string;
  branches?: readonly string[];
  fields: ConfigField[];
  /** Config a new node starts with (valid where the type allows it). */
  initial: Record<string, unknown>;
}

const EXPR_HINT = 'A JSONata expression over document, input, variables, steps and run.';
const TEMPLATE_HINT = 'Text with {{ expression }} parts.';

export const NODE_TYPES: readonly NodeTypeInfo[] = [
  {
    type: 'trigger.manual',
    label: 'Manual trigger',
    kind: 'trigger',
    summary: 'Started by Run; input.document_id names the document.',
    fields: [],
    initial: {},
  },
  {
    type: 'trigger.document',
    label: 'Document event',
    kind: 'trigger',
    summary: 'One run per matching document event (active workflows only).',
    initial: { events: ['document.extracted'] },
    fields: [
      {
        path: 'events',
        label: 'Events',
        kind: 'checkboxes',
        required: true,
        options: ['document.uploaded', 'document.processed', 'document.classified', 'document.extracted'],
      },
      { path: 'filters.project_ids', label: 'Only these projects', kind: 'projects' },
      { path: 'filters.sources', label: 'Only these sources', kind: 'checkboxes', options: ['upload', 'email', 'api'] },
      {
        path: 'filters.classification_types',
        label: 'Only these types',
        kind: 'list',
        hint: 'Comma-separated, e.g. invoice, receipt.',
      },
      { path: 'filters.min_confidence', label: 'Minimum confidence', kind: 'number', hint: '0 to 1.' },
      { path: 'filters.max_confidence', label: 'Maximum confidence', kind: 'number', hint: '0 to 1.' },
    ],
  },
  {
    type: 'trigger.schedule',
    label: 'Schedule',
    kind: 'trigger',
    summary: 'One run per tick of a cron schedule.',
    initial: { cron: '0 7 * * 1-5', timezone: 'UTC' },
    fields: [
      {
        path: 'cron',
        label: 'Cron',
        kind: 'text',
        required: true,
        hint: 'Five fields: minute hour day-of-month month day-of-week.',
      },
      { path: 'timezone', label: 'Time zone', kind: 'text', hint: 'IANA name such as Europe/Berlin (default UTC).' },
    ],
  },
  {
    type: 'classify',
    label: 'Classify',
    kind: 'action',
    summary: 'Runs classification on the document.',
    fields: [],
    initial: {},
  },
  {
    type: 'extract',
    label: 'Extract',
    kind: 'action',
    summary: 'Runs field extraction on the document.',
    initial: {},
    fields: [
      { path: 'template_id', label: 'Template', kind: 'template_ref', hint: 'Leave empty to let the pipeline choose.' },
    ],
  },
  {
    type: 'condition',
    label: 'Condition',
    kind: 'action',
    summary: 'Follows the true or the false branch.',
    branches: ['true', 'false'],
    initial: { expression: 'document.classification.confidence > 0.8' },
    fields: [{ path: 'expression', label: 'Expression', kind: 'expression', required: true, hint: EXPR_HINT }],
  },
  {
    type: 'set_fields',
    label: 'Set fields',
    kind: 'action',
    summary: 'Writes fields or metadata on the document.',
    initial: { fields: { status_note: '"checked"' } },
    fields: [
      { path: 'fields', label: 'Fields', kind: 'map', hint: `Name → expression. ${EXPR_HINT}` },
      { path: 'metadata', label: 'Metadata', kind: 'map', hint: 'Name → expression.' },
    ],
  },
  {
    type: 'move_to_project',
    label: 'Move to project',
    kind: 'action',
    summary: 'Moves the document to another project.',
    initial: {},
    fields: [{ path: 'project_id', label: 'Project', kind: 'project', required: true }],
  },
  {
    type: 'mark_for_review',
    label: 'Mark for review',
    kind: 'action',
    summary: 'Sends the document to the review queue.',
    initial: { reason: 'Checked by a workflow' },
    fields: [{ path: 'reason', label: 'Reason', kind: 'template', hint: TEMPLATE_HINT }],
  },
  {
    type: 'export_sheets',
    label: 'Export to Sheets',
    kind: 'action',
    summary: 'Appends the document to a Google Sheets export.',
    initial: {},
    fields: [{ path: 'export_id', label: 'Sheets export', kind: 'export_ref', required: true }],
  },
  {
    type: 'http_request',
    label: 'HTTP request',
    kind: 'action',
    summary: 'A signed request to another system.',
    initial: { method: 'POST', url: 'https://' },
    fields: [
      { path: 'method', label: 'Method', kind: 'select', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
      { path: 'url', label: 'URL', kind: 'template', required: true, hint: TEMPLATE_HINT },
      { path: 'headers', label: 'Headers', kind: 'map', values: 'template', hint: `Name → value. ${TEMPLATE_HINT}` },
      { path: 'body', label: 'Body', kind: 'expression', hint: EXPR_HINT },
      { path: 'timeout_seconds', label: 'Timeout (seconds)', kind: 'integer', hint: '1 to 60.' },
    ],
  },
  {
    type: 'send_webhook_event',
    label: 'Send webhook event',
    kind: 'action',
    summary: 'A signed delivery with retries and an attempt log.',
    initial: { url: 'https://' },
    fields: [
      { path: 'url', label: 'URL', kind: 'template', required: true, hint: TEMPLATE_HINT },
      { path: 'event', label: 'Event name', kind: 'text', hint: 'Default workflow.event.' },
      { path: 'payload', label: 'Payload', kind: 'expression', hint: EXPR_HINT },
    ],
  },
  {
    type: 'delay',
    label: 'Delay',
    kind: 'action',
    summary: 'Waits; no worker is held.',
    initial: { seconds: 60 },
    fields: [
      { path: 'seconds', label: 'Seconds', kind: 'integer', hint: 'Up to 7 days. Set this or Until, not both.' },
      { path: 'until', label: 'Until', kind: 'expression', hint: 'An expression giving a date-time.' },
    ],
  },
];

export const NODE_INFO = new Map(NODE_TYPES.map((t) => [t.type, t]));
export const typeLabel = (type: string) => NODE_INFO.get(type)?.label ?? type;

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
