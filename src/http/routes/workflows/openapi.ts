// The workflow routes in the OpenAPI document (presentWorkflow, presentRun, presentStep). The
// routes' own response schemas stay as they are (they give the compiled serializers); these
// describe `data` in detail.
import { ON_ERRORS, RUN_STATUSES, WORKFLOW_STATUSES } from '../../../modules/workflows/workflows.types.js';
import { component, t, type OperationDocs } from '../../openapi-shapes.js';

// A node and an edge as stored (workflows.types.ts); each type's config is described by the node type.
const node = t.obj(
  {
    id: t.str,
    type: t.str,
    name: t.str,
    config: t.map(),
    retry: t.obj({ max_tries: t.int, backoff: t.obj({ type: t.enum(['fixed', 'exponential']), delay_ms: t.int }) }, [
      'backoff',
    ]),
    on_error: t.enum(ON_ERRORS),
  },
  ['name', 'retry', 'on_error'],
);
const edge = t.obj({ source: t.str, target: t.str, when: t.str }, ['when']);
const workflowProps = {
  id: t.str,
  name: t.str,
  description: t.nstr,
  status: t.enum(WORKFLOW_STATUSES),
  version: t.int,
  nodes: t.arr(node),
  edges: t.arr(edge),
  settings: t.obj({ timeout_seconds: t.int, max_concurrent_runs: t.int, on_error: t.enum(ON_ERRORS) }),
  variables: t.map(),
  trigger: t.nullable({
    ...t.obj({ type: t.str }),
    additionalProperties: true,
    description: 'The trigger node’s type and config',
  }),
  paused: t.nullable(
    t.obj(
      { reason: t.str, at: t.time },
      [],
      'Set when docpipe deactivated the workflow because its scheduled runs kept failing by crashing or spending their expression budget; cleared by activating it again',
    ),
  ),
  environment: t.enum(['live', 'test']),
  created_by: t.nstr,
  created_at: t.time,
  updated_at: t.time,
};
const workflow = component('Workflow', t.obj(workflowProps));
const step = t.obj({
  node_id: t.str,
  type: t.str,
  position: t.int,
  status: t.enum(['running', 'retrying', 'waiting', 'completed', 'failed', 'skipped']),
  branch: t.nstr,
  attempts: t.int,
  input: t.any,
  output: t.any,
  error: t.nullable(t.obj({ code: t.str, message: t.str, next_attempt_at: t.str }, ['next_attempt_at'])),
  started_at: t.ntime,
  finished_at: t.ntime,
  duration_ms: t.nint,
});
const runProps = {
  id: t.str,
  workflow_id: t.str,
  workflow_version: t.int,
  mode: t.enum(['execute', 'dry_run']),
  status: t.enum(RUN_STATUSES),
  trigger: t.obj({ type: t.str, event_id: t.str, event_type: t.str, scheduled_for: t.str, user_id: t.nstr }, [
    'event_id',
    'event_type',
    'scheduled_for',
    'user_id',
  ]),
  document_id: t.nstr,
  input: t.map(),
  variables: t.map(),
  error: t.nullable(t.obj({ code: t.str, message: t.str, node_id: t.str }, ['node_id'])),
  resume_at: t.ntime,
  deadline_at: t.ntime,
  queued_at: t.ntime,
  started_at: t.ntime,
  finished_at: t.ntime,
  duration_ms: t.nint,
  created_by: t.nstr,
  created_at: t.time,
  updated_at: t.time,
};
const run = component('WorkflowRun', t.obj({ ...runProps, steps: t.arr(step) }, ['steps']));
const issues = t.arr(t.obj({ field: t.str, node_id: t.str, message: t.str }, ['node_id']));

const field = t.obj(
  {
    path: t.str,
    label: t.str,
    kind: t.enum([
      'text',
      'expression',
      'template',
      'integer',
      'number',
      'select',
      'checkboxes',
      'list',
      'map',
      'project',
      'projects',
      'template_ref',
      'export_ref',
    ]),
    type: t.enum(['string', 'integer', 'number', 'array', 'object']),
    required: t.bool,
    options: t.arr(t.str),
    default: t.any,
    minimum: t.num,
    maximum: t.num,
    values: t.enum(['expression', 'template']),
    help: t.str,
  },
  ['options', 'default', 'minimum', 'maximum', 'values', 'help'],
  'One config entry: `path` is dotted within `config`; `kind` says how it is edited (an expression, a template, a reference to a project, template or Sheets export, a map of name → expression or template); `options` lists allowed values',
);
const nodeType = component(
  'WorkflowNodeType',
  t.obj({
    type: t.str,
    kind: t.enum(['trigger', 'action']),
    label: t.str,
    category: t.str,
    category_label: t.str,
    description: t.str,
    inputs: { type: 'integer', enum: [0, 1], description: 'Incoming edges: 0 for triggers, else 1 (from any steps)' },
    branches: {
      ...t.arr(t.str),
      description: 'Outputs an edge’s `when` must name (besides `error`); empty: edges leaving it carry no `when`',
    },
    side_effects: t.bool,
    initial_config: t.map(t.any, 'Config a new step of this type starts with'),
    fields: t.arr(field),
    config_schema: t.map(
      t.any,
      'JSON schema the node’s `config` must satisfy (save also checks expressions and references)',
    ),
  }),
);

const workflowExample = {
  id: 'wf_01HZX7B2',
  name: 'Approve big invoices',
  description: null,
  status: 'active',
  version: 3,
  nodes: [{ id: 'on', type: 'trigger.document', config: { events: ['document.extracted'] } }],
  edges: [],
  settings: { timeout_seconds: 3600, max_concurrent_runs: 10, on_error: 'stop' },
  variables: { limit: 1000 },
  trigger: { type: 'trigger.document', events: ['document.extracted'] },
  paused: null,
  environment: 'live',
  created_by: 'usr_01HZX3Y0',
  created_at: '2026-05-04T09:00:00.000Z',
  updated_at: '2026-05-04T09:30:00.000Z',
};

/** What a save refuses besides malformed graphs (each issue names its node and field). */
const SAVE_REFUSALS =
  'The graph is invalid; `details` lists each issue with its `field` (e.g. `nodes[1].config.url`) and `node_id`. Besides malformed nodes and edges: an http_request URL outside WORKFLOW_ALLOWED_HOSTS (private, loopback, localhost) or whose scheme and host are not written out (templates fill only the path and query); a send_webhook_event URL the webhook policy refuses; a send_webhook_event `event` in the platform namespaces document.*, report.*, webhook.*, workflow.* (custom types are workflow.event, workflow.custom.<name> or a name of your own such as invoice.approved).';

export const workflowsDocs: OperationDocs = {
  'GET /workflows': { list: true, data: workflow },
  'POST /workflows': {
    status: 201,
    description: 'Created; `signing_secret` (of its outbound requests) is shown in this answer only',
    data: t.obj({ ...workflowProps, signing_secret: t.str }),
    requestExample: { name: 'Notify on invoices', nodes: [], edges: [], status: 'draft' },
    errors: { 400: SAVE_REFUSALS },
  },
  'POST /workflows/validate': {
    data: t.obj({ valid: t.bool, issues }),
    requestExample: { nodes: [], edges: [], status: 'draft' },
  },
  'GET /workflows/node-types': {
    description: 'Every node type, grouped by category in the editor’s palette order',
    data: t.arr(nodeType),
  },
  'GET /workflows/runs': { list: true, data: t.obj({ ...runProps, step_counts: t.map(t.int) }) },
  'GET /workflows/runs/:runId': { data: run },
  'POST /workflows/runs/:runId/cancel': { data: run, errors: { 409: 'The run has already ended' } },
  'GET /workflows/:id': { data: workflow, example: workflowExample },
  'PUT /workflows/:id': { data: workflow, requestExample: { status: 'active' }, errors: { 400: SAVE_REFUSALS } },
  'DELETE /workflows/:id': { data: t.gone() },
  'POST /workflows/:id/run': {
    status: 202,
    description: 'The run is queued',
    data: run,
    requestExample: { mode: 'dry_run', input: { document_id: 'doc_01HZX4A7Q2' } },
  },
};
