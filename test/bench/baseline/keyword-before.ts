// Keyword search's SQL as it was before 2026-11-29, kept as the search bench's same-run baseline:
// the six languages' queries OR'ed as they come (repeats included), and the first 1,000 matches
// ranked after a join back to documents.
import type { Db } from '../../../src/db/client.js';
import { SEARCH_CHARS, SEARCH_CONFIGS } from '../../../src/lib/text-search.js';
import { HEADLINE_OPTIONS, HEADLINE_STRIP } from '../../../src/modules/search/highlight.js';

export async function keywordBefore(
  db: Db,
  scope: { orgId: string; environment: string },
  q: string,
  limit: number,
): Promise<number> {
  const words = `(${SEARCH_CONFIGS.map((c) => `websearch_to_tsquery('${c}', $3::text)`).join(' || ')})`;
  const { rows } = await db.query(
    `WITH q AS MATERIALIZED (SELECT ${words} AS query),
     cand AS MATERIALIZED (
       SELECT d.id FROM documents d
        WHERE d.org_id = $1 AND d.environment = $2 AND d.search @@ (SELECT query FROM q) LIMIT 1000),
     hits AS (
       SELECT d.id, ts_rank_cd(d.search, q.query, 32) AS score, d.created_at
         FROM cand JOIN documents d ON d.id = cand.id, q
        ORDER BY score DESC, d.created_at DESC, d.id LIMIT $4::int)
     SELECT d.id, hits.score,
       ts_headline(coalesce(d.search_config, 'simple')::regconfig,
         translate(left(coalesce(d.text_content, ''), ${SEARCH_CHARS}), $5::text, ''), q.query, $6::text) AS headline
       FROM hits JOIN documents d ON d.id = hits.id, q
      ORDER BY hits.score DESC, hits.created_at DESC, d.id`,
    [scope.orgId, scope.environment, q, limit, HEADLINE_STRIP, HEADLINE_OPTIONS],
  );
  return rows.length;
}
