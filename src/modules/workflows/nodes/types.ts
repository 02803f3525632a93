import type { Queryable } from '../../../db/client.js';
import type { Scope } from '../../../lib/scope.js';
import type { DocumentRow } from '../../documents/documents.types.js';
import type { RunRow, StepRow, WorkflowNode } from '../workflows.types.js';

/** What a node sees when it runs. */
export interface NodeContext {
  run: RunRow;
  node: WorkflowNode;
  scope: Scope;
  dryRun: boolean;
  /** 1 for the first attempt. */
  attempt: number;
  /** The step's record so far (a waiting delay, an earlier attempt), if any. */
  previous: StepRow | null;
  /** The run's document as it stands (after earlier steps, simulated in a dry run), or null. */
  document: DocumentRow | null;
  /** Evaluates JSONata expressions over `{document, input, variables, steps, run}`. */
  evaluate(exprs: readonly string[]): Promise<unknown[]>;
  /** Evaluates templated strings (`…{{ expr }}…`). */
  render(templates: readonly string[]): Promise<string[]>;
  now(): Date;
}

/** Changes a step makes outside the run; never called in a dry run. */
export interface StepEffects {
  /** An outbound call, made before the step is committed; its result joins the output. */
  external?: () => Promise<{
    output: Record<string, unknown>;
    error?: { code: string; message: string; retryable: boolean };
  }>;
  /** Database writes in the step's own transaction; may return the document as written. */
  db?: (q: Queryable) => Promise<DocumentRow | null | void>;
  /** Work after the commit (enqueue a flush, dispatch a delivery); failures are swept up later. */
  after?: () => Promise<void>;
}

export interface NodeOutcome {
  /** What the step worked from (resolved config), recorded as the step's input. */
  input?: unknown;
  /** What the step produced (or, in a dry run, would produce). */
  output: Record<string, unknown>;
  /** For branching nodes: the output taken. */
  branch?: string;
  effects?: StepEffects;
  /** The document as it would be after this step (dry run: later steps see the simulated change). */
  simulated?: DocumentRow;
  /** Not done yet: the run waits until then (delay node). */
  waitUntil?: Date;
}

/** A failure of a node; `retryable` failures use the node's retry policy. */
export class StepError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

export type NodeExecutor = (ctx: NodeContext) => Promise<NodeOutcome>;
