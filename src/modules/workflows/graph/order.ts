import type { Graph, WorkflowEdge, WorkflowNode } from '../workflows.types.js';

/**
 * Nodes in the order a run visits them: topological, and among nodes that are ready at the same
 * time, in the order of the `nodes` array (so runs are deterministic and read like the graph).
 * The graph is known to be acyclic (validated on save).
 */
export function executionOrder(g: Graph): WorkflowNode[] {
  const indeg = new Map(g.nodes.map((n) => [n.id, 0]));
  for (const e of g.edges) indeg.set(e.target, (indeg.get(e.target) ?? 0) + 1);
  const pos = new Map(g.nodes.map((n, i) => [n.id, i]));
  const ready = g.nodes.filter((n) => indeg.get(n.id) === 0);
  const out: WorkflowNode[] = [];
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  while (ready.length) {
    ready.sort((a, b) => pos.get(a.id)! - pos.get(b.id)!);
    const n = ready.shift()!;
    out.push(n);
    for (const e of g.edges) {
      if (e.source !== n.id) continue;
      const d = indeg.get(e.target)! - 1;
      indeg.set(e.target, d);
      if (d === 0) ready.push(byId.get(e.target)!);
    }
  }
  return out;
}

/** Edges entering each node. */
export function incomingEdges(g: Graph): Map<string, WorkflowEdge[]> {
  const m = new Map<string, WorkflowEdge[]>(g.nodes.map((n) => [n.id, []]));
  for (const e of g.edges) m.get(e.target)?.push(e);
  return m;
}
