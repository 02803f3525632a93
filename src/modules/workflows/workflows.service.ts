// Workflow definitions and runs as the API sees them: tenant-scoped reads and writes, graph
// validation on every save, run creation and cancellation.
import type { Db, Queryable } from '../../db/client.js';
import { errors, type FieldIssue } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { Scope } from '../../lib/scope.js';
import { generateWebhookSecret } from '../webhooks/signature.js';
import type { CheckItem } from './expressions/evaluator.js';
import { triggerOf, validateGraph, type DeferredCheck, type GraphIssue } from './graph/validate.js';
import { runEventData } from './engine/events.js';
import { SPECS } from './nodes/catalogue.js';
import type { RefKind } from './nodes/specs.js';
import type { RunsRepository } from './runs.repository.js';
import type { WorkflowsRepository } from './workflows.repository.js';
import {
  presentRun,
  presentWorkflow,
  type CreateWorkflowInput,
  type Graph,
  type ListRunsQuery,
  type ListWorkflowsQuery,
  type RunRequest,
  type RunRow,
  type TriggerType,
  type UpdateWorkflowInput,
  type WorkflowRow,
} from './workflows.types.js';

export interface WorkflowsServiceDeps {
  db: Db;
  workflows: WorkflowsRepository;
  runs: RunsRepository;
  secretBox: SecretBox;
  /** Queues a run's job (after its row committed). */
  enqueueRun(runId: string): Promise<void>;
  /** Removes a waiting run's job (cancel); best effort. */
  dropRun?(runId: string): Promise<void>;
  /** A workflow's schedule changed (activated, edited, deactivated, deleted). */
  onScheduleChange?(w: WorkflowRow | { id: string; status: 'deleted' }): Promise<void>;
  /** Parses long expressions away from the caller's event loop (the evaluator's processes). */
  checkExpressions?(items: readonly CheckItem[], orgId: string): Promise<(string | null)[]>;
  /** Active scheduled workflows one organization may have per environment. Default 50. */
  maxActiveSchedules?: number;
  /** Why an outbound URL of a node can never be used (allow-lists, SSRF policy), or null. */
  checkUrl?: (nodeType: string, url: string) => string | null;
}

const REF_TABLES: Record<RefKind, 'projects' | 'sheets_exports' | 'templates'> = {
  project: 'projects',
  export: 'sheets_exports',
  template: 'templates',
};
const REF_NAMES: Record<RefKind, string> = { project: 'project', export: 'Sheets export', template: 'template' };
const MAX_VARIABLES_CHARS = 32_768;

function invalid(issues: GraphIssue[], what = 'The workflow graph is invalid'): never {
  const details: FieldIssue[] = issues.map((i) => ({ ...i, in: 'body' }));
  throw errors.validation(
    `${what}: ${issues
      .slice(0, 3)
      .map((i) => `${i.field}${i.node_id ? ` (node ${i.node_id})` : ''} ${i.message}`)
      .join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`,
    details,
  );
}

function triggerColumns(g: Graph): { triggerType: TriggerType | null; triggerConfig: Record<string, unknown> | null } {
  const t = triggerOf(g);
  if (!t) return { triggerType: null, triggerConfig: null };
  return { triggerType: t.type.slice('trigger.'.length) as TriggerType, triggerConfig: t.config };
}

export function createWorkflowsService(deps: WorkflowsServiceDeps) {
  const mustGet = async (scope: Scope, id: string) => {
    const w = await deps.workflows.get(scope, id);
    if (!w) throw errors.notFound('Workflow');
    return w;
  };

  /** Structure, then references to the organization's projects, exports and templates. */
  async function check(
    scope: Scope,
    g: { nodes?: unknown; edges?: unknown },
    runnable: boolean,
    expressions: 'check' | 'skip' = 'check',
  ): Promise<GraphIssue[]> {
    const deferred: DeferredCheck[] = [];
    const issues = await validateGraph(g, {
      runnable,
      expressions,
      checkUrl: deps.checkUrl,
      defer: deps.checkExpressions ? (d) => deferred.push(d) : undefined,
    });
    if (issues.length > 0 || !Array.isArray(g.nodes)) return issues;
    if (deferred.length > 0) {
      const problems = await deps.checkExpressions!(
        deferred.map((d) => ({ text: d.text, template: d.template })),
        scope.orgId,
      );
      deferred.forEach((d, i) => {
        if (problems[i]) issues.push({ field: d.field, node_id: d.node_id, message: problems[i] });
      });
      if (issues.length > 0) return issues;
    }
    const wanted = new Map<RefKind, { id: string; field: string; node: string }[]>();
    (g.nodes as Graph['nodes']).forEach((n, i) => {
      for (const ref of SPECS.get(n.type)?.refs ?? []) {
        const v = ref.path
          .split('.')
          .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], n.config);
        const ids = Array.isArray(v) ? v : v === undefined ? [] : [v];
        ids.forEach((id, k) =>
          wanted.set(ref.kind, [
            ...(wanted.get(ref.kind) ?? []),
            {
              id: String(id),
              node: n.id,
              field: `nodes[${i}].config.${ref.path}${Array.isArray(v) ? `[${k}]` : ''}`,
            },
          ]),
        );
      }
    });
    for (const [kind, refs] of wanted) {
      const found = await deps.workflows.existing(scope, REF_TABLES[kind], [...new Set(refs.map((r) => r.id))]);
      for (const r of refs)
        if (!found.has(r.id))
          issues.push({
            field: r.field,
            node_id: r.node,
            message: `refers to no ${REF_NAMES[kind]} of this organization (${r.id})`,
          });
    }
    return issues;
  }

  /** An organization's active schedules are bounded: each one starts runs with no request at all. */
  async function checkScheduleCap(scope: Scope, id: string | null, status: string, g: Graph, q?: Queryable) {
    if (status !== 'active' || triggerOf(g)?.type !== 'trigger.schedule') return;
    const max = deps.maxActiveSchedules ?? 50;
    if ((await deps.workflows.activeSchedules(scope, id, q)) >= max)
      throw errors.invalidField(
        'status',
        `the organization has ${max} active scheduled workflows, the most it may have; deactivate one first`,
      );
  }

  const checkVariables = (v: Record<string, unknown> | undefined, field: string) => {
    if (v !== undefined && JSON.stringify(v).length > MAX_VARIABLES_CHARS)
      throw errors.invalidField(field, `must be at most ${MAX_VARIABLES_CHARS} characters as JSON`);
  };

  async function withStats(w: WorkflowRow) {
    return presentWorkflow(w);
  }

  return {
    async validate(scope: Scope, g: { nodes?: unknown; edges?: unknown; status?: string }) {
      const issues = await check(scope, g, g.status !== 'draft');
      return { valid: issues.length === 0, issues };
    },

    async create(scope: Scope, input: CreateWorkflowInput, createdBy: string | null) {
      const status = input.status ?? 'draft';
      const issues = await check(scope, input, status === 'active');
      if (issues.length) invalid(issues);
      await checkScheduleCap(scope, null, status, { nodes: input.nodes ?? [], edges: input.edges ?? [] });
      checkVariables(input.variables, 'variables');
      const secret = generateWebhookSecret();
      const graph = { nodes: input.nodes ?? [], edges: input.edges ?? [] };
      const w = await deps.workflows.insert(scope, {
        name: input.name,
        description: input.description ?? null,
        status,
        ...graph,
        settings: input.settings ?? {},
        variables: input.variables ?? {},
        ...triggerColumns(graph),
        secretSealed: deps.secretBox.encrypt(secret),
        createdBy,
      });
      await deps.onScheduleChange?.(w);
      // The signing secret is shown here only (like an API key's).
      return presentWorkflow(w, { signing_secret: secret });
    },

    async list(scope: Scope, q: ListWorkflowsQuery) {
      const { rows, total } = await deps.workflows.list(scope, q);
      return { items: await Promise.all(rows.map(withStats)), total };
    },

    async get(scope: Scope, id: string) {
      return withStats(await mustGet(scope, id));
    },

    async update(scope: Scope, id: string, patch: UpdateWorkflowInput) {
      // An empty update is a no-op: no new version, no validation of the stored graph.
      if (Object.keys(patch).length === 0) {
        const current = await deps.workflows.get(scope, id);
        if (!current) throw errors.notFound('Workflow');
        return presentWorkflow(current);
      }
      const updated = await deps.db.tx(async (q) => {
        const current = await deps.workflows.get(scope, id, q);
        if (!current) throw errors.notFound('Workflow');
        await deps.workflows.getForUpdate(q, id);
        const graph = { nodes: patch.nodes ?? current.nodes, edges: patch.edges ?? current.edges };
        const status = patch.status ?? current.status;
        const issues = await check(scope, graph, status === 'active');
        if (issues.length)
          invalid(
            issues,
            status === 'active' && current.status !== 'active' ? 'The workflow cannot be activated' : undefined,
          );
        await checkScheduleCap(scope, id, status, graph, q);
        return deps.workflows.update(q, id, {
          name: patch.name,
          description: patch.description,
          status: patch.status,
          nodes: patch.nodes,
          edges: patch.edges,
          ...(patch.nodes ? triggerColumns(graph) : {}),
        });
      });
      await deps.onScheduleChange?.(updated);
      return presentWorkflow(updated);
    },

    async remove(scope: Scope, id: string) {
      const w = await deps.workflows.delete(scope, id);
      if (!w) throw errors.notFound('Workflow');
      await deps.onScheduleChange?.({ id, status: 'deleted' });
      return { id, deleted: true };
    },

    /** POST /workflows/{id}/run: a manual run in any status, of the current version. */
    async run(scope: Scope, id: string, req: RunRequest, userId: string | null) {
      const w = await mustGet(scope, id);
      // The saved version's expressions were checked when it was saved: the run request parses none.
      const issues = await check(scope, w, true, 'skip');
      if (issues.length) invalid(issues, 'The workflow cannot run');
      checkVariables(req.variables, 'variables');
      const input = req.input ?? {};
      const documentId = typeof input.document_id === 'string' ? input.document_id : null;
      if (documentId && (await deps.workflows.existing(scope, 'documents', [documentId])).size === 0) {
        throw errors.invalidField('input.document_id', 'refers to no document of this organization');
      }
      const run = await deps.runs.insert(deps.db, {
        workflowId: w.id,
        mode: req.mode ?? 'execute',
        trigger: { type: 'manual', user_id: userId },
        triggerKey: null,
        documentId,
        input,
        variables: req.variables ?? {},
        chain: [],
        createdBy: userId,
      });
      if (!run) throw errors.notFound('Workflow');
      await deps.enqueueRun(run.id);
      return presentRun(run);
    },

    async listRuns(scope: Scope, q: ListRunsQuery) {
      const { rows, total } = await deps.runs.list(scope, q);
      const counts = await deps.runs.stepCounts(rows.map((r) => r.id));
      return { items: rows.map((r) => ({ ...presentRun(r), step_counts: counts.get(r.id) ?? {} })), total };
    },

    async getRun(scope: Scope, runId: string) {
      const run = await deps.runs.get(scope, runId);
      if (!run) throw errors.notFound('Workflow run');
      return presentRun(run, await deps.runs.steps(run.id));
    },

    async cancel(scope: Scope, runId: string) {
      const run = await deps.runs.get(scope, runId);
      if (!run) throw errors.notFound('Workflow run');
      const error = { code: 'CANCELLED', message: 'the run was cancelled' };
      const done: RunRow | null = await deps.runs.finish(deps.db, run.id, 'cancelled', error, ['queued', 'running'], {
        type: 'workflow.failed',
        data: runEventData(run, 'cancelled', undefined, { error }),
      });
      if (!done) throw errors.conflict(`The run has already ended (${run.status})`);
      await deps.dropRun?.(run.id).catch(() => undefined);
      return presentRun(done, await deps.runs.steps(run.id));
    },
  };
}

export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
