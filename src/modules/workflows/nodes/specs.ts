// What each node type accepts: its config schema, which config strings are JSONata expressions
// or templates (checked on save), which ids it refers to (checked against the organization),
// the outputs it can branch on and whether it changes anything outside the run.

// Document events a `trigger.document` node can listen to: derived from EVENT_TYPES.
import { DOCUMENT_TRIGGER_EVENTS } from '../../events/events.types.js';

export type RefKind = 'project' | 'export' | 'template';

export interface NodeSpec {
  type: string;
  kind: 'trigger' | 'action';
  /** JSON schema of `config` (Ajv, no coercion). */
  config: Record<string, unknown>;
  /** Outputs that edges may name in `when` (besides `error`). */
  branches?: readonly string[];
  /** Config entries (dotted paths) holding a JSONata expression / a templated string, or maps of them. */
  expressions?: readonly string[];
  templates?: readonly string[];
  /** Config entries that are maps whose values are expressions / templates. */
  expressionMaps?: readonly string[];
  templateMaps?: readonly string[];
  refs?: readonly { path: string; kind: RefKind }[];
  /** Changes something outside the run (dry_run only reports what it would do). */
  sideEffects: boolean;
}

const obj = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
  ...extra,
});
const id = { type: 'string', minLength: 1, maxLength: 64 };
const expr = { type: 'string', minLength: 1, maxLength: 4096 };
const exprMap = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { minLength: 1, maxLength: 100 },
  additionalProperties: expr,
};

export const NODE_SPECS: readonly NodeSpec[] = [
  { type: 'trigger.manual', kind: 'trigger', config: obj({}), sideEffects: false },
  {
    type: 'trigger.document',
    kind: 'trigger',
    sideEffects: false,
    config: obj(
      {
        events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...DOCUMENT_TRIGGER_EVENTS] } },
        filters: obj({
          project_ids: { type: 'array', maxItems: 50, items: id },
          sources: { type: 'array', maxItems: 3, items: { enum: ['upload', 'email', 'api'] } },
          classification_types: {
            type: 'array',
            maxItems: 50,
            items: { type: 'string', minLength: 1, maxLength: 100 },
          },
          min_confidence: { type: 'number', minimum: 0, maximum: 1 },
          max_confidence: { type: 'number', minimum: 0, maximum: 1 },
        }),
      },
      ['events'],
    ),
    refs: [{ path: 'filters.project_ids', kind: 'project' }],
  },
  {
    type: 'trigger.schedule',
    kind: 'trigger',
    sideEffects: false,
    config: obj(
      {
        cron: { type: 'string', minLength: 9, maxLength: 200 },
        timezone: { type: 'string', minLength: 1, maxLength: 64 },
      },
      ['cron'],
    ),
  },
  { type: 'classify', kind: 'action', config: obj({}), sideEffects: true },
  {
    type: 'extract',
    kind: 'action',
    config: obj({ template_id: id }),
    refs: [{ path: 'template_id', kind: 'template' }],
    sideEffects: true,
  },
  {
    type: 'condition',
    kind: 'action',
    config: obj({ expression: expr }, ['expression']),
    branches: ['true', 'false'],
    expressions: ['expression'],
    sideEffects: false,
  },
  {
    type: 'set_fields',
    kind: 'action',
    sideEffects: true,
    config: obj({ fields: exprMap, metadata: exprMap }, [], { minProperties: 1 }),
    expressionMaps: ['fields', 'metadata'],
  },
  {
    type: 'move_to_project',
    kind: 'action',
    config: obj({ project_id: id }, ['project_id']),
    refs: [{ path: 'project_id', kind: 'project' }],
    sideEffects: true,
  },
  { type: 'mark_for_review', kind: 'action', config: obj({ reason: expr }), templates: ['reason'], sideEffects: true },
  {
    type: 'export_sheets',
    kind: 'action',
    config: obj({ export_id: id }, ['export_id']),
    refs: [{ path: 'export_id', kind: 'export' }],
    sideEffects: true,
  },
  {
    type: 'http_request',
    kind: 'action',
    sideEffects: true,
    config: obj(
      {
        method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        url: { type: 'string', minLength: 1, maxLength: 2048 },
        headers: { ...exprMap, additionalProperties: { type: 'string', maxLength: 4096 } },
        body: expr,
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 60 },
      },
      ['url'],
    ),
    templates: ['url'],
    templateMaps: ['headers'],
    expressions: ['body'],
  },
  {
    type: 'send_webhook_event',
    kind: 'action',
    sideEffects: true,
    config: obj(
      {
        url: { type: 'string', minLength: 1, maxLength: 2048 },
        event: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z][a-z0-9_.-]*$' },
        payload: expr,
      },
      ['url'],
    ),
    templates: ['url'],
    expressions: ['payload'],
  },
  {
    type: 'delay',
    kind: 'action',
    sideEffects: false,
    config: obj({ seconds: { type: 'integer', minimum: 1, maximum: 7 * 86_400 }, until: expr }, [], {
      minProperties: 1,
      maxProperties: 1,
    }),
    expressions: ['until'],
  },
];

export const SPECS = new Map(NODE_SPECS.map((s) => [s.type, s]));
export const NODE_TYPES = NODE_SPECS.map((s) => s.type);
