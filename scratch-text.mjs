import { createDb } from './dist/src/db/client.js';
const db = await createDb({ url: `postgres://postgres@127.0.0.1:5432/docpipe_scratch_sem`, poolSize: 2 });
let seed = 9; const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const base = 'invoice payment contract agreement receipt total amount due date customer supplier party term notice clause delivery order item quantity price tax account bank transfer reference project report meeting schedule review approval budget cost service product warranty liability insurance policy claim period annual monthly quarter revenue expense balance credit debit statement address phone email office manager director employee salary benefit leave training research paper method result analysis data model figure table section chapter appendix summary conclusion introduction abstract'.split(' ');
const V = [...base]; for (let i = 0; V.length < 6000; i++) { let s = ''; const len = 4 + (i % 6); for (let j = 0; j < len; j++) s += 'bcdfghklmnprstvz'[Math.floor(rnd() * 16)] + 'aeiou'[Math.floor(rnd() * 5)]; V.push(s.slice(0, len)); }
const zipf = () => V[Math.min(V.length - 1, Math.floor(Math.exp(rnd() * Math.log(V.length))) - 1)];
for (let i = 0; i < 90000; i += 2000) {
  const rows = []; for (let j = i; j < i + 2000; j++) { const n = 80 + Math.floor(rnd() * 220); const ws = []; for (let k = 0; k < n; k++) ws.push(zipf()); rows.push({ id: 'gen_' + j, t: `Document ${j}. ${ws.join(' ')}.` }); }
  await db.query(`UPDATE documents d SET text_content = r.t, search_config = 'simple', search = setweight(to_tsvector('simple', r.t), 'A') FROM json_to_recordset($1::json) r(id text, t text) WHERE d.id = r.id`, [JSON.stringify(rows)]);
}
await db.query('VACUUM ANALYZE documents');
await db.close();
