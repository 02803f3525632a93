// The part of a node type's definition the graph validator reads: its config schema, which
// config strings are JSONata expressions or templates (checked on save), which ids it refers to
// (checked against the organization), the outputs it can branch on and whether it changes
// anything outside the run. The definitions themselves are in definitions/ (see definition.ts).

// Document events a `trigger.document` node can listen to: derived from EVENT_TYPES.

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
  /** `config.url` is an outbound target: judged on save (written-out origin, allow-list). */
  outboundUrl?: boolean;
  /** Checks the schema cannot express, on a config that passed it: problems by config path. */
  check?(config: Record<string, unknown>): ConfigProblem[];
}

export interface ConfigProblem {
  /** Dotted path within `config`. */
  path: string;
  message: string;
}

/** Shorthands for the config schemas of the definitions. */
export const obj = (
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  required,
  ...extra,
});
export const id = { type: 'string', minLength: 1, maxLength: 64 };
export const expr = { type: 'string', minLength: 1, maxLength: 4096 };
export const exprMap = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { minLength: 1, maxLength: 100 },
  additionalProperties: expr,
};
