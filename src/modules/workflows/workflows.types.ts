import type { Environment } from '../../lib/scope.js';

export type WorkflowStatus = 'draft' | 'active' | 'inactive';
export const WORKFLOW_STATUSES: readonly WorkflowStatus[] = ['draft', 'active', 'inactive'];
export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];
export type RunMode = 'execute' | 'dry_run';
export type StepStatus = 'running' | 'retrying' | 'waiting' | 'completed' | 'failed' | 'skipped';
/** What a failing node does to its run: the settings' and nodes' `on_error` (route enums and the graph validator use this list). */
export const ON_ERRORS = ['stop', 'continue'] as const;
export type OnError = (typeof ON_ERRORS)[number];

/** Per-node retry policy. */
export interface RetryPolicy {
  /** Attempts in all, first included (1–10). */
  max_tries: number;
  /** Wait before attempt n+1: `delay_ms` (fixed) or `delay_ms × 2^(n-1)` (exponential). Default exponential, 1000 ms. */
  backoff?: { type: 'fixed' | 'exponential'; delay_ms: number };
}

export interface WorkflowNode {
  id: string;
  type: string;
  name?: string;
  config: Record<string, unknown>;
  retry?: RetryPolicy;
  /** Overrides the workflow's `settings.on_error` for this node. */
  on_error?: OnError;
}

export interface WorkflowEdge {
  source: string;
  target: string;
  /** Which output of the source this edge follows: `true`/`false` of a condition, `error` of a failure the run continued past. */
  when?: string;
}

export interface WorkflowSettings {
  /** A run still unfinished this long after it started fails. Default 3600. */
  timeout_seconds?: number;
  /** Runs of this workflow that may be running at once; others wait in the queue. Default 10. */
  max_concurrent_runs?: number;
  /** What a failing node (after its retries) does to the run, unless the node says otherwise. Default stop. */
  on_error?: OnError;
}

export const DEFAULT_SETTINGS: Required<WorkflowSettings> = {
  timeout_seconds: 3600,
  max_concurrent_runs: 10,
  on_error: 'stop',
};

export interface Graph {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

export interface Definition extends Graph {
  settings: WorkflowSettings;
}

export type TriggerType = 'manual' | 'document' | 'schedule';

export interface WorkflowRow {
  id: string;
  org_id: string;
  environment: Environment;
  name: string;
  description: string | null;
  status: WorkflowStatus;
  version: number;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  settings: WorkflowSettings;
  variables: Record<string, unknown>;
  trigger_type: TriggerType | null;
  trigger_config: Record<string, unknown> | null;
  secret_sealed: string;
  /** Why the platform deactivated it (its scheduled runs kept crashing), until it is activated again. */
  paused_reason: string | null;
  paused_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RunTrigger {
  type: TriggerType;
  event_id?: string;
  event_type?: string;
  scheduled_for?: string;
  user_id?: string | null;
}

export interface RunRow {
  id: string;
  org_id: string;
  environment: Environment;
  workflow_id: string;
  workflow_version: number;
  mode: RunMode;
  status: RunStatus;
  trigger: RunTrigger;
  trigger_key: string | null;
  document_id: string | null;
  input: Record<string, unknown>;
  variables: Record<string, unknown>;
  definition: Definition;
  chain: string[];
  error: { code: string; message: string; node_id?: string } | null;
  resume_at: Date | null;
  deadline_at: Date | null;
  /** Expression time used by earlier pickups of the run, ms (its budget spans them). */
  expression_ms: number;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface StepRow {
  run_id: string;
  node_id: string;
  node_type: string;
  position: number;
  status: StepStatus;
  branch: string | null;
  input: unknown;
  output: unknown;
  error: { code: string; message: string; next_attempt_at?: string } | null;
  attempts: number;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

export interface CreateWorkflowInput {
  name: string;
  description?: string;
  nodes?: WorkflowNode[];
  edges?: WorkflowEdge[];
  settings?: WorkflowSettings;
  variables?: Record<string, unknown>;
  status?: WorkflowStatus;
}

export interface UpdateWorkflowInput {
  name?: string;
  description?: string | null;
  nodes?: WorkflowNode[];
  edges?: WorkflowEdge[];
  status?: WorkflowStatus;
}

export interface RunRequest {
  mode?: RunMode;
  input?: Record<string, unknown>;
  variables?: Record<string, unknown>;
}

export interface ListWorkflowsQuery {
  status?: WorkflowStatus;
  search?: string;
  page: number;
  per_page: number;
}

export interface ListRunsQuery {
  status?: RunStatus;
  workflow_id?: string;
  mode?: RunMode;
  page: number;
  per_page: number;
}

export function presentWorkflow(w: WorkflowRow, extra: Record<string, unknown> = {}) {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    status: w.status,
    version: w.version,
    nodes: w.nodes,
    edges: w.edges,
    settings: { ...DEFAULT_SETTINGS, ...w.settings },
    variables: w.variables,
    trigger: w.trigger_type ? { type: w.trigger_type, ...(w.trigger_config ?? {}) } : null,
    paused: w.paused_reason ? { reason: w.paused_reason, at: w.paused_at } : null,
    environment: w.environment,
    created_by: w.created_by,
    created_at: w.created_at,
    updated_at: w.updated_at,
    ...extra,
  };
}

export function presentStep(s: StepRow) {
  return {
    node_id: s.node_id,
    type: s.node_type,
    position: s.position,
    status: s.status,
    branch: s.branch,
    attempts: s.attempts,
    input: s.input ?? null,
    output: s.output ?? null,
    error: s.error,
    started_at: s.started_at,
    finished_at: s.finished_at,
    duration_ms: s.duration_ms,
  };
}

export function presentRun(r: RunRow, steps?: StepRow[]) {
  const durationMs = r.started_at && r.finished_at ? r.finished_at.getTime() - r.started_at.getTime() : null;
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    workflow_version: r.workflow_version,
    mode: r.mode,
    status: r.status,
    trigger: r.trigger,
    document_id: r.document_id,
    input: r.input,
    variables: r.variables,
    error: r.error,
    resume_at: r.resume_at,
    deadline_at: r.deadline_at,
    queued_at: r.queued_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    duration_ms: durationMs,
    created_by: r.created_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
    ...(steps ? { steps: steps.map(presentStep) } : {}),
  };
}
