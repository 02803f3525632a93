// Runs a workflow run forward from wherever it stands. Every step is committed before the next
// starts (its record, its event and — in execute mode — its database effects in one
// transaction), so a run interrupted anywhere is resumed by calling `advance` again: steps
// already final are read back, the first unfinished one runs again. Outbound calls cannot join a
// transaction; they carry a request id that is the same on every attempt (see outbound-nodes).
import type { Db, Queryable } from '../../../db/client.js';
import type { Logger } from '../../../lib/logger.js';
import { newId } from '../../../lib/ids.js';
import { presentDocument, type DocumentRow } from '../../documents/documents.types.js';
import type { WorkflowDocuments } from '../documents.port.js';
import { ExpressionError, type ExpressionEvaluator } from '../expressions/evaluator.js';
import { isTemplated, templateToExpression } from '../expressions/compile.js';
import { executionOrder, incomingEdges } from '../graph/order.js';
import { SPECS, type NodeType } from '../nodes/catalogue.js';
import { StepError, type NodeContext, type NodeExecutor, type NodeOutcome } from '../nodes/types.js';
import type { RunsRepository, StepRecord } from '../runs.repository.js';
import {
  DEFAULT_SETTINGS,
  type RunRow,
  type StepRow,
  type StepStatus,
  type WorkflowEdge,
  type WorkflowNode,
} from '../workflows.types.js';
import { runEventData } from './events.js';

export interface EngineDeps {
  db: Db;
  runs: RunsRepository;
  documents: Pick<WorkflowDocuments, 'get'>;
  evaluator: ExpressionEvaluator;
  /** One executor per node type (nodes/catalogue.ts builds it from the definitions). */
  executors: Record<NodeType, NodeExecutor>;
  logger: Logger;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
  /** Retry waits up to this long happen in the job; longer ones park the run. Default 2000 ms. */
  inlineRetryMaxMs?: number;
  /** How long a run that found no free slot waits before trying again, ms. Default 1000. */
  slotWaitMs?: number;
  /** Expression time one run may use in all (waiting for an evaluator included), ms. Default 10000. */
  expressionBudgetMs?: number;
  /**
   * A run that has held its worker slot this long yields it at the next step boundary (its job
   * goes to the back of the queue), so long runs take turns with other work. Default 10000 ms.
   */
  sliceMs?: number;
  /** Running runs one organization may have at once (admission waits past it). Default 20. */
  maxRunningPerOrg?: number;
}

/** Evaluator crashes a step survives (a fresh process each time) before it fails for good. */
export const MAX_EVALUATOR_CRASHES = 2;

export type AdvanceResult =
  { kind: 'done'; status: RunRow['status'] } | { kind: 'wait'; until: Date } | { kind: 'gone' };

const FINAL: readonly StepStatus[] = ['completed', 'failed', 'skipped'];

type NodeResult =
  | {
      kind: 'ok';
      status: 'completed' | 'failed';
      output: unknown;
      branch: string | null;
      document?: DocumentRow | null;
      /** The step's commit also completed the run. */
      ended: boolean;
      /** The step's failure ended the run. */
      fatal?: boolean;
    }
  | { kind: 'wait'; until: Date }
  | { kind: 'stopped' };

// Control flow inside the runner only (a cancelled or timed-out run stops its step loop); never leaves it.
class RunStopped extends Error {
  override name = 'RunStopped';
}

/** A failure that ends the run whatever the node's `on_error` says (its expression budget is spent). */
class RunFatal extends StepError {
  override name = 'RunFatal';
}

export function createRunner(deps: EngineDeps) {
  // Looked up on every call (not captured): a test that fakes Date fakes it here too.
  const clock = () => (deps.now ? deps.now() : Date.now());
  const inlineMax = deps.inlineRetryMaxMs ?? 2000;
  const budgetMs = deps.expressionBudgetMs ?? 10_000;
  const sliceMs = deps.sliceMs ?? 10_000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function failRun(run: RunRow, code: string, message: string, nodeId?: string): Promise<AdvanceResult> {
    const error = { code, message, ...(nodeId ? { node_id: nodeId } : {}) };
    await deps.runs.finish(deps.db, run.id, 'failed', error, ['queued', 'running'], {
      type: 'workflow.failed',
      data: runEventData(run, 'failed', undefined, { error }),
    });
    return { kind: 'done', status: 'failed' };
  }

  /** Tries queued → running: the run, or null when the workflow has no free slot. */
  const startRun = (q: Queryable, run: RunRow) => {
    const settings = { ...DEFAULT_SETTINGS, ...run.definition.settings };
    const event = { type: 'workflow.started' as const, data: runEventData(run, 'running') };
    return deps.runs.start(q, run, settings.max_concurrent_runs, settings.timeout_seconds, event);
  };

  // The organization cap is checked against a count this process keeps per organization: read
  // from the database at most once a second, counted up by this process's admissions meanwhile,
  // and read again before any refusal (a refusal always rests on a count at most 100 ms old). An
  // exact count in the admission statement cost a third of a run's CPU on PGlite (its partial
  // index keeps every finished run's entry until a vacuum). Processes admitting at the same
  // moment may overshoot the cap briefly.
  interface OrgCount {
    /** Running runs: the database's count at the last read plus this process's admissions since. */
    n: number;
    at: number;
    /** Admissions that passed the check and are not committed yet (a read cannot see them). */
    pending: number;
    reading: Promise<void> | null;
  }
  const orgCounts = new Map<string, OrgCount>();
  const maxPerOrg = deps.maxRunningPerOrg ?? 20;
  /** Takes a slot of the organization's, or says it has none free; `release` after the admission attempt. */
  // `q`: the caller's connection (inside an admission transaction a second connection from the
  // pool could be the one it waits for: every connection held by an admission waiting on another).
  async function orgFull(q: Queryable, orgId: string): Promise<boolean> {
    let c = orgCounts.get(orgId);
    if (!c) {
      if (orgCounts.size > 10_000) orgCounts.clear();
      c = { n: 0, at: -Infinity, pending: 0, reading: null };
      orgCounts.set(orgId, c);
    }
    const entry = c;
    const age = clock() - entry.at;
    if (age > 1000 || (entry.n >= maxPerOrg && age > 100)) {
      // One read at a time per organization; concurrent callers wait for it.
      entry.reading ??= deps.runs
        .runningInOrg(orgId, q)
        .then((n) => {
          entry.n = n + entry.pending;
          entry.at = clock();
        })
        .finally(() => {
          entry.reading = null;
        });
      await entry.reading;
    }
    if (entry.n >= maxPerOrg) return true;
    entry.n++;
    entry.pending++;
    return false;
  }
  const release = (orgId: string) => {
    const c = orgCounts.get(orgId);
    if (c && c.pending > 0) c.pending--;
  };

  /**
   * The run and its steps, and for a queued run its admission. PostgreSQL: the read locks the
   * workflow's row, so admissions of one workflow serialize on it (two cannot both take the last
   * slot), and the admission joins that transaction. PGlite has one connection: its statements
   * never interleave, so neither needs a transaction.
   */
  async function load(
    runId: string,
  ): Promise<{ loaded: { run: RunRow; steps: StepRow[] } | null; started: RunRow | null }> {
    if (deps.db.kind === 'pglite') {
      const loaded = await deps.runs.getWithSteps(runId);
      if (loaded?.run.status !== 'queued' || (await orgFull(deps.db, loaded.run.org_id)))
        return { loaded, started: null };
      try {
        return { loaded, started: await startRun(deps.db, loaded.run) };
      } finally {
        release(loaded.run.org_id);
      }
    }
    let taken: string | null = null;
    try {
      return await deps.db.tx(async (q) => {
        const loaded = await deps.runs.getWithSteps(runId, q, { lockWorkflow: true });
        if (loaded?.run.status !== 'queued' || (await orgFull(q, loaded.run.org_id))) return { loaded, started: null };
        taken = loaded.run.org_id;
        return { loaded, started: await startRun(q, loaded.run) };
      });
    } finally {
      // After the commit: from now on a read of the count sees this admission.
      if (taken) release(taken);
    }
  }

  /** After an admission attempt of a queued run: the running run, or what to do instead. */
  async function admitted(run: RunRow, started: RunRow | null): Promise<RunRow | AdvanceResult> {
    if (started) return started;
    const now = await deps.runs.getById(run.id);
    if (!now) return { kind: 'gone' };
    if (now.status !== 'queued') return now.status === 'running' ? now : { kind: 'done', status: now.status };
    // Every slot is taken: wait and try again (jitter spreads the retries of many waiting runs).
    const until = new Date(clock() + (deps.slotWaitMs ?? 1000) * (0.75 + Math.random() / 2));
    await deps.runs.touch(deps.db, run.id, until);
    return { kind: 'wait', until };
  }

  async function advance(runId: string): Promise<AdvanceResult> {
    const { loaded, started } = await load(runId);
    if (!loaded) return { kind: 'gone' };
    let run = loaded.run;
    if (run.status !== 'queued' && run.status !== 'running') return { kind: 'done', status: run.status };
    if (run.status === 'queued') {
      const a = await admitted(run, started);
      if ('kind' in a) return a;
      run = a;
    }
    const r = run;
    if (r.deadline_at && clock() > r.deadline_at.getTime())
      return failRun(
        r,
        'RUN_TIMEOUT',
        `the run exceeded its timeout of ${r.definition.settings.timeout_seconds ?? DEFAULT_SETTINGS.timeout_seconds} s`,
      );
    const scope = { orgId: r.org_id, environment: r.environment };
    const settings = { ...DEFAULT_SETTINGS, ...r.definition.settings };
    // A run just admitted has no steps yet; one picked up again has them from the first read.
    const steps = new Map((run === loaded.run ? loaded.steps : []).map((s) => [s.node_id, s]));
    let position = Math.max(0, ...[...steps.values()].map((s) => s.position + 1));
    let document = r.document_id ? await deps.documents.get(scope, r.document_id) : null;
    const outputs: Record<string, unknown> = {};
    const status = new Map<string, StepStatus>();
    const branch = new Map<string, string | null>();
    const incoming = incomingEdges(r.definition);

    const isLive = (e: WorkflowEdge): boolean => {
      const s = status.get(e.source);
      if (s === 'completed') return e.when === undefined || e.when === branch.get(e.source);
      if (s === 'failed')
        return (
          e.when === 'error' ||
          (e.when === undefined && !SPECS.get(r.definition.nodes.find((n) => n.id === e.source)!.type)?.branches)
        );
      return false;
    };

    const expressionInput = () => ({
      document: document ? presentDocument(document) : null,
      input: r.input,
      variables: r.variables,
      steps: outputs,
      run: { id: r.id, workflow_id: r.workflow_id, mode: r.mode, trigger: r.trigger },
    });

    // Expression time this run has used: what earlier pickups recorded, plus this one's.
    const spent = { ms: r.expression_ms ?? 0 };
    const pause = async (until: Date): Promise<AdvanceResult> => {
      const used = Math.round(spent.ms - (r.expression_ms ?? 0));
      if (used > 0) await deps.runs.addExpressionMs(deps.db, r.id, used);
      return { kind: 'wait', until };
    };
    const sliceEnds = clock() + sliceMs;
    const order = executionOrder(r.definition);
    // The last node's commit also completes the run (one statement instead of two), unless that
    // step fails the run or the run must wait.
    const last = order[order.length - 1];
    const ending = () => ({
      status: 'completed' as const,
      event: { id: newId('evt'), type: 'workflow.completed' as const, data: runEventData(r, 'completed') },
    });
    let ended = false;
    for (const node of order) {
      const prev = steps.get(node.id) ?? null;
      if (prev && FINAL.includes(prev.status)) {
        status.set(node.id, prev.status);
        branch.set(node.id, prev.branch);
        if (prev.status !== 'skipped') outputs[node.id] = prev.output;
        continue;
      }
      const isTrigger = SPECS.get(node.type)?.kind === 'trigger';
      if (!isTrigger && !(incoming.get(node.id) ?? []).some(isLive)) {
        const ok = await deps.runs.commitStep(
          deps.db,
          record(r, node, position++, 'skipped', { attempts: 0, endsRun: node === last ? ending() : null }),
        );
        if (!ok) return settled(r.id);
        status.set(node.id, 'skipped');
        ended = node === last;
        continue;
      }
      if (
        prev?.status === 'retrying' &&
        prev.error?.next_attempt_at &&
        Date.parse(prev.error.next_attempt_at) > clock()
      ) {
        return pause(capped(r, new Date(prev.error.next_attempt_at)));
      }
      // Long runs take turns: past its slice the run goes to the back of the queue (every step
      // so far is committed, so it resumes here).
      if (clock() > sliceEnds && status.size > 0 && !ended) return pause(new Date(clock()));
      const pos = prev?.position ?? position++;
      const res = await runNode(r, node, prev, pos, {
        document: () => document,
        expressionInput,
        scope,
        settings,
        ending: node === last ? ending : null,
        spent,
      });
      if (res.kind === 'stopped') return settled(r.id);
      if (res.kind === 'wait') return pause(capped(r, res.until));
      status.set(node.id, res.status);
      branch.set(node.id, res.branch);
      outputs[node.id] = res.output;
      if (res.document !== undefined) document = res.document;
      if (res.status === 'failed' && (res.fatal || (node.on_error ?? settings.on_error) === 'stop'))
        return { kind: 'done', status: 'failed' };
      ended = res.ended;
    }

    if (ended) return { kind: 'done', status: 'completed' };
    // A run picked up again after its last step committed without ending it ends here.
    const done = await deps.runs.finish(deps.db, r.id, 'completed', null, ['running'], {
      type: 'workflow.completed',
      data: runEventData(r, 'completed'),
    });
    if (!done) return settled(r.id);
    return { kind: 'done', status: 'completed' };
  }

  /** A wait never outlasts the run's deadline: the run wakes up then and fails. */
  const capped = (r: RunRow, until: Date): Date =>
    r.deadline_at && r.deadline_at < until ? new Date(r.deadline_at.getTime() + 50) : until;

  async function settled(runId: string): Promise<AdvanceResult> {
    const r = await deps.runs.getById(runId);
    return r ? { kind: 'done', status: r.status } : { kind: 'gone' };
  }

  function record(
    r: RunRow,
    node: WorkflowNode,
    position: number,
    st: StepStatus,
    o: Partial<StepRecord> & { attempts: number },
    emit = false,
  ): StepRecord {
    const rec: StepRecord = {
      runId: r.id,
      nodeId: node.id,
      nodeType: node.type,
      position,
      status: st,
      branch: null,
      input: null,
      output: null,
      error: null,
      startedAt: null,
      finishedAt: st === 'skipped' ? new Date() : null,
      durationMs: null,
      resumeAt: null,
      event: null,
      endsRun: null,
      ...o,
    };
    if (emit) {
      rec.event = {
        id: newId('evt'),
        type: 'workflow.step_completed',
        data: runEventData(r, 'running', {
          id: node.id,
          type: node.type,
          status: st,
          branch: rec.branch,
          attempts: rec.attempts,
          duration_ms: rec.durationMs,
        }),
      };
      // The run's closing event follows its last step's event (ids order events of one instant).
      if (rec.endsRun) rec.endsRun = { ...rec.endsRun, event: { ...rec.endsRun.event, id: newId('evt') } };
    }
    return rec;
  }

  interface NodeEnv {
    document: () => DocumentRow | null;
    expressionInput: () => Record<string, unknown>;
    scope: { orgId: string; environment: 'live' | 'test' };
    settings: typeof DEFAULT_SETTINGS;
    /** For the run's last node: what ending the run with its commit writes. */
    ending: (() => NonNullable<StepRecord['endsRun']>) | null;
    /** Expression time the run has used so far. */
    spent: { ms: number };
  }

  /**
   * Evaluation for one step: fair across organizations, charged to the run's expression budget,
   * and retried in a fresh process after an evaluator crash, at most MAX_EVALUATOR_CRASHES times
   * in all before the step fails for good (a hostile expression never becomes a crash loop).
   */
  async function evaluateFor(env: NodeEnv, exprs: readonly string[], input: unknown): Promise<unknown[]> {
    for (let crashes = 0; ;) {
      if (env.spent.ms > budgetMs) throw budgetSpent();
      const t0 = performance.now();
      const outcome = await deps.evaluator.evaluate(exprs, input, { key: env.scope.orgId }).then(
        (values) => ({ values }),
        (err: unknown) => ({ err }),
      );
      env.spent.ms += performance.now() - t0;
      if ('values' in outcome) return outcome.values;
      const err = outcome.err;
      if (!(err instanceof ExpressionError) || err.code !== 'EXPRESSION_CRASHED') throw err;
      if (++crashes >= MAX_EVALUATOR_CRASHES)
        throw new StepError(
          'EXPRESSION_CRASHED',
          `expression failed: ${err.message}; it crashed its evaluator ${crashes} times and is not tried again`,
        );
    }
  }

  const budgetSpent = () =>
    new RunFatal(
      'RUN_EXPRESSION_BUDGET',
      `the run spent more than ${budgetMs} ms evaluating expressions (the per-run budget) and was stopped`,
    );

  async function runNode(
    r: RunRow,
    node: WorkflowNode,
    prev: StepRow | null,
    position: number,
    env: NodeEnv,
  ): Promise<NodeResult> {
    // A saved graph names its types as text; one the catalogue no longer has finds no executor.
    const executor = (deps.executors as Partial<Record<string, NodeExecutor>>)[node.type];
    const maxTries = node.retry?.max_tries ?? 1;
    const backoff = node.retry?.backoff ?? { type: 'exponential' as const, delay_ms: 1000 };
    let attempts = prev?.attempts ?? 0;
    let last = prev;
    for (;;) {
      const attempt = attempts + 1;
      const started = new Date(clock());
      const t0 = performance.now();
      let output: unknown = null;
      let input: unknown = null;
      try {
        if (!executor) throw new StepError('UNKNOWN_NODE_TYPE', `no executor for node type ${node.type}`);
        const ctx: NodeContext = {
          run: r,
          node,
          scope: env.scope,
          dryRun: r.mode === 'dry_run',
          attempt,
          previous: last,
          document: env.document(),
          evaluate: (exprs) => evaluateFor(env, exprs, env.expressionInput()),
          render: async (ts) => {
            const idx = ts.map((t, i) => (isTemplated(t) ? i : -1)).filter((i) => i >= 0);
            const vals = idx.length
              ? await evaluateFor(
                  env,
                  idx.map((i) => templateToExpression(ts[i])),
                  env.expressionInput(),
                )
              : [];
            const out = [...ts];
            idx.forEach((i, k) => {
              out[i] = typeof vals[k] === 'string' ? (vals[k] as string) : '';
            });
            return out;
          },
          now: () => new Date(clock()),
        };
        const outcome: NodeOutcome = await executor(ctx);
        input = outcome.input ?? null;
        output = outcome.output;
        if (outcome.waitUntil) {
          const ok = await deps.runs.commitStep(
            deps.db,
            record(r, node, position, 'waiting', {
              attempts: attempt,
              input,
              output,
              startedAt: started,
              resumeAt: outcome.waitUntil,
            }),
          );
          return ok ? { kind: 'wait', until: outcome.waitUntil } : { kind: 'stopped' };
        }
        const effects = r.mode === 'execute' ? outcome.effects : undefined;
        if (effects?.external) {
          // Recorded first: a crash during the call shows the step as running, and its attempt counts.
          if (
            !(await deps.runs.commitStep(
              deps.db,
              record(r, node, position, 'running', { attempts: attempt, input, startedAt: started }),
            ))
          )
            return { kind: 'stopped' };
          const ext = await effects.external();
          output = { ...outcome.output, ...ext.output };
          if (ext.error)
            throw Object.assign(new StepError(ext.error.code, ext.error.message, ext.error.retryable), { output });
        }
        let written: DocumentRow | null = null;
        const finish = (q: Queryable) =>
          deps.runs.commitStep(
            q,
            record(
              r,
              node,
              position,
              'completed',
              {
                attempts: attempt,
                input,
                output,
                branch: outcome.branch ?? null,
                startedAt: started,
                finishedAt: new Date(clock()),
                durationMs: Math.round(performance.now() - t0),
                endsRun: env.ending?.() ?? null,
              },
              true,
            ),
          );
        const ok = effects?.db
          ? await deps.db
              .tx(async (q) => {
                written = (await effects.db!(q)) ?? null;
                if (!(await finish(q))) throw new RunStopped();
                return true;
              })
              .catch((err: unknown) => {
                if (err instanceof RunStopped) return false;
                throw err;
              })
          : await finish(deps.db);
        if (!ok) return { kind: 'stopped' };
        if (effects?.after)
          await effects
            .after()
            .catch((err: unknown) =>
              deps.logger.warn(
                { err, runId: r.id, nodeId: node.id },
                'workflow step follow-up failed; the sweep retries it',
              ),
            );
        const document: DocumentRow | undefined =
          written ?? (r.mode === 'dry_run' && outcome.simulated ? outcome.simulated : undefined);
        return {
          kind: 'ok',
          status: 'completed',
          output,
          branch: outcome.branch ?? null,
          document,
          ended: env.ending !== null,
        };
      } catch (raw) {
        if (raw instanceof RunStopped) return { kind: 'stopped' };
        const err =
          raw instanceof StepError
            ? raw
            : raw instanceof ExpressionError
              ? new StepError(raw.code, `expression failed: ${raw.message}`)
              : new StepError('STEP_FAILED', raw instanceof Error ? raw.message : String(raw), true);
        output = (raw as { output?: unknown }).output ?? output;
        attempts = attempt;
        const durationMs = Math.round(performance.now() - t0);
        const fatal = err instanceof RunFatal;
        if (err.retryable && attempt < maxTries && !fatal) {
          const wait = backoff.type === 'fixed' ? backoff.delay_ms : backoff.delay_ms * 2 ** (attempt - 1);
          const at = new Date(clock() + wait);
          const rec = record(r, node, position, 'retrying', {
            attempts: attempt,
            input,
            output,
            startedAt: started,
            durationMs,
            error: { code: err.code, message: err.message, next_attempt_at: at.toISOString() },
            resumeAt: wait > inlineMax ? at : null,
          });
          if (!(await deps.runs.commitStep(deps.db, rec))) return { kind: 'stopped' };
          last = { ...(last ?? ({} as StepRow)), status: 'retrying', attempts: attempt, error: rec.error };
          if (wait > inlineMax) return { kind: 'wait', until: at };
          await sleep(wait);
          continue;
        }
        const onError = fatal ? 'stop' : (node.on_error ?? env.settings.on_error);
        const rec = record(
          r,
          node,
          position,
          'failed',
          {
            attempts: attempt,
            input,
            output,
            branch: onError === 'continue' ? 'error' : null,
            startedAt: started,
            finishedAt: new Date(clock()),
            durationMs,
            error: { code: err.code, message: err.message },
          },
          true,
        );
        if (onError === 'continue') {
          if (!(await deps.runs.commitStep(deps.db, { ...rec, endsRun: env.ending?.() ?? null })))
            return { kind: 'stopped' };
          return {
            kind: 'ok',
            status: 'failed',
            output: { error: rec.error, ...(output && typeof output === 'object' ? output : {}) },
            branch: 'error',
            ended: env.ending !== null,
          };
        }
        const error = { code: err.code, message: err.message, node_id: node.id };
        const ok = await deps.db.tx(async (q) => {
          if (!(await deps.runs.commitStep(q, rec))) return false;
          await deps.runs.finish(q, r.id, 'failed', error, ['running'], {
            type: 'workflow.failed',
            data: runEventData(r, 'failed', undefined, { error }),
          });
          return true;
        });
        if (!ok) return { kind: 'stopped' };
        return { kind: 'ok', status: 'failed', output, branch: null, ended: false, fatal };
      }
    }
  }

  return { advance, failRun };
}

export type Runner = ReturnType<typeof createRunner>;
