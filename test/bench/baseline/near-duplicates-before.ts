// The near-duplicate check's band lookup as it was before 2026-11-29 (evening), kept as the search
// bench's same-run baseline: every candidate's sample comes back and is compared, whether or not
// any candidate is near. Fingerprint, comparison and identifier check are today's.
import type { Queryable } from '../../../src/db/client.js';
import {
  compareCandidates,
  differentIdentifiers,
  fingerprint,
  identifiers,
  MAX_CHARS,
  MIN_SHINGLES,
  NEAR_DUPLICATE_THRESHOLD,
  sampleLevel,
} from '../../../src/pipeline/dedup/index.js';

const parseIntArray = (text: string): number[] => JSON.parse(`[${text.slice(1, -1)}]`) as number[];

export function nearDuplicatesBefore(db: Queryable) {
  return {
    async check(
      doc: { id: string; org_id: string; environment: string },
      text: string,
    ): Promise<{ id: string; similarity: number } | null> {
      const fp = fingerprint(text, `${doc.org_id}/${doc.environment}`);
      if (!fp || fp.shingles < MIN_SHINGLES) return null;
      const { rows } = await db.query<{ id: string; sketch: string; shingles: number; flagged: boolean }>(
        `SELECT m.document_id AS id, m.sketch::text AS sketch, m.shingles, d.duplicate_of IS NOT NULL AS flagged
           FROM document_minhash m JOIN documents d ON d.id = m.document_id
          WHERE m.band_keys && $1::bigint[] AND m.org_id = $2 AND m.environment = $3 AND m.document_id <> $4
            AND d.status <> 'failed'
          ORDER BY (SELECT count(*) FROM unnest(m.band_keys) AS k WHERE k = ANY($1::bigint[])) DESC, d.created_at
          LIMIT 100`,
        [fp.bandKeys, doc.org_id, doc.environment, doc.id],
      );
      if (rows.length === 0) return null;
      const ranked = compareCandidates(
        fp,
        rows.map((r) => ({
          id: r.id,
          sample: parseIntArray(r.sketch),
          level: sampleLevel(r.shingles),
          flagged: r.flagged,
        })),
      );
      const similar = ranked.filter((c) => c.similarity >= NEAR_DUPLICATE_THRESHOLD).slice(0, 5);
      if (similar.length === 0) return null;
      const texts = await db.query<{ id: string; text: string }>(
        `SELECT id, left(coalesce(text_content, ''), ${MAX_CHARS * 2}) AS text FROM documents WHERE id = ANY($1::text[])`,
        [similar.map((c) => c.id)],
      );
      const byId = new Map(texts.rows.map((r) => [r.id, r.text]));
      const own = identifiers(text);
      return similar.find((c) => !differentIdentifiers(own, identifiers(byId.get(c.id) ?? ''))) ?? null;
    },
  };
}
