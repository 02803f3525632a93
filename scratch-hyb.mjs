import { createDb } from './dist/src/db/client.js';
import { createSearchRepository } from './dist/src/modules/search/search.repository.js';
import { createSearchService } from './dist/src/modules/search/search.service.js';
const db = await createDb({ url: `postgres://postgres@127.0.0.1:5432/docpipe_scratch_sem`, poolSize: Number(process.env.POOL ?? 2) });
const rv = () => { const v = Array.from({ length: 384 }, () => Math.random() * 2 - 1); const n = Math.hypot(...v); return v.map((x) => x / n); };
const embedder = { modelId: 'm', embed: async (qs) => qs.map(() => rv()) };
const svc = createSearchService({ repo: createSearchRepository(db), embedder: async () => embedder, modelReady: () => true });
const texts = (await db.query(`SELECT text_content FROM documents ORDER BY random() LIMIT 60`)).rows.map((r) => r.text_content.split(' '));
const queries = texts.map((t) => { const at = 2 + Math.floor(Math.random() * (t.length - 6)); return t.slice(at, at + 2).join(' '); });
const scope = { orgId: 'org_bench', environment: 'live' };
for (let round = 0; round < 2; round++)
for (const mode of ['keyword', 'semantic', 'hybrid']) {
  const ms = [];
  for (const q of queries) { const t = performance.now(); await svc.search(scope, { q, mode, limit: 20, offset: 0 }); ms.push(performance.now() - t); }
  ms.sort((a, b) => a - b);
  console.log(mode.padEnd(10), 'p50', ms[30].toFixed(1), 'p95', ms[57].toFixed(1));
}
await db.close();
