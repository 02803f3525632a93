// The node types as the API describes them (GET /workflows/node-types): the palette, the node
// labels and branches on the canvas and the generated config forms all read this catalogue, so a
// node type added on the server appears here without a dashboard change. Fetched once and kept
// for the session (it changes only with the server's version).
import { useMemo } from 'react';
import type { Schemas } from '../../lib/client';
import { useGet } from '../../lib/queries';

// The OpenAPI document's WorkflowNodeType, as generated into src/api/types.ts.
export type NodeTypeInfo = Schemas['WorkflowNodeType'];
/** One entry of a node's generated form. `path` is dotted within `config`. */
export type ConfigField = NodeTypeInfo['fields'][number];
export type FieldKind = ConfigField['kind'];

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
