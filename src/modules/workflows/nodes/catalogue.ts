// Every node type, listed once. The graph validator (SPECS), the engine's executor table
// (createExecutors) and GET /workflows/node-types (NODE_CATALOGUE) all derive from this list:
// a new node type is a file in definitions/ and a line here (docs/ARCHITECTURE.md, "A new
// workflow node type").
import { NODE_CATEGORIES, type FieldUi, type NodeDefinition, type NodeDeps } from './definition.js';
import { classify } from './definitions/classify.js';
import { condition } from './definitions/condition.js';
import { delay } from './definitions/delay.js';
import { exportSheets } from './definitions/export-sheets.js';
import { extract } from './definitions/extract.js';
import { httpRequest } from './definitions/http-request.js';
import { markForReview } from './definitions/mark-for-review.js';
import { moveToProject } from './definitions/move-to-project.js';
import { sendWebhookEvent } from './definitions/send-webhook-event.js';
import { setFields } from './definitions/set-fields.js';
import { documentTrigger } from './definitions/trigger-document.js';
import { manualTrigger } from './definitions/trigger-manual.js';
import { scheduleTrigger } from './definitions/trigger-schedule.js';
import type { NodeExecutor } from './types.js';

/** In palette order within each category. */
export const NODE_DEFINITIONS = [
  manualTrigger,
  documentTrigger,
  scheduleTrigger,
  delay,
  condition,
  setFields,
  moveToProject,
  markForReview,
  classify,
  extract,
  exportSheets,
  httpRequest,
  sendWebhookEvent,
] as const;

export type NodeType = (typeof NODE_DEFINITIONS)[number]['type'];

export const SPECS: ReadonlyMap<string, NodeDefinition> = new Map(NODE_DEFINITIONS.map((d) => [d.type, d]));
export const NODE_TYPES: readonly NodeType[] = NODE_DEFINITIONS.map((d) => d.type);

/** The engine's executor table: one executor per node type, built by its definition. */
export function createExecutors(deps: NodeDeps): Record<NodeType, NodeExecutor> {
  return Object.fromEntries(NODE_DEFINITIONS.map((d) => [d.type, d.executor(deps)])) as Record<NodeType, NodeExecutor>;
}

type Schema = Record<string, unknown>;

/** How the dashboard's form edits a config entry. */
export type FieldKind =
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

/** One config entry as GET /workflows/node-types describes it. */
export interface CatalogueField {
  path: string;
  label: string;
  kind: FieldKind;
  /** The JSON type of the value. */
  type: 'string' | 'integer' | 'number' | 'array' | 'object';
  required: boolean;
  options?: string[];
  /** What the step uses when the entry is left out. */
  default?: unknown;
  minimum?: number;
  maximum?: number;
  /** For maps: whether the values are expressions or templates. */
  values?: 'expression' | 'template';
  help?: string;
}

export interface CatalogueEntry {
  type: NodeType;
  kind: 'trigger' | 'action';
  label: string;
  category: keyof typeof NODE_CATEGORIES;
  category_label: string;
  description: string;
  /** Edges a step of this type can receive: 0 for triggers, else 1 (from any number of steps). */
  inputs: 0 | 1;
  /** Outputs an edge's `when` names (`error` is always possible besides); empty: one unnamed output. */
  branches: string[];
  side_effects: boolean;
  initial_config: Schema;
  fields: CatalogueField[];
  config_schema: Schema;
}

/** The schema of a config entry and whether its parent requires it, or null when there is none. */
function entryAt(config: Schema, path: string): { schema: Schema; required: boolean } | null {
  let parent = config;
  const keys = path.split('.');
  for (const [i, key] of keys.entries()) {
    const schema = (parent.properties as Record<string, Schema> | undefined)?.[key];
    if (!schema) return null;
    if (i === keys.length - 1)
      return { schema, required: ((parent.required as string[] | undefined) ?? []).includes(key) };
    parent = schema;
  }
  return null;
}

/** Config entries the form must show: every leaf of the schema's objects (maps are leaves). */
export function configPaths(config: Schema, prefix = ''): string[] {
  return Object.entries((config.properties as Record<string, Schema> | undefined) ?? {}).flatMap(([k, s]) =>
    s.properties ? configPaths(s, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function describeField(d: NodeDefinition, f: FieldUi): CatalogueField {
  const at = entryAt(d.config, f.path);
  if (!at) throw new Error(`node type ${d.type}: field ${f.path} is not in its config schema`);
  const s = at.schema;
  const items = (s.items ?? {}) as Schema;
  const ref = d.refs?.find((r) => r.path === f.path)?.kind;
  const type = (s.type ?? (s.enum ? 'string' : 'object')) as CatalogueField['type'];
  const options = (s.enum ?? items.enum) as string[] | undefined;
  let kind: FieldKind;
  let values: CatalogueField['values'];
  if (ref === 'project') kind = type === 'array' ? 'projects' : 'project';
  else if (ref === 'template') kind = 'template_ref';
  else if (ref === 'export') kind = 'export_ref';
  else if (d.expressions?.includes(f.path)) kind = 'expression';
  else if (d.templates?.includes(f.path)) kind = 'template';
  else if (d.expressionMaps?.includes(f.path) || d.templateMaps?.includes(f.path)) {
    kind = 'map';
    values = d.templateMaps?.includes(f.path) ? 'template' : 'expression';
  } else if (s.enum) kind = 'select';
  else if (type === 'array') kind = items.enum ? 'checkboxes' : 'list';
  else if (type === 'integer' || type === 'number') kind = type;
  else kind = 'text';
  return {
    path: f.path,
    label: f.label,
    kind,
    type,
    required: at.required,
    ...(options ? { options: [...options] } : {}),
    ...(s.default !== undefined ? { default: s.default } : {}),
    ...(typeof s.minimum === 'number' ? { minimum: s.minimum } : {}),
    ...(typeof s.maximum === 'number' ? { maximum: s.maximum } : {}),
    ...(values ? { values } : {}),
    ...(f.help ? { help: f.help } : {}),
  };
}

function describeNode(d: NodeDefinition<NodeType>): CatalogueEntry {
  const missing = configPaths(d.config).filter((p) => !d.fields.some((f) => f.path === p));
  if (missing.length) throw new Error(`node type ${d.type}: config entries without a field: ${missing.join(', ')}`);
  return {
    type: d.type,
    kind: d.kind,
    label: d.label,
    category: d.category,
    category_label: NODE_CATEGORIES[d.category],
    description: d.description,
    inputs: d.kind === 'trigger' ? 0 : 1,
    branches: [...(d.branches ?? [])],
    side_effects: d.sideEffects,
    initial_config: d.initial,
    fields: d.fields.map((f) => describeField(d, f)),
    config_schema: d.config,
  };
}

/** The catalogue GET /workflows/node-types serves, grouped by category in palette order. */
export const NODE_CATALOGUE: readonly CatalogueEntry[] = Object.keys(NODE_CATEGORIES).flatMap((c) =>
  NODE_DEFINITIONS.filter((d) => d.category === c).map(describeNode),
);
