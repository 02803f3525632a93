// usage: authenticated API requests per key and day (api_usage_daily, counted per UTC day),
// documents and pages per plan period (calendar month in the report's zone), and webhook
// deliveries and failures per day, in the caller's organization and environment.
import { Params, type ReportQuery } from './context.js';

export const usageReport: ReportQuery = async (ctx) => {
  const { orgId, environment } = ctx.scope;
  // The counter's days are UTC days: a day is in the period when it starts in it.
  const DAY = 86_400_000;
  const fromDay = new Date(Math.ceil(ctx.from.getTime() / DAY) * DAY).toISOString().slice(0, 10);
  const toDay = new Date(Math.ceil(ctx.to.getTime() / DAY) * DAY - DAY).toISOString().slice(0, 10);
  const api = await ctx.db.query<{
    day: string;
    key_id: string;
    name: string | null;
    masked: string | null;
    requests: number;
  }>(
    `SELECT to_char(u.day, 'YYYY-MM-DD') AS day, u.key_id, k.name, k.masked_key AS masked, u.requests
     FROM api_usage_daily u LEFT JOIN api_keys k ON k.id = u.key_id
     WHERE u.org_id = $1 AND u.environment = $2 AND u.day >= $3::date AND u.day <= $4::date
     ORDER BY u.day, u.key_id`,
    [orgId, environment, fromDay, toDay],
  );
  await ctx.writer.section({
    name: 'api_requests',
    title: 'API requests per key and day',
    columns: [
      { key: 'day', label: 'Day (UTC)', type: 'date' },
      { key: 'key_id', label: 'Key', type: 'string' },
      { key: 'key_name', label: 'Key name', type: 'string' },
      { key: 'key_display', label: 'Key', type: 'string' },
      { key: 'requests', label: 'Requests', type: 'integer' },
    ],
  });
  const perKey: Record<string, number> = {};
  for (const r of api.rows) {
    const key = r.key_id || null;
    await ctx.writer.row([r.day, key, key ? (r.name ?? '(deleted key)') : 'dashboard sessions', r.masked, r.requests]);
    perKey[r.key_id || 'sessions'] = (perKey[r.key_id || 'sessions'] ?? 0) + r.requests;
  }

  const p = new Params();
  const where = [
    `d.org_id = ${p.add(orgId)}`,
    `d.environment = ${p.add(environment)}`,
    `d.created_at >= ${p.add(ctx.from)}`,
    `d.created_at < ${p.add(ctx.to)}`,
  ];
  if (ctx.dataSource.project_ids?.length)
    where.push(`d.project_id = ANY(${p.add(ctx.dataSource.project_ids)}::text[])`);
  const tz = p.add(ctx.timezone);
  const docs = await ctx.db.query<{
    month: string;
    n: number;
    pages: number | null;
    bytes: number | null;
    failed: number;
  }>(
    `SELECT to_char(d.created_at AT TIME ZONE ${tz}, 'YYYY-MM') AS month, count(*) AS n, sum(d.page_count) AS pages, sum(d.size_bytes) AS bytes,
       count(*) FILTER (WHERE d.status = 'failed') AS failed
     FROM documents d WHERE ${where.join(' AND ')} GROUP BY 1 ORDER BY 1`,
    p.values,
  );
  await ctx.writer.section({
    name: 'documents',
    title: 'Documents and pages per month',
    columns: [
      { key: 'month', label: 'Month', type: 'string' },
      { key: 'documents', label: 'Documents', type: 'integer' },
      { key: 'pages', label: 'Pages', type: 'integer' },
      { key: 'bytes', label: 'Bytes', type: 'integer' },
      { key: 'failed', label: 'Failed', type: 'integer' },
    ],
  });
  for (const r of docs.rows) await ctx.writer.row([r.month, r.n, r.pages ?? 0, r.bytes ?? 0, r.failed]);

  const hooks = await ctx.db.query<{
    day: string;
    deliveries: number;
    delivered: number;
    failed: number;
    pending: number;
    other: number;
    attempts: number;
    failed_attempts: number;
  }>(
    `WITH dl AS (
       SELECT to_char(w.created_at AT TIME ZONE $5, 'YYYY-MM-DD') AS day, count(*) AS deliveries,
         count(*) FILTER (WHERE w.status = 'delivered') AS delivered, count(*) FILTER (WHERE w.status = 'failed') AS failed,
         count(*) FILTER (WHERE w.status = 'pending') AS pending, count(*) FILTER (WHERE w.status IN ('suspended', 'gone')) AS other
       FROM webhook_deliveries w
       WHERE w.org_id = $1 AND w.environment = $2 AND w.created_at >= $3 AND w.created_at < $4 GROUP BY 1),
     at AS (
       SELECT to_char(a.attempted_at AT TIME ZONE $5, 'YYYY-MM-DD') AS day, count(*) AS attempts,
         count(*) FILTER (WHERE a.status_code < 200 OR a.status_code > 299) AS failed_attempts
       FROM webhook_attempts a JOIN webhook_deliveries w ON w.id = a.delivery_id
       WHERE w.org_id = $1 AND w.environment = $2 AND a.attempted_at >= $3 AND a.attempted_at < $4 GROUP BY 1)
     SELECT coalesce(dl.day, at.day) AS day, coalesce(dl.deliveries, 0) AS deliveries, coalesce(dl.delivered, 0) AS delivered,
       coalesce(dl.failed, 0) AS failed, coalesce(dl.pending, 0) AS pending, coalesce(dl.other, 0) AS other,
       coalesce(at.attempts, 0) AS attempts, coalesce(at.failed_attempts, 0) AS failed_attempts
     FROM dl FULL JOIN at ON at.day = dl.day ORDER BY 1`,
    [orgId, environment, ctx.from, ctx.to, ctx.timezone],
  );
  await ctx.writer.section({
    name: 'webhooks',
    title: 'Webhook deliveries per day',
    columns: [
      { key: 'day', label: 'Day', type: 'date' },
      { key: 'deliveries', label: 'Deliveries created', type: 'integer' },
      { key: 'delivered', label: 'Delivered', type: 'integer' },
      { key: 'failed', label: 'Failed', type: 'integer' },
      { key: 'pending', label: 'Pending', type: 'integer' },
      { key: 'suspended_or_gone', label: 'Suspended or gone', type: 'integer' },
      { key: 'attempts', label: 'Attempts', type: 'integer' },
      { key: 'failed_attempts', label: 'Failed attempts', type: 'integer' },
    ],
  });
  for (const r of hooks.rows)
    await ctx.writer.row([
      r.day,
      r.deliveries,
      r.delivered,
      r.failed,
      r.pending,
      r.other,
      r.attempts,
      r.failed_attempts,
    ]);

  const org = await ctx.db.query<{ plan: string }>('SELECT plan FROM organizations WHERE id = $1', [orgId]);
  const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((a, r) => a + f(r), 0);
  return {
    plan: org.rows[0]?.plan ?? null,
    api_requests: sum(api.rows, (r) => r.requests),
    api_requests_by_key: perKey,
    documents: sum(docs.rows, (r) => r.n),
    pages: sum(docs.rows, (r) => r.pages ?? 0),
    webhook_deliveries: sum(hooks.rows, (r) => r.deliveries),
    webhook_deliveries_failed: sum(hooks.rows, (r) => r.failed),
    webhook_attempts: sum(hooks.rows, (r) => r.attempts),
    webhook_attempts_failed: sum(hooks.rows, (r) => r.failed_attempts),
  };
};
