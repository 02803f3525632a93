// All SQL of workflow runs and their steps.
import { ARRAYS_PLAN_FREE, type Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import { insertEventFromRowSql } from '../events/events.repository.js';
import type { EventType } from '../events/events.types.js';
import type { ListRunsQuery, RunMode, RunRow, RunTrigger, StepRow, StepStatus } from './workflows.types.js';

export interface NewRun {
  workflowId: string;
  mode: RunMode;
  trigger: RunTrigger;
  triggerKey: string | null;
  documentId: string | null;
  input: Record<string, unknown>;
  /** Run-request variables; the workflow's defaults are merged under them in SQL. */
  variables: Record<string, unknown>;
  chain: string[];
  createdBy: string | null;
}

/** One step record to write, with the event that announces it (if any). */
export interface StepRecord {
  runId: string;
  nodeId: string;
  nodeType: string;
  position: number;
  status: StepStatus;
  branch: string | null;
  input: unknown;
  output: unknown;
  error: StepRow['error'];
  attempts: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
  /** Resume time of the run (a waiting or retrying step), or null. */
  resumeAt: Date | null;
  event: { id: string; type: EventType; data: Record<string, unknown> } | null;
  /** Set on the run's last step: the run ends with it (status and closing event). */
  endsRun?: { status: 'completed'; event: { id: string; type: EventType; data: Record<string, unknown> } } | null;
}

/** An event written with a run's state change. */
export interface RunEvent {
  type: EventType;
  data: Record<string, unknown>;
}

/** An unfinished run the sweeper looks at. */
export interface OpenRun {
  id: string;
  status: 'queued' | 'running';
  resume_at: Date | null;
  deadline_at: Date | null;
  updated_at: Date;
}

// The run's columns copied from the workflow: the definition snapshot and the merged variables.
const FROM_WORKFLOW = `w.org_id, w.environment, w.id, w.version,
  jsonb_build_object('nodes', w.nodes, 'edges', w.edges, 'settings', w.settings)`;

// One statement per step: the run guard (still running), the step upsert and its event. It needs
// no transaction around it, which keeps a step to one round trip; effects of side-effecting steps
// run in a transaction together with it. The last step of a run also ends the run ($18: the end
// status) and writes the run's closing event after the step's, in the same statement.
const COMMIT_STEP_SQL = `
  WITH r AS (
    UPDATE workflow_runs SET updated_at = now(), resume_at = $13,
      status = coalesce($18::text, status),
      error = CASE WHEN $18::text IS NULL THEN error ELSE NULL END,
      finished_at = CASE WHEN $18::text IS NULL THEN finished_at ELSE now() END
    WHERE id = $1 AND status = 'running' RETURNING id, org_id, environment
  ),
  s AS (
    INSERT INTO workflow_steps (run_id, node_id, node_type, position, status, branch, input, output, error, attempts, started_at, finished_at, duration_ms)
    SELECT r.id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $14 FROM r
    ON CONFLICT (run_id, node_id) DO UPDATE SET status = EXCLUDED.status, branch = EXCLUDED.branch, input = EXCLUDED.input,
      output = EXCLUDED.output, error = EXCLUDED.error, attempts = EXCLUDED.attempts,
      started_at = coalesce(workflow_steps.started_at, EXCLUDED.started_at), finished_at = EXCLUDED.finished_at, duration_ms = EXCLUDED.duration_ms
    RETURNING 1
  ),
  e AS (
    ${insertEventFromRowSql('r', { id: '$15', type: '$16', data: '$17' })} WHERE $15::text IS NOT NULL RETURNING 1
  ),
  f AS (
    ${insertEventFromRowSql('r', { id: '$19', type: '$20', data: '$21' })} WHERE $18::text IS NOT NULL RETURNING 1
  )
  SELECT (SELECT count(*) FROM s) AS n`;

export function createRunsRepository(db: Queryable) {
  return {
    /** Inserts a run from the workflow's current definition; null when its trigger key was already used. */
    async insert(q: Queryable, r: NewRun): Promise<RunRow | null> {
      const { rows } = await q.query<RunRow>(
        `INSERT INTO workflow_runs (id, org_id, environment, workflow_id, workflow_version, definition, variables, mode, status,
           trigger, trigger_key, document_id, input, chain, created_by)
         SELECT $1, ${FROM_WORKFLOW}, w.variables || $3::jsonb, $4, 'queued', $5, $6, $7, $8, $9, $10
         FROM workflows w WHERE w.id = $2
         ON CONFLICT (workflow_id, trigger_key) WHERE trigger_key IS NOT NULL DO NOTHING
         RETURNING *`,
        [
          newId('run'),
          r.workflowId,
          JSON.stringify(r.variables),
          r.mode,
          JSON.stringify(r.trigger),
          r.triggerKey,
          r.documentId,
          JSON.stringify(r.input),
          r.chain,
          r.createdBy,
        ],
      );
      return rows[0] ?? null;
    },

    /**
     * One run per (event, workflow) pair, in one statement: a pair already started (a relay that
     * ran twice, a second worker) inserts nothing. Only still-active workflows get a run.
     */
    async insertForEvents(
      q: Queryable,
      items: { workflowId: string; eventId: string; eventType: string; documentId: string | null; chain: string[] }[],
    ): Promise<string[]> {
      if (items.length === 0) return [];
      const { rows } = await q.query<{ id: string }>(
        `${ARRAYS_PLAN_FREE}
         INSERT INTO workflow_runs (id, org_id, environment, workflow_id, workflow_version, definition, variables, mode, status,
           trigger, trigger_key, document_id, input, chain)
         SELECT e.run_id, ${FROM_WORKFLOW}, w.variables, 'execute', 'queued',
           jsonb_build_object('type', 'document', 'event_id', e.event_id, 'event_type', e.event_type),
           e.event_id, e.document_id, '{}'::jsonb, ARRAY(SELECT jsonb_array_elements_text(e.chain::jsonb))
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS e(run_id, workflow_id, event_id, event_type, document_id, chain)
         JOIN workflows w ON w.id = e.workflow_id AND w.status = 'active'
         ON CONFLICT (workflow_id, trigger_key) WHERE trigger_key IS NOT NULL DO NOTHING
         RETURNING id`,
        [
          items.map(() => newId('run')),
          items.map((i) => i.workflowId),
          items.map((i) => i.eventId),
          items.map((i) => i.eventType),
          items.map((i) => i.documentId),
          items.map((i) => JSON.stringify(i.chain)),
        ],
      );
      return rows.map((r) => r.id);
    },

    async get(scope: Scope, id: string): Promise<RunRow | null> {
      const { rows } = await db.query<RunRow>(
        'SELECT * FROM workflow_runs WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    /** The latest scheduled runs of a workflow, newest first: status and error code. */
    async recentScheduled(
      workflowId: string,
      n: number,
    ): Promise<{ status: string; code: string | null; message: string | null }[]> {
      const { rows } = await db.query<{ status: string; code: string | null; message: string | null }>(
        `SELECT status, error->>'code' AS code, error->>'message' AS message FROM workflow_runs
           WHERE workflow_id = $1 AND trigger->>'type' = 'schedule' ORDER BY created_at DESC LIMIT $2`,
        [workflowId, n],
      );
      return rows;
    },

    async getById(id: string, q: Queryable = db): Promise<RunRow | null> {
      const { rows } = await q.query<RunRow>('SELECT * FROM workflow_runs WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async list(scope: Scope, f: ListRunsQuery): Promise<{ rows: RunRow[]; total: number }> {
      const where = ['org_id = $1', 'environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      if (f.status) {
        params.push(f.status);
        where.push(`status = $${params.length}`);
      }
      if (f.workflow_id) {
        params.push(f.workflow_id);
        where.push(`workflow_id = $${params.length}`);
      }
      if (f.mode) {
        params.push(f.mode);
        where.push(`mode = $${params.length}`);
      }
      const w = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<RunRow>(
          `SELECT * FROM workflow_runs WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, f.per_page, (f.page - 1) * f.per_page],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM workflow_runs WHERE ${w}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },

    async steps(runId: string, q: Queryable = db): Promise<StepRow[]> {
      const { rows } = await q.query<StepRow>(
        'SELECT * FROM workflow_steps WHERE run_id = $1 ORDER BY position, node_id',
        [runId],
      );
      return rows;
    },

    /** Step counts per run, for lists. */
    async stepCounts(runIds: string[]): Promise<Map<string, Record<string, number>>> {
      const out = new Map<string, Record<string, number>>();
      if (runIds.length === 0) return out;
      const { rows } = await db.query<{ run_id: string; status: string; n: number }>(
        'SELECT run_id, status, count(*) AS n FROM workflow_steps WHERE run_id = ANY($1::text[]) GROUP BY run_id, status',
        [runIds],
      );
      for (const r of rows) out.set(r.run_id, { ...(out.get(r.run_id) ?? {}), [r.status]: r.n });
      return out;
    },

    /** Writes a step (and its event) if the run is still running; false when it is not (cancelled, timed out, deleted). */
    async commitStep(q: Queryable, s: StepRecord): Promise<boolean> {
      const j = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
      const { rows } = await q.query<{ n: number }>(COMMIT_STEP_SQL, [
        s.runId,
        s.nodeId,
        s.nodeType,
        s.position,
        s.status,
        s.branch,
        j(s.input),
        j(s.output),
        j(s.error),
        s.attempts,
        s.startedAt,
        s.finishedAt,
        s.resumeAt,
        s.durationMs,
        s.event?.id ?? null,
        s.event?.type ?? null,
        s.event ? JSON.stringify(s.event.data) : null,
        s.endsRun?.status ?? null,
        s.endsRun?.event.id ?? null,
        s.endsRun?.event.type ?? null,
        s.endsRun ? JSON.stringify(s.endsRun.event.data) : null,
      ]);
      return rows[0].n > 0;
    },

    /**
     * queued → running, if the workflow has a free slot, with the event announcing it. Returns the
     * run, or null (no slot, or no longer queued).
     */
    async start(
      q: Queryable,
      run: Pick<RunRow, 'id' | 'workflow_id'>,
      maxConcurrent: number,
      timeoutSeconds: number,
      event: RunEvent,
    ): Promise<RunRow | null> {
      // On PostgreSQL the caller holds the workflow row's lock: two admissions of one workflow
      // cannot interleave. PGlite runs one statement at a time anyway.
      const { rows } = await q.query<RunRow>(
        `WITH f AS (
           UPDATE workflow_runs SET status = 'running', started_at = now(), updated_at = now(), resume_at = NULL,
             deadline_at = now() + ($4::int * interval '1 second')
           WHERE id = $1 AND status = 'queued'
             AND (SELECT count(*) FROM workflow_runs WHERE workflow_id = $2 AND status = 'running') < $3
           RETURNING *),
         e AS (${insertEventFromRowSql('f', { id: '$5', type: '$6', data: '$7' })})
         SELECT * FROM f`,
        [run.id, run.workflow_id, maxConcurrent, timeoutSeconds, newId('evt'), event.type, JSON.stringify(event.data)],
      );
      return rows[0] ?? null;
    },

    /** Adds expression time a pickup of the run used (recorded when the run waits or yields). */
    async addExpressionMs(q: Queryable, runId: string, ms: number): Promise<void> {
      await q.query(`UPDATE workflow_runs SET expression_ms = expression_ms + $2 WHERE id = $1`, [runId, ms]);
    },

    /** Running runs of an organization that hold a slot (runs parked until later, by a delay node, do not). */
    async runningInOrg(orgId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ n: string }>(
        `SELECT count(*) AS n FROM workflow_runs WHERE org_id = $1 AND status = 'running'
           AND (resume_at IS NULL OR resume_at <= now())`,
        [orgId],
      );
      return Number(rows[0].n);
    },

    /**
     * Ends a run (completed, failed, cancelled) if it is still in one of `from`, with the event
     * announcing it, in one statement. Returns the run, or null when it had moved on.
     */
    async finish(
      q: Queryable,
      runId: string,
      status: 'completed' | 'failed' | 'cancelled',
      error: RunRow['error'],
      from: readonly string[],
      event: RunEvent,
    ): Promise<RunRow | null> {
      const { rows } = await q.query<RunRow>(
        `WITH f AS (
           UPDATE workflow_runs SET status = $2, error = $3, finished_at = now(), updated_at = now(), resume_at = NULL
           WHERE id = $1 AND status = ANY($4::text[]) RETURNING *),
         e AS (${insertEventFromRowSql('f', { id: '$5', type: '$6', data: '$7' })})
         SELECT * FROM f`,
        [
          runId,
          status,
          error ? JSON.stringify(error) : null,
          [...from],
          newId('evt'),
          event.type,
          JSON.stringify(event.data),
        ],
      );
      return rows[0] ?? null;
    },

    /** The run with its steps, in one round trip (what the engine reads when it picks a run up). */
    async getWithSteps(
      id: string,
      q: Queryable = db,
      opts: { lockWorkflow?: boolean } = {},
    ): Promise<{ run: RunRow; steps: StepRow[] } | null> {
      // lockWorkflow (PostgreSQL, in a transaction): also locks the run's workflow row, on which
      // admissions of that workflow serialize.
      const { rows } = await q.query<RunRow & { steps_json: StepRow[] }>(
        `SELECT r.*, (SELECT coalesce(json_agg(s ORDER BY s.position, s.node_id), '[]'::json) FROM workflow_steps s WHERE s.run_id = r.id) AS steps_json
         FROM workflow_runs r ${opts.lockWorkflow ? 'JOIN workflows w ON w.id = r.workflow_id' : ''} WHERE r.id = $1
         ${opts.lockWorkflow ? 'FOR UPDATE OF w' : ''}`,
        [id],
      );
      if (!rows[0]) return null;
      const { steps_json, ...run } = rows[0];
      return { run: run as RunRow, steps: steps_json };
    },

    /** Marks a queued run as waiting for a slot until `at` (kept fresh for the sweeper). */
    async touch(q: Queryable, runId: string, resumeAt: Date | null): Promise<void> {
      await q.query('UPDATE workflow_runs SET updated_at = now(), resume_at = $2 WHERE id = $1', [runId, resumeAt]);
    },

    async openRuns(staleMs: number, limit = 500): Promise<OpenRun[]> {
      const { rows } = await db.query<OpenRun>(
        `SELECT id, status, resume_at, deadline_at, updated_at FROM workflow_runs
         WHERE status IN ('queued', 'running') AND (updated_at < now() - ($1::int * interval '1 millisecond') OR deadline_at < now())
         ORDER BY updated_at LIMIT $2`,
        [staleMs, limit],
      );
      return rows;
    },

    newEventId: () => newId('evt'),
  };
}

export type RunsRepository = ReturnType<typeof createRunsRepository>;
