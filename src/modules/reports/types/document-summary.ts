// document_summary: documents uploaded per day (in the report's zone), counted by status,
// classified type, source and project, in one pass over the documents (grouping sets).
import { documentScope, Params, type ReportQuery } from './context.js';

type Dimension = 'status' | 'type' | 'source' | 'project';

interface Row {
  day: string | null;
  status: string | null;
  type: string | null;
  source: string | null;
  project_id: string | null;
  project_name: string | null;
  g: number;
  n: number;
  pages: number;
  bytes: number;
}

const UNCLASSIFIED = '(unclassified)';

export const documentSummary: ReportQuery = async (ctx) => {
  const p = new Params();
  const where = documentScope(ctx, p);
  const tz = p.add(ctx.timezone);
  // GROUPING(...) tells the sets apart: bit 3 = day, 2 = status, … (1 = grouped away).
  const { rows } = await ctx.db.query<Row>(
    `WITH d AS (
       SELECT to_char(d.created_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day, d.status, d.classification->>'type' AS type,
         d.source, d.project_id, coalesce(d.page_count, 0) AS pages, d.size_bytes
       FROM documents d WHERE ${where})
     SELECT d.day, d.status, d.type, d.source, d.project_id, min(p.name) AS project_name,
       GROUPING(d.day, d.status, d.type, d.source, d.project_id) AS g, count(*) AS n, sum(d.pages) AS pages, sum(d.size_bytes) AS bytes
     FROM d LEFT JOIN projects p ON p.id = d.project_id
     GROUP BY GROUPING SETS ((d.day, d.status), (d.day, d.type), (d.day, d.source), (d.day, d.project_id),
       (d.status), (d.type), (d.source), (d.project_id), ())`,
    p.values,
  );

  const dimensionOf = (r: Row): Dimension => {
    const bits = r.g & 0b1111; // status, type, source, project (1 = not in this set)
    if ((bits & 0b1000) === 0) return 'status';
    if ((bits & 0b0100) === 0) return 'type';
    if ((bits & 0b0010) === 0) return 'source';
    return 'project';
  };
  const keyLabel = (r: Row, dim: Dimension): [string | null, string] => {
    if (dim === 'status') return [r.status, r.status ?? ''];
    if (dim === 'type') return [r.type, r.type ?? UNCLASSIFIED];
    if (dim === 'source') return [r.source, r.source ?? ''];
    return [r.project_id, r.project_name ?? r.project_id ?? ''];
  };
  const order: Dimension[] = ['status', 'type', 'source', 'project'];
  const daily: { day: string; dim: Dimension; key: string | null; label: string; n: number; pages: number }[] = [];
  const totals: Record<Dimension, Record<string, number>> = { status: {}, type: {}, source: {}, project: {} };
  const projects: { id: string; name: string; documents: number }[] = [];
  let grand = { documents: 0, pages: 0, bytes: 0 };
  for (const r of rows) {
    if (r.g === 0b11111) {
      grand = { documents: r.n, pages: r.pages ?? 0, bytes: r.bytes ?? 0 };
      continue;
    }
    const dim = dimensionOf(r);
    const [key, label] = keyLabel(r, dim);
    if ((r.g & 0b10000) === 0) daily.push({ day: r.day as string, dim, key, label, n: r.n, pages: r.pages ?? 0 });
    else if (dim === 'project') projects.push({ id: r.project_id as string, name: label, documents: r.n });
    else totals[dim][key ?? UNCLASSIFIED] = r.n;
  }
  daily.sort((a, b) =>
    a.day < b.day
      ? -1
      : a.day > b.day
        ? 1
        : order.indexOf(a.dim) - order.indexOf(b.dim) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  );
  projects.sort((a, b) => b.documents - a.documents || (a.name < b.name ? -1 : 1));

  await ctx.writer.section({
    name: 'daily',
    title: 'Documents per day',
    columns: [
      { key: 'day', label: 'Day', type: 'date' },
      { key: 'dimension', label: 'Dimension', type: 'string' },
      { key: 'key', label: 'Key', type: 'string' },
      { key: 'label', label: 'Label', type: 'string' },
      { key: 'documents', label: 'Documents', type: 'integer' },
      { key: 'pages', label: 'Pages', type: 'integer' },
    ],
  });
  for (const r of daily) await ctx.writer.row([r.day, r.dim, r.key, r.label, r.n, r.pages]);

  return {
    documents: grand.documents,
    pages: grand.pages,
    bytes: grand.bytes,
    days_with_documents: new Set(daily.map((r) => r.day)).size,
    by_status: totals.status,
    by_type: totals.type,
    by_source: totals.source,
    by_project: projects,
  };
};
