// The workflow canvas (React Flow): nodes with their problems and last-run status on them,
// edges with their `when`, dragging, connecting by handles. Everything the canvas does can also
// be done from the side panel and the palette (keyboard and screen readers); on the canvas,
// Tab reaches nodes and edges, Enter selects, arrow keys move, Delete removes.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  applyNodeChanges,
  Background,
  Controls,
  getNodesBounds,
  getViewportForBounds,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  useReactFlow,
  useStore,
  useUpdateNodeInternals,
  type Connection,
  type Edge,
  type Node,
  type NodeChange,
  type NodeProps,
  type EdgeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTheme } from '../../lib/theme';
import { humanize } from '../../lib/format';
import type { NodeCatalogue } from './nodeTypes';
import { edgeId, type Selection, type WorkflowEdge, type WorkflowNode } from './types';

type Pos = { x: number; y: number };

/** A step's named outputs: its branches, and `error` when it continues on errors or already has an error edge. */
function outputsOf(types: NodeCatalogue, node: WorkflowNode | undefined, edges: WorkflowEdge[]): string[] {
  if (!node) return [];
  const error = node.on_error === 'continue' || edges.some((e) => e.source === node.id && e.when === 'error');
  return [...(types.branches(node.type) ?? []), ...(error ? ['error'] : [])];
}
interface NodeData extends Record<string, unknown> {
  node: WorkflowNode;
  /** The type's label from the catalogue. */
  label: string;
  trigger: boolean;
  issues: string[];
  step?: string;
  outs: string[];
}
type WfNode = Node<NodeData, 'wf'>;

/** Layered layout: each node one row below its deepest parent. */
function autoLayout(nodes: WorkflowNode[], edges: WorkflowEdge[]): Map<string, Pos> {
  const depth = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  for (let pass = 0; pass < nodes.length; pass++) {
    let changed = false;
    for (const e of edges) {
      const d = (depth.get(e.source) ?? 0) + 1;
      if (depth.has(e.target) && d > depth.get(e.target)! && d < nodes.length + 1) {
        depth.set(e.target, d);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const rows = new Map<number, string[]>();
  for (const n of nodes) rows.set(depth.get(n.id)!, [...(rows.get(depth.get(n.id)!) ?? []), n.id]);
  const out = new Map<string, Pos>();
  for (const [d, ids] of rows) ids.forEach((id, i) => out.set(id, { x: (i - (ids.length - 1) / 2) * 250, y: d * 150 }));
  return out;
}

const STEP_TONE: Record<string, string> = {
  completed: 'good',
  failed: 'bad',
  running: 'info',
  retrying: 'warn',
  waiting: 'info',
  skipped: 'neutral',
};

const WfNodeView = memo(function WfNodeView({ data, selected }: NodeProps<WfNode>) {
  const { node, label, trigger, issues, step, outs } = data;
  // Handles appear and go with the outputs: React Flow re-measures them for edges to attach.
  const updateInternals = useUpdateNodeInternals();
  const outKey = outs.join(',');
  useEffect(() => updateInternals(node.id), [outKey, node.id, updateInternals]);
  return (
    <div
      className={`wf-node${trigger ? ' is-trigger' : ''}${issues.length ? ' has-issues' : ''}${selected ? ' is-selected' : ''}`}
      data-node-id={node.id}>
      {!trigger ? <Handle type="target" position={Position.Top} /> : null}
      <div className="wf-node-type">
        <span>{label}</span>
        {step ? <span className={`badge badge-${STEP_TONE[step] ?? 'neutral'}`}>{humanize(step)}</span> : null}
      </div>
      <div className="wf-node-name">{node.name || node.id}</div>
      {node.name ? <div className="wf-node-id mono">{node.id}</div> : null}
      {issues.length ? (
        <div className="wf-node-issues" data-testid={`issues-${node.id}`}>
          <span aria-hidden="true">⚠ </span>
          {issues[0]}
          {issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}
        </div>
      ) : null}
      {outs.length ? (
        outs.map((b, i) => (
          <Handle
            key={b}
            id={b}
            type="source"
            position={Position.Bottom}
            className={`wf-handle-${b}`}
            style={{ left: `${((i + 1) / (outs.length + 1)) * 100}%` }}>
            <span className="wf-handle-label">{b}</span>
          </Handle>
        ))
      ) : (
        <Handle type="source" position={Position.Bottom} />
      )}
    </div>
  );
});

const nodeTypes = { wf: WfNodeView };
// Fitting never zooms out past readable: a long graph is panned rather than shrunk to dots.
const FIT = { padding: 0.25, maxZoom: 1.1, minZoom: 0.55 };

/**
 * Brings a newly added step into view: the whole graph when it fits at a readable zoom,
 * otherwise the new step (the rest is a pan away).
 */
function FitOnGrow({ count, newest }: { count: number; newest?: string }) {
  const flow = useReactFlow();
  const width = useStore((st) => st.width);
  const height = useStore((st) => st.height);
  const last = useRef(count);
  useEffect(() => {
    const grew = count > last.current;
    last.current = count;
    if (!grew || !newest) return;
    const t = setTimeout(() => {
      const vp = getViewportForBounds(getNodesBounds(flow.getNodes()), width, height, 0.2, FIT.maxZoom, FIT.padding);
      if (vp.zoom >= FIT.minZoom) void flow.setViewport(vp, { duration: 200 });
      else void flow.fitView({ nodes: [{ id: newest }], minZoom: FIT.minZoom, maxZoom: 0.9, duration: 200 });
    }, 50);
    return () => clearTimeout(t);
  }, [count, newest, flow, width, height]);
  return null;
}

/** A step selected from outside the canvas (the list, a problem) is panned into view if it is off screen. */
function RevealSelected({ id }: { id?: string }) {
  const flow = useReactFlow();
  const width = useStore((st) => st.width);
  const height = useStore((st) => st.height);
  useEffect(() => {
    if (!id) return;
    const n = flow.getInternalNode(id);
    if (!n) return;
    const { x, y, zoom } = flow.getViewport();
    const w = n.measured.width ?? 200;
    const h = n.measured.height ?? 60;
    const left = n.internals.positionAbsolute.x * zoom + x;
    const top = n.internals.positionAbsolute.y * zoom + y;
    if (left >= 0 && top >= 0 && left + w * zoom <= width && top + h * zoom <= height) return;
    void flow.setCenter(n.internals.positionAbsolute.x + w / 2, n.internals.positionAbsolute.y + h / 2, {
      zoom,
      duration: 200,
    });
  }, [id, flow, width, height]);
  return null;
}

export interface GraphEditorProps {
  /** The node types as the API describes them. */
  types: NodeCatalogue;
  storageKey: string;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  issuesByNode: Map<string, string[]>;
  stepStatus: Map<string, string>;
  selection: Selection;
  readOnly: boolean;
  onSelect(s: Selection): void;
  onChange(nodes: WorkflowNode[], edges: WorkflowEdge[]): void;
  /** Where a node added from the palette goes: below the selected node, or below the lowest. */
  placeRef: { current: ((id: string, after?: string) => void) | null };
}

function loadPositions(key: string): Record<string, Pos> {
  try {
    return JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, Pos>;
  } catch {
    return {};
  }
}

export default function GraphEditor(p: GraphEditorProps) {
  const { dark } = useTheme();
  const types = p.types;
  // Positions are a view preference (the API's graph has none): kept per workflow in this browser.
  const positions = useRef<Record<string, Pos>>(loadPositions(p.storageKey));
  const [rfNodes, setRfNodes] = useState<WfNode[]>([]);
  const save = useCallback(() => {
    try {
      localStorage.setItem(p.storageKey, JSON.stringify(positions.current));
    } catch {
      /* storage full or off: positions are optional */
    }
  }, [p.storageKey]);

  useEffect(() => {
    const auto = autoLayout(p.nodes, p.edges);
    setRfNodes((prev) => {
      const old = new Map(prev.map((n) => [n.id, n]));
      return p.nodes.map((n) => {
        const before = old.get(n.id);
        const position = positions.current[n.id] ?? before?.position ?? auto.get(n.id) ?? { x: 0, y: 0 };
        positions.current[n.id] = position;
        const issues = p.issuesByNode.get(n.id) ?? [];
        const step = p.stepStatus.get(n.id);
        return {
          ...(before ?? {}),
          id: n.id,
          type: 'wf' as const,
          position,
          selected: p.selection?.kind === 'node' && p.selection.id === n.id,
          data: {
            node: n,
            label: types.label(n.type),
            trigger: types.isTrigger(n.type),
            issues,
            step,
            outs: outputsOf(types, n, p.edges),
          },
          ariaLabel: `${types.label(n.type)} step ${n.name || n.id}${step ? `, last run ${step}` : ''}${issues.length ? `, ${issues.length} problem${issues.length > 1 ? 's' : ''}: ${issues.join('; ')}` : ''}`,
        };
      });
    });
  }, [p.nodes, p.edges, p.issuesByNode, p.stepStatus, p.selection, types]);

  // The palette asks where to put a new node.
  useEffect(() => {
    p.placeRef.current = (id, after) => {
      const below = after ? positions.current[after] : undefined;
      const lowest = Object.values(positions.current).reduce((m, q) => Math.max(m, q.y), -150);
      positions.current[id] = below
        ? { x: below.x + (Math.random() * 60 - 30), y: below.y + 150 }
        : { x: 0, y: lowest + 150 };
      save();
    };
    return () => {
      p.placeRef.current = null;
    };
  }, [p.placeRef, save]);

  const rfEdges = useMemo<Edge[]>(
    () =>
      p.edges.map((e) => {
        const src = p.nodes.find((n) => n.id === e.source);
        const handles = outputsOf(types, src, p.edges);
        return {
          id: edgeId(e),
          source: e.source,
          target: e.target,
          sourceHandle: e.when && handles.includes(e.when) ? e.when : handles.length ? (handles[0] ?? null) : null,
          label: e.when,
          selected: p.selection?.kind === 'edge' && p.selection.id === edgeId(e),
          markerEnd: { type: MarkerType.ArrowClosed },
          className: e.when ? `wf-edge-${e.when}` : undefined,
          ariaLabel: `Connection from ${e.source} to ${e.target}${e.when ? ` when ${e.when}` : ''}`,
        };
      }),
    [p.edges, p.nodes, p.selection, types],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<WfNode>[]) => {
      setRfNodes((ns) => applyNodeChanges(changes, ns));
      let moved = false;
      for (const c of changes) {
        if (c.type === 'position' && c.position) {
          positions.current[c.id] = c.position;
          moved = true;
        }
        if (c.type === 'select' && c.selected) p.onSelect({ kind: 'node', id: c.id });
      }
      if (moved) save();
      const removed = new Set(changes.filter((c) => c.type === 'remove').map((c) => c.id));
      if (removed.size && !p.readOnly) {
        for (const id of removed) delete positions.current[id];
        save();
        p.onChange(
          p.nodes.filter((n) => !removed.has(n.id)),
          p.edges.filter((e) => !removed.has(e.source) && !removed.has(e.target)),
        );
        p.onSelect(null);
      }
    },
    [p, save],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      for (const c of changes) if (c.type === 'select' && c.selected) p.onSelect({ kind: 'edge', id: c.id });
      const removed = new Set(changes.filter((c) => c.type === 'remove').map((c) => c.id));
      if (removed.size && !p.readOnly) {
        p.onChange(
          p.nodes,
          p.edges.filter((e) => !removed.has(edgeId(e))),
        );
        p.onSelect(null);
      }
    },
    [p],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      if (p.readOnly || !c.source || !c.target || c.source === c.target) return;
      const e: WorkflowEdge = {
        source: c.source,
        target: c.target,
        ...(c.sourceHandle ? { when: c.sourceHandle } : {}),
      };
      if (p.edges.some((x) => edgeId(x) === edgeId(e))) return;
      p.onChange(p.nodes, [...p.edges, e]);
      p.onSelect({ kind: 'edge', id: edgeId(e) });
    },
    [p],
  );

  const isValidConnection = useCallback(
    (c: Connection | Edge) => {
      const target = p.nodes.find((n) => n.id === c.target);
      return !!target && c.source !== c.target && !types.isTrigger(target.type);
    },
    [p.nodes, types],
  );

  return (
    <div className="wf-canvas" data-testid="workflow-canvas">
      <ReactFlow<WfNode, Edge>
        nodes={rfNodes}
        edges={rfEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        isValidConnection={isValidConnection}
        onPaneClick={() => p.onSelect(null)}
        nodesDraggable
        nodesConnectable={!p.readOnly}
        elementsSelectable
        deleteKeyCode={p.readOnly ? null : ['Delete', 'Backspace']}
        colorMode={dark ? 'dark' : 'light'}
        fitView
        fitViewOptions={FIT}
        minZoom={0.2}
        maxZoom={1.75}
        proOptions={{ hideAttribution: true }}
        ariaLabelConfig={{
          'node.a11yDescription.default':
            'Press Enter or Space to select this step; then arrow keys move it and Delete removes it. Its settings open in the panel beside the canvas.',
          'edge.a11yDescription.default': 'Press Enter or Space to select this connection; Delete removes it.',
        }}>
        <FitOnGrow count={rfNodes.length} newest={p.nodes[p.nodes.length - 1]?.id} />
        <RevealSelected id={p.selection?.kind === 'node' ? p.selection.id : undefined} />
        <Background gap={20} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
