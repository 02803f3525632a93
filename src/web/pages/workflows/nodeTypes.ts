// The node types as the API describes them (GET /workflows/node-types): the palette, the node
// labels and branches on the canvas and the generated config forms all read this catalogue, so a
// node type added on the server appears here without a dashboard change. Fetched once and kept
// for the session (it changes only with the server's version).
import { useMemo } from 'react';
import { useGet } from '../../lib/queries';

// The shapes of the OpenAPI document's WorkflowNodeType (written out until the dashboard reads
// the generated API types).
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

/** One entry of a node's generated form. `path` is dotted within `config`. */
export interface ConfigField {
  path: string;
  label: string;
  kind: FieldKind;
  type: string;
  required: boolean;
  options?: string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  /** For maps: whether values are expressions or templates. */
  values?: 'expression' | 'template';
  help?: string;
}

export interface NodeTypeInfo {
  type: string;
  kind: 'trigger' | 'action';
  label: string;
  category: string;
  category_label: string;
  description: string;
  inputs: number;
  /** Outputs an edge's `when` names (besides `error`); empty: one unnamed output. */
  branches: string[];
  side_effects: boolean;
  /** Config a new node starts with. */
  initial_config: Record<string, unknown>;
  fields: ConfigField[];
}

export interface NodeCatalogue {
  types: readonly NodeTypeInfo[];
  get(type: string): NodeTypeInfo | undefined;
  /** The type's label, or the type itself when the catalogue does not know it. */
  label(type: string): string;
  /** Whether a node of this type starts a run (takes no incoming edges). */
  isTrigger(type: string): boolean;
  /** Named outputs of the type, or undefined when it has one unnamed output. */
  branches(type: string): string[] | undefined;
}

export function catalogueOf(types: readonly NodeTypeInfo[]): NodeCatalogue {
  const byType = new Map(types.map((t) => [t.type, t]));
  return {
    types,
    get: (type) => byType.get(type),
    label: (type) => byType.get(type)?.label ?? type,
    // A type the catalogue lost is still drawn as a trigger when its name says so.
    isTrigger: (type) => (byType.get(type)?.kind ?? (type.startsWith('trigger.') ? 'trigger' : 'action')) === 'trigger',
    branches: (type) => {
      const b = byType.get(type)?.branches;
      return b?.length ? b : undefined;
    },
  };
}

/** The catalogue (empty until it has loaded) and the state of its one request. */
export function useNodeTypes() {
  const q = useGet('/api/v1/workflows/node-types', {}, { staleTime: Infinity, gcTime: Infinity });
  const catalogue = useMemo(() => catalogueOf(q.data ?? []), [q.data]);
  return { catalogue, isPending: q.isPending, error: q.error, refetch: q.refetch };
}
