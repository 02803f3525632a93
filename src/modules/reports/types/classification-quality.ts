// classification_quality: the machine's confidence distribution, how often documents went to
// review, and what people corrected (predicted type → confirmed type), for the documents
// uploaded in the period that have a classification. A person's correction keeps the
// machine's prediction (documents.classification.predicted), so the numbers survive it.
import { documentScope, Params, round, type ReportQuery } from './context.js';

/** The per-document facts, computed in SQL over the classification jsonb. */
const DOC_SQL = (where: string) => `
  SELECT
    coalesce(d.classification->'predicted'->>'type', CASE WHEN d.classification->>'method' <> 'manual' THEN d.classification->>'type' END) AS predicted_type,
    coalesce((d.classification->'predicted'->>'confidence')::float8,
      CASE WHEN d.classification->>'method' <> 'manual' THEN (d.classification->>'confidence')::float8 END) AS confidence,
    d.classification->>'type' AS final_type,
    coalesce((d.classification->>'confirmed')::boolean, false) AS confirmed,
    (d.status = 'needs_review' OR coalesce((d.classification->'predicted'->>'needs_review')::boolean, false)) AS reviewed
  FROM documents d WHERE ${where} AND d.classification IS NOT NULL`;

export const classificationQuality: ReportQuery = async (ctx) => {
  const p = new Params();
  const docs = `(${DOC_SQL(documentScope(ctx, p))}) x`;
  const [buckets, types, corrections] = await Promise.all([
    ctx.db.query<{ bucket: number; n: number }>(
      `SELECT least(floor(confidence * 10), 9)::int AS bucket, count(*) AS n FROM ${docs} WHERE confidence IS NOT NULL GROUP BY 1 ORDER BY 1`,
      p.values,
    ),
    ctx.db.query<{
      type: string;
      n: number;
      mean: number | null;
      reviewed: number;
      confirmed: number;
      corrected: number;
    }>(
      `SELECT predicted_type AS type, count(*) AS n, avg(confidence) AS mean, count(*) FILTER (WHERE reviewed) AS reviewed,
         count(*) FILTER (WHERE confirmed) AS confirmed, count(*) FILTER (WHERE confirmed AND final_type <> predicted_type) AS corrected
       FROM ${docs} WHERE predicted_type IS NOT NULL GROUP BY 1 ORDER BY n DESC, 1`,
      p.values,
    ),
    ctx.db.query<{ predicted: string | null; confirmed: string; n: number }>(
      `SELECT predicted_type AS predicted, final_type AS confirmed, count(*) AS n FROM ${docs}
       WHERE confirmed GROUP BY 1, 2 ORDER BY n DESC, 1, 2`,
      p.values,
    ),
  ]);

  const total = buckets.rows.reduce((a, r) => a + r.n, 0);
  await ctx.writer.section({
    name: 'confidence',
    title: 'Confidence distribution',
    columns: [
      { key: 'from', label: 'From', type: 'number' },
      { key: 'to', label: 'To', type: 'number' },
      { key: 'documents', label: 'Documents', type: 'integer' },
      { key: 'share', label: 'Share', type: 'number' },
    ],
  });
  const counts = new Map(buckets.rows.map((r) => [r.bucket, r.n]));
  for (let b = 0; b < 10; b++) {
    const n = counts.get(b) ?? 0;
    await ctx.writer.row([b / 10, (b + 1) / 10, n, total ? round(n / total, 4) : 0]);
  }

  await ctx.writer.section({
    name: 'types',
    title: 'By predicted type',
    columns: [
      { key: 'type', label: 'Predicted type', type: 'string' },
      { key: 'documents', label: 'Documents', type: 'integer' },
      { key: 'mean_confidence', label: 'Mean confidence', type: 'number' },
      { key: 'needs_review', label: 'Sent to review', type: 'integer' },
      { key: 'review_rate', label: 'Review rate', type: 'number' },
      { key: 'confirmed', label: 'Confirmed by a person', type: 'integer' },
      { key: 'corrected', label: 'Corrected by a person', type: 'integer' },
      { key: 'correction_rate', label: 'Correction rate', type: 'number' },
    ],
  });
  for (const r of types.rows) {
    await ctx.writer.row([
      r.type,
      r.n,
      round(r.mean, 4),
      r.reviewed,
      round(r.reviewed / r.n, 4),
      r.confirmed,
      r.corrected,
      round(r.corrected / r.n, 4),
    ]);
  }

  await ctx.writer.section({
    name: 'corrections',
    title: 'Corrections (predicted → confirmed)',
    columns: [
      { key: 'predicted_type', label: 'Predicted', type: 'string' },
      { key: 'confirmed_type', label: 'Confirmed', type: 'string' },
      { key: 'documents', label: 'Documents', type: 'integer' },
      { key: 'changed', label: 'Changed', type: 'string' },
    ],
  });
  for (const r of corrections.rows)
    await ctx.writer.row([r.predicted, r.confirmed, r.n, r.predicted === r.confirmed ? 'no' : 'yes']);

  const predicted = types.rows.reduce((a, r) => a + r.n, 0);
  const reviewed = types.rows.reduce((a, r) => a + r.reviewed, 0);
  const corrected = types.rows.reduce((a, r) => a + r.corrected, 0);
  const meanAll = predicted ? types.rows.reduce((a, r) => a + (r.mean ?? 0) * r.n, 0) / predicted : null;
  return {
    classified: predicted,
    mean_confidence: round(meanAll, 4),
    needs_review: reviewed,
    review_rate: predicted ? round(reviewed / predicted, 4) : null,
    confirmed: corrections.rows.reduce((a, r) => a + r.n, 0),
    corrected,
    correction_rate: predicted ? round(corrected / predicted, 4) : null,
    manual_only: corrections.rows.filter((r) => r.predicted === null).reduce((a, r) => a + r.n, 0),
  };
};
