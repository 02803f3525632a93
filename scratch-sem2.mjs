import { createDb } from './dist/src/db/client.js';
import { signBits } from './dist/src/modules/search/search.repository.js';
const db = await createDb({ url: `postgres://postgres@127.0.0.1:5432/docpipe_scratch_sem`, poolSize: 2 });
const rv = () => { const v = Array.from({ length: 384 }, () => Math.random() * 2 - 1); const n = Math.hypot(...v); return v.map((x) => x / n); };
const near = `near AS MATERIALIZED (SELECT s.document_id, s.chunk_index FROM chunk_signatures s WHERE s.org_id = $1 AND s.environment = $2 AND s.model_id = 'm' AND length(s.bits) = length($3::bit varying) ORDER BY bit_count(s.bits # $3::bit varying), s.document_id, s.chunk_index LIMIT 400)`;
const V = {
  nearOnly: `WITH ${near} SELECT * FROM near`,
  nearVec: `WITH ${near} SELECT c.document_id, array_send(c.embedding) v FROM near JOIN document_chunks c USING (document_id, chunk_index)`,
  nearVecDoc: `WITH ${near} SELECT d.id, d.filename, d.project_id, d.classification->>'type' AS classification, d.status, array_send(c.embedding) v FROM near JOIN document_chunks c USING (document_id, chunk_index) JOIN documents d ON d.id = c.document_id WHERE d.org_id=$1 AND d.environment=$2`,
  full: `WITH ${near} SELECT d.id, d.filename, d.project_id, d.classification->>'type' AS classification, d.status, c.content, array_send(c.embedding) v FROM near JOIN document_chunks c USING (document_id, chunk_index) JOIN documents d ON d.id = c.document_id WHERE d.org_id=$1 AND d.environment=$2`,
};
for (let round = 0; round < 2; round++)
for (const [k, sql] of Object.entries(V)) {
  const ms = [];
  for (let i = 0; i < 30; i++) { const t = performance.now(); await db.query(sql, ['org_bench', 'live', signBits(rv())]); ms.push(performance.now() - t); }
  ms.sort((a, b) => a - b);
  console.log(k.padEnd(12), 'p50', ms[15].toFixed(1), 'p95', ms[28].toFixed(1));
}
await db.close();
