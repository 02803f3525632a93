// All SQL of workflows and their definitions. Runs and steps live in runs.repository.ts.
import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type {
  ListWorkflowsQuery,
  TriggerType,
  WorkflowEdge,
  WorkflowNode,
  WorkflowRow,
  WorkflowSettings,
  WorkflowStatus,
} from './workflows.types.js';

export interface NewWorkflow {
  name: string;
  description: string | null;
  status: WorkflowStatus;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  settings: WorkflowSettings;
  variables: Record<string, unknown>;
  triggerType: TriggerType | null;
  triggerConfig: Record<string, unknown> | null;
  secretSealed: string;
  createdBy: string | null;
}

export interface WorkflowChanges {
  name?: string;
  description?: string | null;
  status?: WorkflowStatus;
  nodes?: WorkflowNode[];
  edges?: WorkflowEdge[];
  triggerType?: TriggerType | null;
  triggerConfig?: Record<string, unknown> | null;
}

/** An active workflow with a document trigger, as the event fan-out needs it. */
export interface DocumentTriggered {
  id: string;
  org_id: string;
  environment: string;
  trigger_config: { events: string[]; filters?: Record<string, unknown> };
}

/** An active workflow with a schedule trigger. */
export interface Scheduled {
  id: string;
  trigger_config: { cron: string; timezone?: string };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createWorkflowsRepository(db: Queryable) {
  return {
    async insert(scope: Scope, w: NewWorkflow, q: Queryable = db): Promise<WorkflowRow> {
      const { rows } = await q.query<WorkflowRow>(
        `INSERT INTO workflows (id, org_id, environment, name, description, status, nodes, edges, settings, variables,
           trigger_type, trigger_config, secret_sealed, created_by)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING *`,
        [
          newId('wf'),
          scope.orgId,
          scope.environment,
          w.name,
          w.description,
          w.status,
          JSON.stringify(w.nodes),
          JSON.stringify(w.edges),
          JSON.stringify(w.settings),
          JSON.stringify(w.variables),
          w.triggerType,
          w.triggerConfig ? JSON.stringify(w.triggerConfig) : null,
          w.secretSealed,
          w.createdBy,
        ],
      );
      return rows[0];
    },

    async get(scope: Scope, id: string, q: Queryable = db): Promise<WorkflowRow | null> {
      const { rows } = await q.query<WorkflowRow>(
        'SELECT * FROM workflows WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    /** Locks the row for the rest of the transaction (saves and run admission serialize on it). */
    async getForUpdate(q: Queryable, id: string): Promise<WorkflowRow | null> {
      const { rows } = await q.query<WorkflowRow>('SELECT * FROM workflows WHERE id = $1 FOR UPDATE', [id]);
      return rows[0] ?? null;
    },

    async getById(id: string, q: Queryable = db): Promise<WorkflowRow | null> {
      const { rows } = await q.query<WorkflowRow>('SELECT * FROM workflows WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async list(scope: Scope, f: ListWorkflowsQuery): Promise<{ rows: WorkflowRow[]; total: number }> {
      const where = ['org_id = $1', 'environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      if (f.status) {
        params.push(f.status);
        where.push(`status = $${params.length}`);
      }
      if (f.search) {
        params.push(`%${escapeLike(f.search)}%`);
        where.push(`(name ILIKE $${params.length} OR coalesce(description, '') ILIKE $${params.length})`);
      }
      const w = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<WorkflowRow>(
          `SELECT * FROM workflows WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, f.per_page, (f.page - 1) * f.per_page],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM workflows WHERE ${w}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },

    /** Applies `c` and bumps the version. */
    async update(q: Queryable, id: string, c: WorkflowChanges): Promise<WorkflowRow> {
      const sets: string[] = ['version = version + 1', 'updated_at = now()'];
      const params: unknown[] = [id];
      const set = (col: string, v: unknown) => {
        params.push(v);
        sets.push(`${col} = $${params.length}`);
      };
      if (c.name !== undefined) set('name', c.name);
      if (c.description !== undefined) set('description', c.description);
      if (c.status !== undefined) set('status', c.status);
      // Activating again clears why the workflow was paused.
      if (c.status === 'active') sets.push('paused_reason = NULL', 'paused_at = NULL');
      if (c.nodes !== undefined) set('nodes', JSON.stringify(c.nodes));
      if (c.edges !== undefined) set('edges', JSON.stringify(c.edges));
      if (c.triggerType !== undefined) set('trigger_type', c.triggerType);
      if (c.triggerConfig !== undefined)
        set('trigger_config', c.triggerConfig ? JSON.stringify(c.triggerConfig) : null);
      const { rows } = await q.query<WorkflowRow>(
        `UPDATE workflows SET ${sets.join(', ')} WHERE id = $1 RETURNING *`,
        params,
      );
      return rows[0];
    },

    /** Active scheduled workflows of the scope, other than `exceptId`. */
    async activeSchedules(scope: Scope, exceptId: string | null, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ n: string }>(
        `SELECT count(*) AS n FROM workflows WHERE org_id = $1 AND environment = $2 AND status = 'active'
           AND trigger_type = 'schedule' AND id <> $3`,
        [scope.orgId, scope.environment, exceptId ?? ''],
      );
      return Number(rows[0].n);
    },

    /** Deactivates an active workflow and records why (a schedule whose runs keep crashing). */
    async pause(id: string, reason: string, q: Queryable = db): Promise<WorkflowRow | null> {
      const { rows } = await q.query<WorkflowRow>(
        `UPDATE workflows SET status = 'inactive', paused_reason = $2, paused_at = now(), updated_at = now()
           WHERE id = $1 AND status = 'active' RETURNING *`,
        [id, reason],
      );
      return rows[0] ?? null;
    },

    async delete(scope: Scope, id: string, q: Queryable = db): Promise<WorkflowRow | null> {
      const { rows } = await q.query<WorkflowRow>(
        'DELETE FROM workflows WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    /** Active document-triggered workflows of the given organizations (both environments; the caller matches). */
    async documentTriggered(q: Queryable, orgIds: string[]): Promise<DocumentTriggered[]> {
      const { rows } = await q.query<DocumentTriggered>(
        `SELECT id, org_id, environment, trigger_config FROM workflows
         WHERE org_id = ANY($1::text[]) AND status = 'active' AND trigger_type = 'document' ORDER BY created_at, id`,
        [orgIds],
      );
      return rows;
    },

    async scheduled(q: Queryable = db): Promise<Scheduled[]> {
      const { rows } = await q.query<Scheduled>(
        `SELECT id, trigger_config FROM workflows WHERE status = 'active' AND trigger_type = 'schedule'`,
      );
      return rows;
    },

    async existing(
      scope: Scope,
      table: 'projects' | 'sheets_exports' | 'templates' | 'documents',
      ids: string[],
    ): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM ${table} WHERE org_id = $1 AND environment = $2 AND id = ANY($3::text[])`,
        [scope.orgId, scope.environment, ids],
      );
      return new Set(rows.map((r) => r.id));
    },
  };
}

export type WorkflowsRepository = ReturnType<typeof createWorkflowsRepository>;
