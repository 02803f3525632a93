import { embedDocument, type Embedder } from '../../../pipeline/embed/index.js';
import type { StageCompute } from '../stage-runner.js';

/**
 * Embeds text chunks. When no model can be loaded the stage records why and the document
 * continues; `reprocess --stage embed --missing` catches up once a model is available.
 */
export function embedStage(deps: {
  embedder: () => Promise<Embedder | null>;
  unavailableReason: () => string | undefined;
}): StageCompute {
  return async (doc) => {
    const embedder = await deps.embedder();
    if (!embedder) {
      const reason = deps.unavailableReason() ?? 'model unavailable';
      return {
        cols: {},
        note: `embedding skipped: ${reason}`,
        skipped: { code: 'EMBEDDING_UNAVAILABLE', message: reason },
      };
    }
    const text = doc.text_content ?? '';
    const r = await embedDocument(text, embedder);
    return {
      cols: { embedding: r.documentVector, embedding_model: r.modelId, embedded_at: new Date() },
      note: r.totalChunks > r.chunks.length ? `embedded ${r.chunks.length} of ${r.totalChunks} chunks` : undefined,
      // Chunks are replaced in the stage's own statement: new ones upserted, every other chunk
      // of the document deleted (indexes need not be 0..n-1: long texts are sampled).
      cte: (p) => {
        // The kept indexes travel as JSON rather than an array parameter so that this statement
        // is prepared like the other stage commits (see ARRAY_PARAMS in db/client.ts): its plan
        // is by document id, whatever the number of chunks.
        const keep = p(JSON.stringify(r.chunks.map((c) => c.index)));
        const out = [
          `chunks_gone AS (DELETE FROM document_chunks WHERE document_id = (SELECT id FROM u)
          AND chunk_index NOT IN (SELECT k::int FROM jsonb_array_elements_text(${keep}::jsonb) AS k))`,
        ];
        if (r.chunks.length > 0) {
          out.push(`chunks_new AS (INSERT INTO document_chunks (document_id, chunk_index, content, embedding, model_id)
            SELECT u.id, c.i, c.t, (SELECT array_agg(x::real) FROM json_array_elements_text(c.v) AS x), ${p(r.modelId)}
            FROM u, json_to_recordset(${p(JSON.stringify(r.chunks.map((c) => ({ i: c.index, t: c.text, v: c.vector }))))}::json) AS c(i int, t text, v json)
            ON CONFLICT (document_id, chunk_index) DO UPDATE SET content = EXCLUDED.content, embedding = EXCLUDED.embedding, model_id = EXCLUDED.model_id)`);
        }
        return out;
      },
    };
  };
}
