// scratch: semantic breakdown on PostgreSQL at 100k (not committed)
import pg from 'pg';
import { createDb } from './dist/src/db/client.js';
import { migrate } from './dist/src/db/migrate.js';
import { createSearchRepository } from './dist/src/modules/search/search.repository.js';
const name = 'docpipe_scratch_sem';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname=$1', [name])).rowCount;
if (!exists) await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const db = await createDb({ url: `postgres://postgres@127.0.0.1:5432/${name}`, poolSize: 2 });
if (!exists) {
  await migrate(db);
  await db.query(`INSERT INTO organizations (id, name, plan) VALUES ('org_bench','o','enterprise')`);
  await db.query(`INSERT INTO projects (id, org_id, environment, name) VALUES ('prj','org_bench','live','B')`);
  const t = Date.now();
  for (let i = 0; i < 90000; i += 5000) {
    await db.query(`INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, status, text_content, embedding, embedding_model)
      SELECT 'gen_'||g, 'org_bench','live','prj','f.txt','text/plain',1,md5(g::text),'k','completed', repeat('word ', 200), NULL, 'm' FROM generate_series($1::int, $2::int) g`, [i, i + 4999]);
    await db.query(`WITH v AS (SELECT g, (SELECT array_agg(random()*2-1)::real[] FROM generate_series(1,384) WHERE g>=0) a FROM generate_series($1::int,$2::int) g),
      n AS (SELECT g, a, sqrt((SELECT sum(x*x) FROM unnest(a) x)) AS len FROM v)
      INSERT INTO document_chunks (document_id, chunk_index, content, embedding, model_id)
      SELECT 'gen_'||g, 0, repeat('chunk text ', 100), (SELECT array_agg(x/len) FROM unnest(a) x)::real[], 'm' FROM n`, [i, i + 4999]);
  }
  await db.query('ANALYZE');
  console.log('loaded', (Date.now() - t) / 1000, 's');
}
const repo = createSearchRepository(db);
const rv = () => { const v = Array.from({ length: 384 }, () => Math.random() * 2 - 1); const n = Math.hypot(...v); return v.map((x) => x / n); };
const scope = { orgId: 'org_bench', environment: 'live' };
const ms = [];
for (let i = 0; i < 40; i++) { const t = performance.now(); await repo.semanticSigned(scope, {}, rv(), 'm', 20, 0); ms.push(performance.now() - t); }
ms.sort((a, b) => a - b);
console.log('semanticSigned limit 20: p50', ms[20].toFixed(1), 'p95', ms[38].toFixed(1));
await db.close();
