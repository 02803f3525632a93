// processing_performance: how long each pipeline stage took (p50/p95 of its processing time,
// and of the time it waited in the queue after the stage before it), stages finished per hour,
// and failures by stage and code, for the documents uploaded in the period.
import { isoInZone } from '../../../lib/time.js';
import { STAGES } from '../../documents/documents.types.js';
import { documentScope, Params, round, type ReportQuery } from './context.js';

interface StageRow {
  stage: string;
  runs: number;
  p50: number | null;
  p95: number | null;
  mean: number | null;
  max: number | null;
  wait_p50: number | null;
  wait_p95: number | null;
}

export const processingPerformance: ReportQuery = async (ctx) => {
  const p = new Params();
  const where = documentScope(ctx, p);
  // A stage's wait: from the finish of the stage before it in the same run (or, for the first
  // stage of a document's first run, from the upload) to its start.
  const stages = await ctx.db.query<StageRow>(
    `WITH runs AS (
       SELECT s.stage, s.started_at, s.finished_at,
         coalesce(lag(s.finished_at) OVER w, CASE WHEN s.version = 1 THEN d.created_at END) AS ready_at
       FROM stage_runs s JOIN documents d ON d.id = s.document_id
       WHERE ${where}
       WINDOW w AS (PARTITION BY s.document_id, s.version ORDER BY s.finished_at)),
     t AS (
       SELECT stage, extract(epoch FROM finished_at - started_at) * 1000 AS ms,
         CASE WHEN ready_at IS NOT NULL AND started_at >= ready_at THEN extract(epoch FROM started_at - ready_at) * 1000 END AS wait
       FROM runs WHERE started_at IS NOT NULL)
     SELECT stage, count(*) AS runs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95,
       avg(ms) AS mean, max(ms) AS max,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY wait) AS wait_p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY wait) AS wait_p95
     FROM t GROUP BY stage`,
    p.values,
  );

  const q2 = new Params();
  const where2 = documentScope(ctx, q2);
  const total = await ctx.db.query<StageRow>(
    `SELECT 'total' AS stage, count(*) AS runs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95,
       avg(ms) AS mean, max(ms) AS max, NULL::float8 AS wait_p50, NULL::float8 AS wait_p95
     FROM (SELECT extract(epoch FROM d.completed_at - d.created_at) * 1000 AS ms FROM documents d
           WHERE ${where2} AND d.completed_at IS NOT NULL AND d.version = 1) x`,
    q2.values,
  );

  const byStage = new Map(stages.rows.map((r) => [r.stage, r]));
  const stageRows = [
    ...STAGES.map((s) => byStage.get(s)).filter((r): r is StageRow => !!r),
    ...stages.rows.filter((r) => !(STAGES as readonly string[]).includes(r.stage)),
  ];
  if (total.rows[0] && total.rows[0].runs > 0) stageRows.push(total.rows[0]);
  await ctx.writer.section({
    name: 'stages',
    title: 'Stage durations',
    columns: [
      { key: 'stage', label: 'Stage', type: 'string' },
      { key: 'runs', label: 'Runs', type: 'integer' },
      { key: 'p50_ms', label: 'p50 (ms)', type: 'number' },
      { key: 'p95_ms', label: 'p95 (ms)', type: 'number' },
      { key: 'mean_ms', label: 'Mean (ms)', type: 'number' },
      { key: 'max_ms', label: 'Max (ms)', type: 'number' },
      { key: 'wait_p50_ms', label: 'Queue wait p50 (ms)', type: 'number' },
      { key: 'wait_p95_ms', label: 'Queue wait p95 (ms)', type: 'number' },
    ],
  });
  for (const r of stageRows)
    await ctx.writer.row([
      r.stage,
      r.runs,
      round(r.p50),
      round(r.p95),
      round(r.mean),
      round(r.max),
      round(r.wait_p50),
      round(r.wait_p95),
    ]);

  // Hours are UTC hours (each exactly an hour, never ambiguous), labelled in the report's zone.
  const q3 = new Params();
  const where3 = documentScope(ctx, q3);
  const hourly = await ctx.db.query<{ hour: Date; stage: string; n: number }>(
    `SELECT date_trunc('hour', s.finished_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, s.stage, count(*) AS n
     FROM stage_runs s JOIN documents d ON d.id = s.document_id WHERE ${where3} GROUP BY 1, 2
     UNION ALL
     SELECT date_trunc('hour', d.completed_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 'completed', count(*)
     FROM documents d WHERE ${where3} AND d.completed_at IS NOT NULL GROUP BY 1
     ORDER BY 1`,
    q3.values,
  );
  const hours = new Map<number, Record<string, number>>();
  for (const r of hourly.rows) {
    const k = new Date(r.hour).getTime();
    const h = hours.get(k) ?? {};
    h[r.stage] = (h[r.stage] ?? 0) + r.n;
    hours.set(k, h);
  }
  const counted = [...STAGES, 'completed'];
  await ctx.writer.section({
    name: 'throughput',
    title: 'Throughput per hour',
    columns: [
      { key: 'hour', label: 'Hour (UTC start)', type: 'datetime' },
      { key: 'hour_local', label: 'Hour (local)', type: 'string' },
      ...counted.map((s) => ({
        key: s,
        label: s === 'completed' ? 'Documents completed' : `${s} runs`,
        type: 'integer' as const,
      })),
    ],
  });
  let busiest = 0;
  for (const [k, h] of [...hours.entries()].sort((a, b) => a[0] - b[0])) {
    busiest = Math.max(busiest, h.completed ?? 0);
    await ctx.writer.row([new Date(k).toISOString(), isoInZone(k, ctx.timezone), ...counted.map((s) => h[s] ?? 0)]);
  }

  const q4 = new Params();
  const failures = await ctx.db.query<{
    stage: string | null;
    code: string | null;
    n: number;
    example: string | null;
    last_at: Date;
  }>(
    `SELECT d.error->>'stage' AS stage, d.error->>'code' AS code, count(*) AS n, min(d.error->>'message') AS example, max(d.updated_at) AS last_at
     FROM documents d WHERE ${documentScope(ctx, q4)} AND d.status = 'failed'
     GROUP BY 1, 2 ORDER BY n DESC, 1, 2`,
    q4.values,
  );
  await ctx.writer.section({
    name: 'failures',
    title: 'Failures by code',
    columns: [
      { key: 'stage', label: 'Stage', type: 'string' },
      { key: 'code', label: 'Code', type: 'string' },
      { key: 'documents', label: 'Documents', type: 'integer' },
      { key: 'example_message', label: 'Example message', type: 'string' },
      { key: 'last_failed_at', label: 'Last failure', type: 'datetime' },
    ],
  });
  for (const r of failures.rows)
    await ctx.writer.row([r.stage, r.code, r.n, r.example?.slice(0, 500) ?? null, new Date(r.last_at).toISOString()]);

  const summaryStages: Record<string, { p50_ms: number | null; p95_ms: number | null; runs: number }> = {};
  for (const r of stageRows) summaryStages[r.stage] = { p50_ms: round(r.p50), p95_ms: round(r.p95), runs: r.runs };
  return {
    stages: summaryStages,
    completed: [...hours.values()].reduce((a, h) => a + (h.completed ?? 0), 0),
    failed: failures.rows.reduce((a, r) => a + r.n, 0),
    busiest_hour_completed: busiest,
  };
};
