import type { Queryable } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { DOCUMENT_STATUSES, isTerminalStatus } from '../../pipeline/stages.js';

// The statuses perStage counts: a run still going, and failed (by the stage that failed).
const IN_PIPELINE_OR_FAILED = DOCUMENT_STATUSES.filter((s) => !isTerminalStatus(s) || s === 'failed')
  .map((s) => `'${s}'`)
  .join(', ');

/** Aggregate reads behind the overview: counts only, never rows. */
export function createActivityRepository(db: Queryable) {
  return {
    /** Documents created since the start of `firstDay` in `tz`, counted per local day, status, type and source. */
    async perDay(scope: Scope, tz: string, firstDay: string, projectId?: string) {
      const params: unknown[] = [scope.orgId, scope.environment, tz, firstDay];
      if (projectId) params.push(projectId);
      const { rows } = await db.query<{
        day: string;
        status: string;
        type: string;
        source: string;
        n: string | number;
      }>(
        `SELECT to_char(created_at AT TIME ZONE $3, 'YYYY-MM-DD') AS day, status, COALESCE(classification->>'type', '') AS type, source, count(*) AS n
         FROM documents
         WHERE org_id = $1 AND environment = $2 AND created_at >= ($4::date)::timestamp AT TIME ZONE $3${projectId ? ' AND project_id = $5' : ''}
         GROUP BY 1, 2, 3, 4`,
        params,
      );
      return rows.map((r) => ({ ...r, n: Number(r.n) }));
    },

    /** Documents not finished, by the stage they are in, and failed ones by the stage that failed. */
    async perStage(scope: Scope, projectId?: string) {
      const params: unknown[] = [scope.orgId, scope.environment];
      if (projectId) params.push(projectId);
      const { rows } = await db.query<{ stage: string | null; state: 'in_progress' | 'failed'; n: string | number }>(
        `SELECT CASE WHEN status = 'failed' THEN error->>'stage' ELSE pipeline->>'current' END AS stage,
                CASE WHEN status = 'failed' THEN 'failed' ELSE 'in_progress' END AS state, count(*) AS n
         FROM documents
         WHERE org_id = $1 AND environment = $2 AND status IN (${IN_PIPELINE_OR_FAILED})
           ${projectId ? 'AND project_id = $3' : ''}
         GROUP BY 1, 2`,
        params,
      );
      return rows.map((r) => ({ ...r, n: Number(r.n) }));
    },

    /**
     * Documents whose last run let a stage go by without doing its work (an embedding model that
     * could not be loaded), per stage, with the reason recorded most recently.
     */
    async skippedPerStage(scope: Scope) {
      const { rows } = await db.query<{ stage: string; n: string | number; reason: string | null }>(
        `SELECT s.key AS stage, count(*) AS n,
                (array_agg(s.value->>'message' ORDER BY d.updated_at DESC))[1] AS reason
         FROM documents d, jsonb_each(d.pipeline->'skipped') AS s
         WHERE d.org_id = $1 AND d.environment = $2 AND d.pipeline ? 'skipped'
         GROUP BY 1`,
        [scope.orgId, scope.environment],
      );
      return rows.map((r) => ({ ...r, n: Number(r.n) }));
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
