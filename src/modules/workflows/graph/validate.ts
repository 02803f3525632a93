// Validation of a workflow graph. Every problem names where it is: `field` is the JSON path
// (`nodes[2].config.expression`, `edges[0].target`) and `node_id` the node concerned, so a
// client can point at the node on a canvas. Two levels: any saved graph must be well formed
// (known types, valid config, edges between existing nodes, acyclic); a graph that is activated
// or run must also have exactly one trigger from which every node can be reached.
import { Ajv, type ErrorObject } from 'ajv';
import {
  expressionProblem,
  INLINE_CHECK_MAX,
  MAX_GRAPH_EXPRESSION_CHARS,
  templateProblem,
} from '../expressions/compile.js';
import { NODE_TYPES, SPECS } from '../nodes/catalogue.js';
import type { NodeSpec } from '../nodes/specs.js';
import { ON_ERRORS, type Graph, type WorkflowEdge, type WorkflowNode } from '../workflows.types.js';

export interface GraphIssue {
  field: string;
  message: string;
  node_id?: string;
}

export const MAX_NODES = 100;
export const MAX_EDGES = 300;
const NODE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const NODE_KEYS = new Set(['id', 'type', 'name', 'config', 'retry', 'on_error']);
const EDGE_KEYS = new Set(['source', 'target', 'when']);

/** "trigger.manual, trigger.document or trigger.schedule" */
const TRIGGER_TYPES = NODE_TYPES.filter((t) => SPECS.get(t)?.kind === 'trigger')
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

const ajv = new Ajv({ allErrors: true, coerceTypes: false, strict: false });
const configValidators = new Map([...SPECS.values()].map((s) => [s.type, ajv.compile(s.config)]));
const retryValidator = ajv.compile({
  type: 'object',
  additionalProperties: false,
  required: ['max_tries'],
  properties: {
    max_tries: { type: 'integer', minimum: 1, maximum: 10 },
    backoff: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'delay_ms'],
      properties: {
        type: { enum: ['fixed', 'exponential'] },
        delay_ms: { type: 'integer', minimum: 0, maximum: 3_600_000 },
      },
    },
  },
});

function ajvIssues(errs: ErrorObject[] | null | undefined, base: string, nodeId?: string): GraphIssue[] {
  return (errs ?? [])
    .filter((e) => !['if', 'anyOf', 'oneOf'].includes(e.keyword))
    .map((e) => {
      const p = e.params as {
        missingProperty?: string;
        additionalProperty?: string;
        allowedValues?: unknown[];
        limit?: number;
      };
      const rel = e.instancePath
        .replace(/^\//, '')
        .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
        .replace(/\//g, '.');
      const leaf = p.missingProperty ?? p.additionalProperty;
      const field = [base, rel, leaf].filter(Boolean).join('.').replace(/\.\[/g, '[');
      let message = e.message ?? 'is invalid';
      if (e.keyword === 'required') message = 'is required';
      else if (e.keyword === 'additionalProperties') message = 'is not an accepted field';
      else if (e.keyword === 'enum') message = `must be one of ${(p.allowedValues ?? []).map(String).join(', ')}`;
      else if (e.keyword === 'minProperties' && p.limit === 1) message = 'must set at least one entry';
      else if (e.keyword === 'maxProperties' && p.limit === 1) message = 'must set only one entry';
      return { field, message, ...(nodeId ? { node_id: nodeId } : {}) };
    });
}

const at = (config: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), config);

/** An expression or template whose syntax check was left to the caller (see ValidateOptions). */
export interface DeferredCheck {
  field: string;
  node_id: string;
  text: string;
  template: boolean;
}

/** Syntax of the expressions and templates a node's config holds. */
async function expressionIssues(
  spec: NodeSpec,
  config: Record<string, unknown>,
  base: string,
  nodeId: string,
  opts: ValidateOptions,
  total: { chars: number },
): Promise<GraphIssue[]> {
  const parse: { field: string; value: string; template: boolean }[] = [];
  const check = (path: string, value: unknown, template: boolean) => {
    if (typeof value !== 'string') return;
    total.chars += value.length;
    // Past the graph's bound nothing more is parsed (the bound is reported once, below).
    if (opts.expressions === 'skip' || total.chars > MAX_GRAPH_EXPRESSION_CHARS) return;
    const field = `${base}.${path}`;
    if (opts.defer && value.length > INLINE_CHECK_MAX) {
      opts.defer({ field, node_id: nodeId, text: value, template });
      return;
    }
    parse.push({ field, value, template });
  };
  const eachOf = (path: string, fn: (k: string, v: unknown) => void) => {
    const m = at(config, path);
    if (m && typeof m === 'object' && !Array.isArray(m)) for (const [k, v] of Object.entries(m)) fn(k, v);
  };
  for (const p of spec.expressions ?? []) check(p, at(config, p), false);
  for (const p of spec.templates ?? []) check(p, at(config, p), true);
  for (const p of spec.expressionMaps ?? []) eachOf(p, (k, v) => check(`${p}.${k}`, v, false));
  for (const p of spec.templateMaps ?? []) eachOf(p, (k, v) => check(`${p}.${k}`, v, true));
  const out: GraphIssue[] = [];
  for (const e of parse) {
    const p = await (e.template ? templateProblem(e.value) : expressionProblem(e.value));
    if (p) out.push({ field: e.field, message: p, node_id: nodeId });
  }
  return out;
}

/** Checks of a node type beyond its schema (its definition's `check`). */
function semanticIssues(spec: NodeSpec, n: WorkflowNode, base: string): GraphIssue[] {
  return (spec.check?.(n.config) ?? []).map((p) => ({ field: `${base}.${p.path}`, message: p.message, node_id: n.id }));
}

/** Finds one cycle (as node ids, first repeated last) among the valid edges, or null. */
function findCycle(ids: string[], edges: WorkflowEdge[]): string[] | null {
  const out = new Map<string, string[]>(ids.map((i) => [i, []]));
  for (const e of edges) out.get(e.source)?.push(e.target);
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (v: string): string[] | null => {
    state.set(v, 1);
    stack.push(v);
    for (const w of out.get(v) ?? []) {
      if (state.get(w) === 1) return [...stack.slice(stack.indexOf(w)), w];
      if (!state.has(w)) {
        const c = visit(w);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(v, 2);
    return null;
  };
  for (const v of ids) {
    if (state.has(v)) continue;
    const c = visit(v);
    if (c) return c;
  }
  return null;
}

export interface ValidateOptions {
  /** Also require exactly one trigger and every node reachable from it (activating, running). */
  runnable: boolean;
  /**
   * `skip`: expression syntax is not checked (a saved version, checked when it was saved, about
   * to run). Default: checked.
   */
  expressions?: 'check' | 'skip';
  /** Receives expressions longer than INLINE_CHECK_MAX instead of parsing them here. */
  defer?: (d: DeferredCheck) => void;
  /** Why an outbound URL of a node type can never be used, or null (refused on save, as webhooks are). */
  checkUrl?: (nodeType: string, url: string) => string | null;
}

// Scheme and host written out and closed by /, ? or #: what must precede any {{ … }}.
const LITERAL_ORIGIN = /^https?:\/\/[^/?#{}]+[/?#]/i;

/**
 * The outbound URL of a node, judged on save: its scheme and host must be written out (a
 * template may fill the path and query, never the host, so a document cannot pick the target)
 * and the URL, with each {{ … }} as a placeholder, must pass the node's allow-list.
 */
function urlIssues(spec: NodeSpec, n: WorkflowNode, base: string, checkUrl: ValidateOptions['checkUrl']): GraphIssue[] {
  const url = n.config.url;
  if (!spec.outboundUrl || typeof url !== 'string') return [];
  const at = url.indexOf('{{');
  if (at !== -1 && !LITERAL_ORIGIN.test(url.slice(0, at)))
    return [
      {
        field: `${base}.url`,
        message: 'must write out its scheme and host (http(s)://host/…); templates may fill only the path and query',
        node_id: n.id,
      },
    ];
  const bad = checkUrl?.(n.type, url.replace(/\{\{[\s\S]*?\}\}/g, 'x'));
  return bad ? [{ field: `${base}.url`, message: bad, node_id: n.id }] : [];
}

/** Returns every problem of the graph; an empty list means valid. */
export async function validateGraph(
  input: { nodes?: unknown; edges?: unknown },
  opts: ValidateOptions,
): Promise<GraphIssue[]> {
  const issues: GraphIssue[] = [];
  const rawNodes = input.nodes ?? [];
  const rawEdges = input.edges ?? [];
  if (!Array.isArray(rawNodes)) return [{ field: 'nodes', message: 'must be an array' }];
  if (!Array.isArray(rawEdges)) return [{ field: 'edges', message: 'must be an array' }];
  if (rawNodes.length > MAX_NODES) return [{ field: 'nodes', message: `must have at most ${MAX_NODES} nodes` }];
  if (rawEdges.length > MAX_EDGES) return [{ field: 'edges', message: `must have at most ${MAX_EDGES} edges` }];

  const nodes = new Map<string, WorkflowNode>();
  const triggers: { node: WorkflowNode; index: number }[] = [];
  const total = { chars: 0 };
  // A loop, not forEach: the expression checks are awaited (JSONata loads on first use).
  for (const [i, raw] of (rawNodes as unknown[]).entries()) {
    const base = `nodes[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      issues.push({ field: base, message: 'must be an object' });
      continue;
    }
    const n = raw as Record<string, unknown>;
    const nodeId = typeof n.id === 'string' ? n.id : undefined;
    const tag = nodeId ? { node_id: nodeId } : {};
    for (const k of Object.keys(n))
      if (!NODE_KEYS.has(k)) issues.push({ field: `${base}.${k}`, message: 'is not an accepted field', ...tag });
    if (typeof n.id !== 'string') issues.push({ field: `${base}.id`, message: 'is required (a string)' });
    else if (!NODE_ID.test(n.id))
      issues.push({
        field: `${base}.id`,
        message: 'must start with a letter and have at most 64 letters, digits, _ or -',
        ...tag,
      });
    else if (nodes.has(n.id))
      issues.push({ field: `${base}.id`, message: `duplicates the id of another node`, ...tag });
    if (n.name !== undefined && (typeof n.name !== 'string' || n.name.length > 200))
      issues.push({ field: `${base}.name`, message: 'must be a string of at most 200 characters', ...tag });
    if (n.on_error !== undefined && !(ON_ERRORS as readonly unknown[]).includes(n.on_error))
      issues.push({ field: `${base}.on_error`, message: `must be one of ${ON_ERRORS.join(', ')}`, ...tag });
    if (n.retry !== undefined && !retryValidator(n.retry))
      issues.push(...ajvIssues(retryValidator.errors, `${base}.retry`, nodeId));
    const spec = typeof n.type === 'string' ? SPECS.get(n.type) : undefined;
    if (!spec) {
      issues.push({
        field: `${base}.type`,
        message:
          typeof n.type === 'string'
            ? `is not a known node type (known: ${NODE_TYPES.join(', ')})`
            : 'is required (a string)',
        ...tag,
      });
    }
    const config = n.config === undefined ? {} : n.config;
    if (!config || typeof config !== 'object' || Array.isArray(config)) {
      issues.push({ field: `${base}.config`, message: 'must be an object', ...tag });
    } else if (spec) {
      const v = configValidators.get(spec.type)!;
      if (!v(config)) issues.push(...ajvIssues(v.errors, `${base}.config`, nodeId));
      else if (nodeId) {
        issues.push(
          ...(await expressionIssues(spec, config as Record<string, unknown>, `${base}.config`, nodeId, opts, total)),
        );
        const typed = { ...(n as unknown as WorkflowNode), config: config as Record<string, unknown> };
        issues.push(...semanticIssues(spec, typed, `${base}.config`));
        issues.push(...urlIssues(spec, typed, `${base}.config`, opts.checkUrl));
      }
    }
    if (nodeId && NODE_ID.test(nodeId) && !nodes.has(nodeId)) {
      const node = { ...(n as unknown as WorkflowNode), config: (config ?? {}) as Record<string, unknown> };
      nodes.set(nodeId, node);
      if (spec?.kind === 'trigger') triggers.push({ node, index: i });
    }
  }

  if (total.chars > MAX_GRAPH_EXPRESSION_CHARS)
    issues.push({
      field: 'nodes',
      message: `holds ${total.chars} characters of expressions and templates; a workflow may hold at most ${MAX_GRAPH_EXPRESSION_CHARS}`,
    });

  const good: WorkflowEdge[] = [];
  const seen = new Set<string>();
  rawEdges.forEach((raw: unknown, j) => {
    const base = `edges[${j}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      issues.push({ field: base, message: 'must be an object' });
      return;
    }
    const e = raw as Record<string, unknown>;
    for (const k of Object.keys(e))
      if (!EDGE_KEYS.has(k)) issues.push({ field: `${base}.${k}`, message: 'is not an accepted field' });
    let ok = true;
    for (const end of ['source', 'target'] as const) {
      const v = e[end];
      if (typeof v !== 'string') {
        issues.push({ field: `${base}.${end}`, message: 'is required (a node id)' });
        ok = false;
      } else if (!nodes.has(v)) {
        issues.push({
          field: `${base}.${end}`,
          message: `refers to no node (no node has the id "${v.slice(0, 64)}")`,
          node_id: v.slice(0, 64),
        });
        ok = false;
      }
    }
    if (!ok) return;
    const source = nodes.get(e.source as string)!;
    const target = nodes.get(e.target as string)!;
    if (source.id === target.id) {
      issues.push({ field: base, message: 'connects a node to itself', node_id: source.id });
      return;
    }
    if (SPECS.get(target.type)?.kind === 'trigger') {
      issues.push({ field: `${base}.target`, message: 'a trigger cannot have incoming edges', node_id: target.id });
      return;
    }
    const branches = SPECS.get(source.type)?.branches;
    if (e.when !== undefined) {
      const allowed = [...(branches ?? []), 'error'];
      if (typeof e.when !== 'string' || !allowed.includes(e.when)) {
        issues.push({
          field: `${base}.when`,
          message: `must be one of ${allowed.join(', ')} for a ${source.type} node`,
          node_id: source.id,
        });
        return;
      }
    } else if (branches) {
      issues.push({
        field: `${base}.when`,
        message: `is required on edges leaving a ${source.type} node (one of ${[...branches, 'error'].join(', ')})`,
        node_id: source.id,
      });
      return;
    }
    const key = `${source.id}\u0000${target.id}\u0000${String(e.when ?? '')}`;
    if (seen.has(key)) {
      issues.push({ field: base, message: 'duplicates another edge', node_id: source.id });
      return;
    }
    seen.add(key);
    good.push({ source: source.id, target: target.id, ...(e.when !== undefined ? { when: e.when as string } : {}) });
  });

  const cycle = findCycle([...nodes.keys()], good);
  if (cycle) {
    const [from, to] = [cycle[cycle.length - 2], cycle[cycle.length - 1]];
    const j = (rawEdges as Record<string, unknown>[]).findIndex((e) => e && e.source === from && e.target === to);
    issues.push({
      field: `edges[${j}]`,
      message: `closes a cycle: ${cycle.join(' → ')} (workflows must be acyclic)`,
      node_id: to,
    });
  }

  if (opts.runnable) {
    if (triggers.length === 0)
      issues.push({
        field: 'nodes',
        message: `needs exactly one trigger node (${TRIGGER_TYPES}); it has none`,
      });
    for (const t of triggers.slice(1))
      issues.push({
        field: `nodes[${t.index}].type`,
        message: `is a second trigger; a workflow has exactly one (the first is "${triggers[0].node.id}")`,
        node_id: t.node.id,
      });
    if (triggers.length === 1 && !cycle) {
      const reach = new Set([triggers[0].node.id]);
      const todo = [triggers[0].node.id];
      while (todo.length) {
        const v = todo.pop()!;
        for (const e of good)
          if (e.source === v && !reach.has(e.target)) {
            reach.add(e.target);
            todo.push(e.target);
          }
      }
      rawNodes.forEach((n: unknown, i) => {
        const nid = (n as { id?: unknown })?.id;
        if (
          typeof nid === 'string' &&
          nodes.has(nid) &&
          !reach.has(nid) &&
          SPECS.get(nodes.get(nid)!.type)?.kind !== 'trigger'
        ) {
          issues.push({
            field: `nodes[${i}]`,
            message: `is not reachable from the trigger "${triggers[0].node.id}"`,
            node_id: nid,
          });
        }
      });
    }
  }
  return issues;
}

/** The graph's trigger node, if it has one (the first when it has several). */
export function triggerOf(g: Graph): WorkflowNode | undefined {
  return g.nodes.find((n) => SPECS.get(n.type)?.kind === 'trigger');
}
