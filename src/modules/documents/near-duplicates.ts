// Near-duplicates at intake: once the parse stage has the text, its fingerprint's LSH band keys
// find the organization's candidates through a GIN index (a lookup, not a scan), the weighted
// comparison (src/pipeline/dedup) picks the closest, and the parse commit stores the
// fingerprint and `duplicate_of` together. The project decides what a near-duplicate means:
// keep it (flagged), stop it in needs_review, or fail it.
import { ARRAYS_PLAN_FREE, PLAN_EACH_CALL, type Db, type Queryable } from '../../db/client.js';
import { PermanentError } from '../../lib/errors.js';
import {
  BANDS,
  compareCandidates,
  differentIdentifiers,
  fingerprint,
  identifiers,
  MAX_CHARS,
  MIN_SHARED_SLOTS,
  MIN_SHINGLES,
  NEAR_DUPLICATE_THRESHOLD,
  ROWS,
  sampleLevel,
  type Fingerprint,
} from '../../pipeline/dedup/index.js';
import type { DocumentRow, DuplicateOf } from './documents.types.js';
import type { StageCompute } from './stage-runner.js';

/** Candidates compared at most (those sharing the most bands first). */
const MAX_CANDIDATES = 100;
/** Similar candidates whose identifiers are checked at most (best first). */
const MAX_VERIFIED = 5;
/**
 * Candidates ranked beyond MAX_CANDIDATES before failed documents are left out: the ranking reads
 * the fingerprint table alone, and only these rows meet the documents table.
 */
const FAILED_SPARE = 50;
/** The first query parameter that holds one band key (the 16 follow one another). */
const FIRST_BAND_PARAM = 7;
/**
 * How many bands a candidate shares with the text. Band i's key is hashed with i, so it can only
 * ever equal the text's band i: 16 comparisons of one column each, instead of a subquery that
 * unnests the candidate's keys and searches the text's 16 for each (a tenth of the cost per
 * candidate, and a lookup meets every earlier document of a common template). Never NULL, even
 * for a short array.
 */
const SHARED_BANDS = `(${Array.from({ length: BANDS }, (_, i) => `(m.band_keys[${i + 1}] IS NOT DISTINCT FROM $${FIRST_BAND_PARAM + i}::bigint)::int`).join(' + ')})`;

/** PostgreSQL's text form of an int[] ('{1,-2,3}'). */
const parseIntArray = (text: string): number[] => JSON.parse(`[${text.slice(1, -1)}]`) as number[];

export function createNearDuplicates(db: Queryable & { kind?: Db['kind'] }) {
  // Prepared on PostgreSQL: always 16 band keys and 64 slots, and the band index is the only way in,
  // so the generic plan is the custom one (checked at 100,000 documents with force_generic_plan),
  // and planning was ~0.3 ms of every check's wait; autoanalyze re-plans as the table grows. Not on
  // PGlite, which never analyzes: a generic plan made while the table was small would stay.
  const planning = db.kind === 'postgres' ? ARRAYS_PLAN_FREE : PLAN_EACH_CALL;
  return {
    /** The fingerprint of a document's text and the earlier document it nearly repeats, if any. */
    async check(
      doc: Pick<DocumentRow, 'id' | 'org_id' | 'environment'>,
      text: string,
    ): Promise<{ fp: Fingerprint | null; match: DuplicateOf | null }> {
      const fp = fingerprint(text, `${doc.org_id}/${doc.environment}`);
      if (!fp || fp.shingles < MIN_SHINGLES) return { fp: null, match: null };
      // The sketches come as text and are parsed with JSON.parse: the driver's int[] parser was
      // two thirds of the check's CPU (2.5 of 3.9 ms per document at 100k documents). They come
      // at all only when some candidate shares MIN_SHARED_SLOTS signature slots: most lookups
      // find chance band collisions only, and then the answer is a few short rows. A candidate
      // sharing enough whole bands settles that without counting slots (EXISTS stops at the first
      // row that does; the best-banded come first).
      const { rows } = await db.query<{ id: string; sketch: string | null; shingles: number; flagged: boolean }>(
        `${planning}
         WITH c AS MATERIALIZED (
                SELECT b.id, b.sketch, b.shingles, b.signature, b.bands,
                       d.duplicate_of IS NOT NULL AS flagged, d.created_at
                  FROM (SELECT m.document_id AS id, m.sketch, m.shingles, m.signature, ${SHARED_BANDS} AS bands
                          FROM document_minhash m
                         WHERE m.band_keys && $1::bigint[] AND m.org_id = $2 AND m.environment = $3
                           AND m.document_id <> $4
                         ORDER BY bands DESC, m.document_id
                         LIMIT ${MAX_CANDIDATES + FAILED_SPARE}) b
                  JOIN documents d ON d.id = b.id AND d.status <> 'failed'
                 ORDER BY b.bands DESC, d.created_at
                 LIMIT ${MAX_CANDIDATES}),
              near AS (SELECT EXISTS (SELECT 1 FROM c
                                       WHERE c.bands * ${ROWS} >= $5
                                          OR (SELECT count(*) FROM unnest(c.signature, $6::int[]) AS s(a, b) WHERE a = b) >= $5) AS yes)
         SELECT c.id, CASE WHEN near.yes THEN c.sketch::text END AS sketch, c.shingles, c.flagged
           FROM c, near
          ORDER BY c.bands DESC, c.created_at`,
        [fp.bandKeys, doc.org_id, doc.environment, doc.id, MIN_SHARED_SLOTS, fp.signature, ...fp.bandKeys],
      );
      if (rows.length === 0 || rows[0].sketch === null) return { fp, match: null };
      const ranked = compareCandidates(
        fp,
        rows.map((r) => ({
          id: r.id,
          sample: parseIntArray(r.sketch!),
          level: sampleLevel(r.shingles),
          flagged: r.flagged,
        })),
      );
      // The similar candidates are read whole only now (rarely: most documents have none): one
      // that names other identifiers (its own invoice or receipt number) is another document.
      const similar = ranked.filter((c) => c.similarity >= NEAR_DUPLICATE_THRESHOLD).slice(0, MAX_VERIFIED);
      if (similar.length === 0) return { fp, match: null };
      const texts = await db.query<{ id: string; text: string }>(
        `SELECT id, left(coalesce(text_content, ''), ${MAX_CHARS * 2}) AS text FROM documents WHERE id = ANY($1::text[])`,
        [similar.map((c) => c.id)],
      );
      const byId = new Map(texts.rows.map((r) => [r.id, r.text]));
      const own = identifiers(text);
      const best = similar.find((c) => !differentIdentifiers(own, identifiers(byId.get(c.id) ?? '')));
      const match = best
        ? { id: best.id, similarity: Math.round(best.similarity * 1000) / 1000, method: 'minhash' as const }
        : null;
      return { fp, match };
    },
  };
}

export type NearDuplicates = ReturnType<typeof createNearDuplicates>;

/** The statement part that stores (or, for a text too short, removes) a document's fingerprint. */
function storeFingerprint(fp: Fingerprint | null): (param: (value: unknown) => string) => string[] {
  return (p) =>
    fp
      ? [
          `nd AS (INSERT INTO document_minhash (document_id, org_id, environment, signature, sketch, shingles, band_keys)
            SELECT u.id, u.org_id, u.environment, ${p(fp.signature)}::int[], ${p(fp.sample)}::int[], ${p(fp.shingles)}::int, ${p(fp.bandKeys)}::bigint[] FROM u
            ON CONFLICT (document_id) DO UPDATE SET signature = EXCLUDED.signature, sketch = EXCLUDED.sketch,
              shingles = EXCLUDED.shingles, band_keys = EXCLUDED.band_keys)`,
        ]
      : [`nd AS (DELETE FROM document_minhash WHERE document_id = (SELECT id FROM u))`];
}

/** The parse stage with near-duplicate detection after it (the project's on_near_duplicate applies). */
export function withNearDuplicates(parse: StageCompute, nd: NearDuplicates): StageCompute {
  return async (doc, project, context) => {
    const out = await parse(doc, project, context);
    const text = typeof out.cols.text_content === 'string' ? out.cols.text_content : '';
    const { fp, match } = await nd.check(doc, text);
    const action = project?.on_near_duplicate ?? 'keep';
    if (match && action === 'reject')
      throw new PermanentError(
        'NEAR_DUPLICATE',
        `Near-duplicate of document ${match.id} (similarity ${match.similarity}); the project rejects near-duplicates`,
      );
    const before = out.cte;
    const notes = [out.note, match ? `possible duplicate of ${match.id} (similarity ${match.similarity})` : undefined];
    return {
      ...out,
      cols: { ...out.cols, duplicate_of: match },
      cte: (p) => [...(before?.(p) ?? []), ...storeFingerprint(fp)(p)],
      note: notes.filter(Boolean).join('; ') || undefined,
      needsReview: out.needsReview || (match !== null && action === 'review'),
    };
  };
}
