// What one node type is, in one place: the checks a saved graph gets (its spec), how the
// dashboard presents it (label, category, help and a form field per config entry) and what
// runs it (its executor). The catalogue (catalogue.ts) lists every definition; the validator,
// the engine's executor table and GET /workflows/node-types all derive from that list.
import type { DocumentNodeDeps } from './document-nodes.js';
import type { OutboundNodeDeps } from './outbound-nodes.js';
import type { NodeSpec } from './specs.js';
import type { NodeExecutor } from './types.js';

/** What executors may be built from (the module wires them in index.ts). */
export interface NodeDeps {
  documents: DocumentNodeDeps;
  outbound: OutboundNodeDeps;
}

/** Palette groups, in the order the dashboard shows them. */
export const NODE_CATEGORIES = {
  trigger: 'Triggers',
  flow: 'Flow',
  document: 'Document',
  outbound: 'Other systems',
} as const;
export type NodeCategory = keyof typeof NODE_CATEGORIES;

/**
 * How the form shows one config entry. Its input kind, options, limits, default and whether it
 * is required are read from the config schema and the spec (see catalogue.ts), not repeated here.
 */
export interface FieldUi {
  /** Dotted path within `config`. */
  path: string;
  label: string;
  help?: string;
}

export interface NodeDefinition<T extends string = string> extends NodeSpec {
  type: T;
  label: string;
  category: NodeCategory;
  /** One sentence: what a step of this type does. */
  description: string;
  /** Every config entry, in form order. */
  fields: readonly FieldUi[];
  /** Config a new step starts with (valid where the type allows it). */
  initial: Record<string, unknown>;
  executor(deps: NodeDeps): NodeExecutor;
}

/** Keeps the type's name as a literal, so the catalogue can derive the NodeType union from it. */
export const defineNode = <const T extends string>(d: NodeDefinition<T>): NodeDefinition<T> => d;

export const EXPRESSION_HELP = 'A JSONata expression over document, input, variables, steps and run.';
export const TEMPLATE_HELP = 'Text with {{ expression }} parts.';
