// `npm run bench -- search [documents] [--pglite-only|--postgres-only] [--intake-only|--keyword-caps|--vector-index]`: search quality and cost.
//
// 1. Known-item search on the dev corpus (../shared/corpora/dev: contracts, e-mails, invoices,
//    papers, résumés, receipts): the query is a document's most distinctive three-word window
//    (highest summed IDF), typed as plain words; the rank of that document is read for keyword,
//    semantic and hybrid search. MRR, hit@1 and recall@10.
// 2. Latency p50/p95 at N generated documents (default 20,000; one chunk each, 384-dimension
//    vectors): keyword search, the old `GET /documents?q=` filter as the baseline, semantic by
//    exact scan and by HNSW (where pgvector exists), hybrid; recall@10 of HNSW against the exact
//    scan; the index's build time and size.
// 3. Near-duplicates on constructed pairs: every dev receipt with an OCR-noisy and a re-encoded
//    copy (positives) and every pair of distinct receipts of one merchant (negatives), through the
//    intake check (band lookup in the database + weighted comparison). Every pair is printed.
// 4. Intake cost: the near-duplicate check per document at N documents against the document
//    insert (intake without it).
//
// The stored vectors of the generated documents are random unit vectors (no pretrained model can
// be fetched here; random vectors are the hard case for HNSW recall). Query vectors come from the
// generated tiny model (real tokenizer + ONNX path, 384 dims): its vectors carry no meaning, so
// semantic and hybrid *quality* numbers are printed but only a real model makes them telling.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb, type Db, type Queryable } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createDocumentsRepository } from '../../src/modules/documents/documents.repository.js';
import { createNearDuplicates } from '../../src/modules/documents/near-duplicates.js';
import { createSearchRepository } from '../../src/modules/search/search.repository.js';
import { createSearchService, type SearchMode } from '../../src/modules/search/search.service.js';
import { createVectorIndex, indexNames } from '../../src/modules/search/vector-index.js';
import { searchVectorSql, searchConfigFor } from '../../src/lib/text-search.js';
import { createTransformersEmbedder, type Embedder } from '../../src/pipeline/embed/index.js';
import { fingerprint } from '../../src/pipeline/dedup/index.js';
import { DEV_CORPUS } from '../helpers/classify-dev.js';
import { ocrNoisy } from '../helpers/dedup-dev.js';
import { generateTinyModel } from '../helpers/tiny-model.js';
import { nearDuplicatesBefore } from './baseline/near-duplicates-before.js';
import { keywordBefore } from './baseline/keyword-before.js';
import { benchPostgres, benchTmpDir, table } from './harness.js';

const DIMS = 384;
const QUERIES = 100;
const ORG = 'org_bench';
const OTHER = 'org_other';
const SCOPE = { orgId: ORG, environment: 'live' as const };

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
let seed = 42;
const rnd = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const unit = (v: number[]) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const randomVector = () => unit(Array.from({ length: DIMS }, () => rnd() * 2 - 1));

interface DevDoc {
  id: string;
  text: string;
  group: string;
}

function loadDev(): DevDoc[] {
  const out: DevDoc[] = [];
  const classify = join(DEV_CORPUS, 'classify');
  if (existsSync(classify))
    for (const type of readdirSync(classify, { withFileTypes: true }).filter((d) => d.isDirectory()))
      for (const f of readdirSync(join(classify, type.name))
        .filter((f) => f.endsWith('.txt'))
        .sort())
        out.push({
          id: `${type.name}/${f}`,
          text: readFileSync(join(classify, type.name, f), 'utf8'),
          group: type.name,
        });
  const sroie = join(DEV_CORPUS, 'sroie');
  if (existsSync(sroie))
    for (const f of readdirSync(sroie)
      .filter((f) => f.endsWith('.txt'))
      .sort()) {
      const meta = JSON.parse(readFileSync(join(sroie, f.replace(/\.txt$/, '.json')), 'utf8')) as { company: string };
      out.push({
        id: `sroie/${f}`,
        text: readFileSync(join(sroie, f), 'utf8'),
        group: `merchant:${meta.company
          .toUpperCase()
          .replace(/[^A-Z]/g, '')
          .slice(0, 12)}`,
      });
    }
  return out;
}

/**
 * The words a person would type: whitespace-separated tokens of letters only (punctuation at the
 * ends dropped). Host names, message ids and codes are left out: the full-text parser keeps them
 * whole, and nobody types a fragment of one.
 */
const words = (t: string) =>
  t
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[("'[]+|[)"'\].,;:!?]+$/g, ''))
    .filter((w) => /^\p{L}{3,}$/u.test(w));

/**
 * The three-word window with the highest summed IDF (words of the corpus, not numbers) that no
 * other document holds (receipts of one shop repeat whole lines: such a phrase names no single
 * document). Null when every window is shared.
 */
function distinctivePhrase(doc: DevDoc, df: Map<string, number>, n: number, others: string[]): string | null {
  const w = words(doc.text.slice(0, 20_000));
  const windows: { phrase: string; score: number }[] = [];
  for (let i = 0; i + 3 <= w.length; i++) {
    const win = w.slice(i, i + 3);
    windows.push({ phrase: win.join(' '), score: win.reduce((a, x) => a + Math.log(n / (df.get(x) ?? 1)), 0) });
  }
  windows.sort((a, b) => b.score - a.score);
  for (const c of windows.slice(0, 200)) if (!others.some((o) => ` ${o} `.includes(` ${c.phrase} `))) return c.phrase;
  return null;
}

// --- generated documents ----------------------------------------------------------------------
const VOCAB = (() => {
  const base =
    'invoice payment contract agreement receipt total amount due date customer supplier party term notice clause delivery order item quantity price tax account bank transfer reference project report meeting schedule review approval budget cost service product warranty liability insurance policy claim period annual monthly quarter revenue expense balance credit debit statement address phone email office manager director employee salary benefit leave training research paper method result analysis data model figure table section chapter appendix summary conclusion introduction abstract'.split(
      ' ',
    );
  const out = [...base];
  // Made-up words stand for the long tail (names, products, places).
  for (let i = 0; out.length < 6000; i++) {
    let s = '';
    const len = 4 + (i % 6);
    for (let j = 0; j < len; j++) s += 'bcdfghklmnprstvz'[Math.floor(rnd() * 16)] + 'aeiou'[Math.floor(rnd() * 5)];
    out.push(s.slice(0, len));
  }
  return out;
})();
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.exp(rnd() * Math.log(VOCAB.length))) - 1)];
function generatedText(i: number): string {
  const n = 80 + Math.floor(rnd() * 220);
  const ws: string[] = [];
  for (let k = 0; k < n; k++) ws.push(zipf());
  return `Document ${i}. ${ws.join(' ')}. Total ${(rnd() * 10000).toFixed(2)} EUR.`;
}

// --- database set-up ----------------------------------------------------------------------------
async function setUp(db: Db): Promise<void> {
  await migrate(db);
  for (const org of [ORG, OTHER]) {
    await db.query(`INSERT INTO organizations (id, name, plan) VALUES ($1, $1, 'enterprise')`, [org]);
    await db.query(`INSERT INTO projects (id, org_id, environment, name) VALUES ($1, $2, 'live', 'Bench')`, [
      `prj_${org}`,
      org,
    ]);
  }
}

interface NewDoc {
  id: string;
  org: string;
  text: string;
  vector?: number[];
  language?: string;
  minhash?: boolean;
}

/** Inserts documents as the pipeline leaves them (text, tsvector, chunk vector, fingerprint). */
async function insertDocs(db: Db, docs: NewDoc[], modelId: string): Promise<void> {
  const rows = docs.map((d) => ({
    id: d.id,
    org: d.org,
    text: d.text,
    config: searchConfigFor(d.language),
    vector: d.vector ?? null,
  }));
  await db.query(
    `WITH r AS (SELECT * FROM json_to_recordset($1::json) AS r(id text, org text, text text, config text, vector real[]))
     INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key,
        status, text_content, search_config, search, embedding, embedding_model)
     SELECT r.id, r.org, 'live', 'prj_' || r.org, r.id || '.txt', 'text/plain', length(r.text), md5(r.id), r.id,
        'completed', r.text, r.config, ${searchVectorSql('r.text', 'r.config')}, r.vector,
        CASE WHEN r.vector IS NULL THEN NULL ELSE $2 END
       FROM r`,
    [JSON.stringify(rows.map((r) => ({ ...r, vector: r.vector ? `{${r.vector.join(',')}}` : null }))), modelId],
  );
  const chunks = rows.filter((r) => r.vector);
  if (chunks.length)
    await db.query(
      `INSERT INTO document_chunks (document_id, chunk_index, content, embedding, model_id)
       SELECT r.id, 0, left(r.text, 500), r.vector, $2
         FROM json_to_recordset($1::json) AS r(id text, text text, vector real[])`,
      [JSON.stringify(chunks.map((r) => ({ id: r.id, text: r.text, vector: `{${r.vector!.join(',')}}` }))), modelId],
    );
  const prints = docs
    .filter((d) => d.minhash !== false)
    .map((d) => ({ d, fp: fingerprint(d.text, `${d.org}/live`) }))
    .filter((x) => x.fp);
  if (prints.length)
    await db.query(
      `INSERT INTO document_minhash (document_id, org_id, environment, signature, sketch, shingles, band_keys)
       SELECT r.id, r.org, 'live', r.signature, r.sketch, r.shingles, r.band_keys
         FROM json_to_recordset($1::json) AS r(id text, org text, signature int[], sketch int[], shingles int, band_keys bigint[])`,
      [
        JSON.stringify(
          prints.map(({ d, fp }) => ({
            id: d.id,
            org: d.org,
            signature: `{${fp!.signature.join(',')}}`,
            sketch: `{${fp!.sample.join(',')}}`,
            shingles: fp!.shingles,
            band_keys: `{${fp!.bandKeys.join(',')}}`,
          })),
        ),
      ],
    );
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

/**
 * The keyword ranking cap's price and gain: for each cap, p50/p95 over the same two-word queries
 * (alternating caps query by query, so load drift hits all alike) and how many of the top 20 of
 * ranking every match (the baseline) each cap's top 20 keeps.
 */
async function keywordCapTradeOff(db: Db, n: number): Promise<void> {
  const caps = [2_000_000_000, 1000, 500, 200];
  const services = caps.map((cap) =>
    createSearchService({
      repo: createSearchRepository(db, { keywordCandidates: cap }),
      embedder: async () => null,
      modelReady: () => false,
      vectors: { usable: () => false },
    }),
  );
  const queries = Array.from({ length: QUERIES }, (_, i) => {
    const t = generatedText(n + i).split(' ');
    const at = 2 + Math.floor(rnd() * (t.length - 6));
    return t.slice(at, at + 2).join(' ');
  });
  const ms = caps.map(() => [] as number[]);
  const kept = caps.map(() => [] as number[]);
  for (const [i, q] of queries.entries()) {
    const tops: string[][] = [];
    // The order rotates query by query: whichever runs first pays for reading the pages.
    for (let k = 0; k < caps.length; k++) {
      const c = (k + i) % caps.length;
      const [r, t] = await timed(() => services[c].search(SCOPE, { q, mode: 'keyword', limit: 20, offset: 0 }));
      if (i >= 5) ms[c].push(t); // the first five warm plans and caches
      tops[c] = r.results.map((x) => x.document.id);
    }
    const full = new Set(tops[0]);
    for (const c of caps.keys()) kept[c].push(full.size ? tops[c].filter((id) => full.has(id)).length / full.size : 1);
  }
  console.log(`\nKeyword ranking cap at ${n.toLocaleString('en')} documents (${QUERIES} two-word queries, limit 20):`);
  table(
    caps.map((cap, c) => ({
      cap: cap === 2_000_000_000 ? 'none (baseline: every match ranked)' : cap,
      p50_ms: round(pct(ms[c], 50)),
      p95_ms: round(pct(ms[c], 95)),
      top20_kept: round(kept[c].reduce((a, b) => a + b, 0) / kept[c].length, 3),
    })),
  );
}

/**
 * Semantic and hybrid latency through the vector index — HNSW where the database has pgvector,
 * else the sign-bit prefilter at several candidate counts — and recall@10 against the exact top 10
 * of `stored` (computed in this process); the exact scan in SQL is timed on a few queries as the
 * baseline.
 */
/** The ids of the 10 stored vectors nearest to `q` by dot product (the exact answer), `skip` left out. */
function exactTop10(stored: { id: string; v: ArrayLike<number> }[], q: ArrayLike<number>, skip?: string): string[] {
  return stored
    .filter((d) => d.id !== skip)
    .map((d) => {
      let dot = 0;
      for (let k = 0; k < DIMS; k++) dot += d.v[k] * q[k];
      return { id: d.id, s: dot };
    })
    .sort((a, b) => b.s - a.s)
    .slice(0, 10)
    .map((d) => d.id);
}

async function vectorIndexRun(
  db: Db,
  service: (
    useHnsw: boolean,
    signatureCandidates?: number,
    semanticEfSearch?: number,
    hybridSignatureCandidates?: number,
  ) => ReturnType<typeof createSearchService>,
  embedder: Embedder,
  stored: { id: string; v: ArrayLike<number> }[],
  n: number,
  hnsw: boolean,
): Promise<void> {
  const queries = Array.from({ length: QUERIES }, (_, i) => {
    const t = generatedText(n + i).split(' ');
    const at = 2 + Math.floor(rnd() * (t.length - 6));
    return t.slice(at, at + 2).join(' ');
  });
  const qv = await embedder.embed(queries);
  const exactTop = qv.map((q) => exactTop10(stored, q));
  const rows: Record<string, string | number>[] = [];
  // Keyword alone on the same queries (hybrid's other half; limit 10 as below), alternated query by
  // query with the keyword SQL as it was before 2026-11-29 (baseline/keyword-before.ts).
  {
    const ms: number[] = [];
    const before: number[] = [];
    const now = (q: string): Promise<unknown> =>
      service(false).search(SCOPE, { q, mode: 'keyword', limit: 10, offset: 0 });
    const old = (q: string): Promise<unknown> => keywordBefore(db, SCOPE, q, 10);
    for (const [i, q] of queries.entries()) {
      const pair: [typeof now, number[]][] = [
        [now, ms],
        [old, before],
      ];
      for (const [fn, out] of i % 2 === 0 ? pair : pair.reverse()) {
        const [, t] = await timed(() => fn(q));
        if (i >= 5) out.push(t);
      }
    }
    rows.push({
      query: 'keyword before (six queries OR-ed, ranked after a join back)',
      p50_ms: round(pct(before, 50)),
      p95_ms: round(pct(before, 95)),
      recall_at_10: '–',
    });
    rows.push({
      query: 'keyword (ranked, highlights)',
      p50_ms: round(pct(ms, 50)),
      p95_ms: round(pct(ms, 95)),
      recall_at_10: '–',
    });
  }
  // HNSW at several ef_search floors in semantic mode (40: the depth-based width, 4 × 10 + 20 = 60
  // at limit 10, which hybrid uses; 400 is semantic mode's default). Hybrid does not depend on it.
  const variants: { label: string; svc: ReturnType<typeof createSearchService>; hybrid: boolean }[] = hnsw
    ? [40, 100, 200, 400].map((ef) => ({
        label: ef === 40 ? 'HNSW, ef_search 60 (depth-based, as in hybrid)' : `HNSW, ef_search ${ef}`,
        svc: service(true, undefined, ef),
        // Hybrid does not depend on the semantic floor: timed once.
        hybrid: ef === 400,
      }))
    : [200, 400, 800, 1600].map((k) => ({
        label: `sign-bit prefilter, ${k} candidates`,
        svc: service(false, k),
        hybrid: false,
      }));
  for (const v of variants) {
    for (const mode of ['semantic', 'hybrid'] as const) {
      if (mode === 'hybrid' && !v.hybrid) continue;
      const ms: number[] = [];
      let found = 0;
      for (const [i, q] of queries.entries()) {
        const [r, t] = await timed(() => v.svc.search(SCOPE, { q, mode, limit: 10, offset: 0 }));
        if (i >= 5) ms.push(t);
        const got = new Set(r.results.map((x) => x.document.id));
        found += exactTop[i].filter((id) => got.has(id)).length / 10;
      }
      rows.push({
        query:
          mode === 'hybrid'
            ? 'hybrid, HNSW (depth-based ef_search) (incl. query embedding)'
            : `${mode}, ${v.label} (incl. query embedding)`,
        p50_ms: round(pct(ms, 50)),
        p95_ms: round(pct(ms, 95)),
        recall_at_10: mode === 'semantic' ? round(found / QUERIES, 3) : '–',
      });
    }
  }
  // Hybrid without pgvector: its vector list from 200 sign-bit candidates (the default) against
  // 400 (as before), alternated query by query so both see the same load.
  if (!hnsw) {
    const pair = [
      { label: 'hybrid, sign-bit prefilter, 200 candidates (default)', svc: service(false), ms: [] as number[] },
      {
        label: 'hybrid, sign-bit prefilter, 400 candidates (before)',
        svc: service(false, undefined, undefined, 400),
        ms: [] as number[],
      },
    ];
    for (const [i, q] of queries.entries())
      for (const v of i % 2 === 0 ? pair : [...pair].reverse()) {
        const [, t] = await timed(() => v.svc.search(SCOPE, { q, mode: 'hybrid', limit: 10, offset: 0 }));
        if (i >= 5) v.ms.push(t);
      }
    for (const v of pair)
      rows.push({
        query: `${v.label} (incl. query embedding)`,
        p50_ms: round(pct(v.ms, 50)),
        p95_ms: round(pct(v.ms, 95)),
        recall_at_10: '–',
      });
  }
  // How much of that exact top 10 is the dev corpus (embedded by the model, so near any query the
  // same model embeds) rather than the generated documents' random vectors: a high share makes
  // the recall above easy to reach.
  const devShare = exactTop.flat().filter((id) => id.startsWith('dev_')).length / (10 * QUERIES);
  console.log(`share of the exact top 10s that are dev documents: ${round(devShare, 3)}`);
  // The hard case: query vectors near a random generated document (half its vector, half noise),
  // whose other nine nearest are barely nearer than the rest — recall of the index path alone.
  const generated = stored.filter((d) => d.id.startsWith('gen_'));
  const hard = Array.from({ length: 30 }, () => {
    const base = generated[Math.floor(rnd() * generated.length)].v;
    const noise = randomVector();
    return unit(Array.from({ length: DIMS }, (_, k) => base[k] + noise[k]));
  });
  const indexRepo = createSearchRepository(db);
  const hardWant = hard.map((q) => exactTop10(stored, q));
  for (const ef of hnsw ? [undefined, 100, 200, 400] : [undefined]) {
    // The repository's floor (undefined: depth-based), as semantic mode would pass it.
    const r = ef ? createSearchRepository(db, { hnswEfSearch: ef }) : indexRepo;
    let hardFound = 0;
    for (const [i, q] of hard.entries()) {
      const got = hnsw
        ? await r.semanticHnsw(SCOPE, {}, q, embedder.modelId, 10, 0)
        : await r.semanticSigned(SCOPE, {}, q, embedder.modelId, 10, 0);
      const ids = new Set(got.map((x) => x.id));
      hardFound += hardWant[i].filter((id) => ids.has(id)).length / 10;
    }
    console.log(
      `hard case, ${hnsw ? `HNSW (ef_search ${ef ?? 'default'})` : 'sign-bit prefilter (400 candidates)'} recall@10 for 30 query vectors half a random generated document, half noise: ${round(hardFound / hard.length, 3)}`,
    );
  }
  // Similar documents ("more like this" on the document page): through the index path, timed and
  // checked against the exact nearest computed here, for 20 generated documents.
  const simMs: number[] = [];
  let simFound = 0;
  const sources = Array.from({ length: 20 }, () => generated[Math.floor(rnd() * generated.length)]);
  for (const src of sources) {
    const want = exactTop10(stored, src.v, src.id);
    const [r, t] = await timed(() => service(hnsw).similar(SCOPE, src.id, 10));
    simMs.push(t);
    const ids = new Set(r.results.map((x) => x.document.id));
    simFound += want.filter((id) => ids.has(id)).length / 10;
  }
  const [, simExactMs] = await timed(() => indexRepo.similarByVector(SCOPE, sources[0].id, 10));
  console.log(
    `similar documents through ${hnsw ? 'HNSW' : 'the sign-bit prefilter'}, 20 generated documents, limit 10: p50 ${round(pct(simMs, 50))} ms, p95 ${round(pct(simMs, 95))} ms, recall@10 ${round(simFound / sources.length, 3)}; the exact scan in SQL for one of them: ${round(simExactMs)} ms`,
  );
  // The baseline: the exact scan in SQL, on a few queries (seconds each at 100k without an index).
  const repo = createSearchRepository(db);
  const exactMs: number[] = [];
  let exactFound = 0;
  const few = Math.min(8, QUERIES);
  for (let i = 0; i < few; i++) {
    const [r, t] = await timed(() => repo.semantic(SCOPE, {}, qv[i], embedder.modelId, 10, 0));
    exactMs.push(t);
    const got = new Set(r.map((x) => x.id));
    exactFound += exactTop[i].filter((id) => got.has(id)).length / 10;
  }
  rows.push({
    query: `semantic, exact scan in SQL (baseline, ${few} queries, no query embedding)`,
    p50_ms: round(pct(exactMs, 50)),
    p95_ms: round(pct(exactMs, 95)),
    recall_at_10: round(exactFound / few, 3),
  });
  console.log(`\nVector index at ${n.toLocaleString('en')} documents (${QUERIES} queries, limit 10):`);
  table(rows);
}

// --- the run on one database --------------------------------------------------------------------
async function runOn(
  kind: 'pglite' | 'postgres',
  db: Db,
  n: number,
  embedder: Embedder,
  dev: DevDoc[],
  o: { intakeOnly: boolean; keywordCaps: boolean; vectorIndex: boolean },
) {
  console.log(`\n=== ${kind}: ${n.toLocaleString('en')} generated documents + ${dev.length} dev documents ===`);
  await setUp(db);
  const vectors = createVectorIndex(db);
  await vectors.init();
  console.log(`vector index: ${JSON.stringify(vectors.status())}`);
  const repo = createSearchRepository(db);
  const docsRepo = createDocumentsRepository(db);
  const service = (
    useHnsw: boolean,
    signatureCandidates?: number,
    semanticEfSearch?: number,
    hybridSignatureCandidates?: number,
  ) =>
    createSearchService({
      semanticEfSearch,
      hybridSignatureCandidates,
      repo: signatureCandidates ? createSearchRepository(db, { signatureCandidates }) : repo,
      embedder: async () => embedder,
      modelReady: () => true,
      vectors: { usable: (d) => useHnsw && vectors.usable(d) },
    });

  // Dev corpus: embedded with the tiny model (the real path), in the measured organization.
  const devVectors = await embedder.embed(dev.map((d) => d.text.slice(0, 2000)));
  await insertDocs(
    db,
    dev.map((d, i) => ({ id: `dev_${i}`, org: ORG, text: d.text, vector: devVectors[i], language: 'en' })),
    embedder.modelId,
  );

  // The measured organization's vectors, for the exact top 10 of --vector-index.
  const stored: { id: string; v: ArrayLike<number> }[] = o.vectorIndex
    ? devVectors.map((v, i) => ({ id: `dev_${i}`, v }))
    : [];
  // Generated documents (and a tenth as many in another organization), in batches.
  const [, loadMs] = await timed(async () => {
    const batch = 1000;
    for (let i = 0; i < n; i += batch) {
      const docs: NewDoc[] = [];
      for (let j = i; j < Math.min(n, i + batch); j++)
        docs.push({ id: `gen_${j}`, org: j % 10 === 9 ? OTHER : ORG, text: generatedText(j), vector: randomVector() });
      if (o.vectorIndex)
        for (const d of docs) if (d.org === ORG) stored.push({ id: d.id, v: Float32Array.from(d.vector!) });
      await insertDocs(db, docs, embedder.modelId);
    }
    // A vacuum now, not autovacuum's in the middle of the measurements: after 100,000 inserts it
    // runs for minutes on this two-core machine, and took the fingerprint alone from 0.16 to 0.44
    // ms in one run.
    await db.query('VACUUM (ANALYZE)');
  });
  console.log(`loaded in ${round(loadMs / 1000)} s`);

  if (vectors.status().backend === 'hnsw') {
    const [, buildMs] = await timed(() => vectors.ensure(DIMS));
    const names = indexNames(DIMS);
    const { rows } = await db.query<{ bytes: number }>(
      `SELECT pg_relation_size($1::regclass) + pg_relation_size($2::regclass) AS bytes`,
      [names.chunks, names.documents],
    );
    const indexMb = rows[0].bytes / 1e6;
    const ftsSize = await db.query<{ bytes: number }>(`SELECT pg_relation_size('documents_search_idx') AS bytes`);
    console.log(
      `HNSW build (chunks + documents, ${DIMS} dims): ${round(buildMs / 1000)} s, ${round(indexMb)} MB; GIN full-text index ${round(ftsSize.rows[0].bytes / 1e6)} MB`,
    );
  }

  if (o.keywordCaps) {
    await keywordCapTradeOff(db, n);
    return;
  }
  if (o.vectorIndex) {
    await vectorIndexRun(db, service, embedder, stored, n, vectors.usable(DIMS));
    return;
  }
  if (!o.intakeOnly) {
    // 1. Known-item search on the dev corpus.
    const df = new Map<string, number>();
    for (const d of dev) for (const w of new Set(words(d.text))) df.set(w, (df.get(w) ?? 0) + 1);
    const quality: Record<string, string | number>[] = [];
    const joined = dev.map((d) => words(d.text.slice(0, 20_000)).join(' '));
    const candidates = dev.map((d, i) => ({
      id: `dev_${i}`,
      name: d.id,
      q: distinctivePhrase(
        d,
        df,
        dev.length,
        joined.filter((_, j) => j !== i),
      ),
    }));
    const knownItems = candidates.filter((k): k is typeof k & { q: string } => k.q !== null);
    const shared = candidates.filter((k) => k.q === null).map((k) => k.name);
    if (shared.length) console.log(`no phrase of their own (left out): ${shared.join(', ')}`);
    const perItem: Record<string, string | number>[] = [];
    for (const mode of ['keyword', 'semantic', 'hybrid'] as SearchMode[]) {
      let rr = 0;
      let hit1 = 0;
      let hit10 = 0;
      for (const k of knownItems) {
        const { results } = await service(true).search(SCOPE, { q: k.q, mode, limit: 10, offset: 0 });
        const rank = results.findIndex((r) => r.document.id === k.id) + 1;
        if (rank > 0) rr += 1 / rank;
        if (rank === 1) hit1++;
        if (rank > 0) hit10++;
        if (mode === 'keyword')
          perItem.push({ document: k.name.slice(0, 60), query: k.q, keyword_rank: rank || '>10' });
      }
      quality.push({
        mode,
        queries: knownItems.length,
        MRR: round(rr / knownItems.length, 3),
        'hit@1': round(hit1 / knownItems.length, 3),
        'recall@10': round(hit10 / knownItems.length, 3),
      });
    }
    console.log('\nKnown-item search (dev corpus; query = the most distinctive three-word window):');
    table(quality);
    const misses = perItem.filter((r) => r.keyword_rank !== 1);
    console.log(`keyword: not first for ${misses.length} of ${perItem.length}:`);
    if (misses.length) table(misses);

    // 2. Latency at N documents.
    const queries = Array.from({ length: QUERIES }, (_, i) => {
      const t = generatedText(n + i).split(' ');
      const at = 2 + Math.floor(rnd() * (t.length - 6));
      return t.slice(at, at + 2).join(' ');
    });
    const lat: Record<string, string | number>[] = [];
    const measure = async (name: string, fn: (q: string) => Promise<unknown>) => {
      for (const q of queries.slice(0, 5)) await fn(q); // warm-up: plans, caches
      const ms: number[] = [];
      for (const q of queries) ms.push((await timed(() => fn(q)))[1]);
      lat.push({ query: name, p50_ms: round(pct(ms, 50)), p95_ms: round(pct(ms, 95)), max_ms: round(Math.max(...ms)) });
    };
    await measure('baseline: GET /documents?q= (list filter)', (q) =>
      docsRepo.list(SCOPE, { q, page: 1, per_page: 20 }),
    );
    await measure('keyword (ranked, highlights)', (q) =>
      service(false).search(SCOPE, { q, mode: 'keyword', limit: 20, offset: 0 }),
    );
    const qv = await embedder.embed(queries);
    const embedMs: number[] = [];
    for (const q of queries.slice(0, 20)) embedMs.push((await timed(() => embedder.embed([q])))[1]);
    await measure('semantic, sign-bit prefilter + exact rerank (incl. query embedding)', (q) =>
      service(false).search(SCOPE, { q, mode: 'semantic', limit: 20, offset: 0 }),
    );
    await measure('hybrid, sign-bit prefilter', (q) =>
      service(false).search(SCOPE, { q, mode: 'hybrid', limit: 20, offset: 0 }),
    );
    let recall: number | null = null;
    if (vectors.usable(DIMS)) {
      await measure('semantic, HNSW (incl. query embedding)', (q) =>
        service(true).search(SCOPE, { q, mode: 'semantic', limit: 20, offset: 0 }),
      );
      await measure('hybrid, HNSW', (q) => service(true).search(SCOPE, { q, mode: 'hybrid', limit: 20, offset: 0 }));
      let found = 0;
      for (const v of qv) {
        const exact = await repo.semantic(SCOPE, {}, v, embedder.modelId, 10, 0);
        const approx = await repo.semanticHnsw(SCOPE, {}, v, embedder.modelId, 10, 0);
        const want = new Set(exact.map((r) => r.id));
        found += approx.filter((r) => want.has(r.id)).length / Math.max(1, want.size);
      }
      recall = found / qv.length;
    }
    console.log(
      `\nLatency over ${QUERIES} two-word queries, limit 20 (query embedding alone p50 ${round(pct(embedMs, 50))} ms):`,
    );
    table(lat);
    if (recall !== null) console.log(`HNSW recall@10 against the exact scan: ${round(recall, 3)}`);
  }

  // 3. Near-duplicates on constructed pairs, through the intake check. The band lookup's rows
  // and their sketch text are counted (what the check receives is much of its CPU).
  const lookups = { queries: 0, rows: 0, chars: 0 };
  const counted: Queryable & { kind: Db['kind'] } = {
    kind: db.kind,
    async query<T>(sql: string, params?: unknown[]) {
      const r = await db.query<T>(sql, params);
      if (sql.includes('FROM document_minhash m')) {
        lookups.queries++;
        lookups.rows += r.rows.length;
        for (const row of r.rows as { sketch?: string }[]) lookups.chars += row.sketch?.length ?? 0;
      }
      return r;
    },
  };
  const nd = createNearDuplicates(counted);
  const receipts = dev.map((d, i) => ({ ...d, docId: `dev_${i}` })).filter((d) => d.id.startsWith('sroie/'));
  const pairs: Record<string, string | number>[] = [];
  let tp = 0;
  let fn = 0;
  let fp = 0;
  let tn = 0;
  for (const [i, r] of receipts.entries()) {
    for (const [variant, text] of [
      ['ocr-noise', ocrNoisy(r.text, i + 1)],
      [
        're-encoded',
        r.text
          .replace(/\s+/g, ' ')
          .replace(/(.{60}) /g, '$1\n')
          .toUpperCase(),
      ],
    ] as const) {
      const { match } = await nd.check({ id: `copy_${i}`, org_id: ORG, environment: 'live' }, text);
      const ok = match?.id === r.docId;
      if (ok) tp++;
      else fn++;
      pairs.push({
        kind: 'copy',
        a: r.id,
        b: variant,
        flagged: ok ? 'yes' : match ? `wrong: ${match.id}` : 'no',
        similarity: match?.similarity ?? '',
        verdict: ok ? 'ok' : 'MISSED',
      });
    }
  }
  const byMerchant = new Map<string, typeof receipts>();
  for (const r of receipts) byMerchant.set(r.group, [...(byMerchant.get(r.group) ?? []), r]);
  for (const r of receipts) {
    const { match } = await nd.check({ id: r.docId, org_id: ORG, environment: 'live' }, r.text);
    const same = (byMerchant.get(r.group) ?? []).filter((o) => o.docId !== r.docId);
    for (const o of same) {
      const flagged = match?.id === o.docId;
      if (flagged) fp++;
      else tn++;
      pairs.push({
        kind: 'same merchant',
        a: r.id,
        b: o.id,
        flagged: flagged ? 'yes' : 'no',
        similarity: flagged ? match!.similarity : '',
        verdict: flagged ? 'FALSE POSITIVE' : 'ok',
      });
    }
    if (match && !same.some((o) => o.docId === match.id)) {
      fp++;
      pairs.push({
        kind: 'other',
        a: r.id,
        b: match.id,
        flagged: 'yes',
        similarity: match.similarity,
        verdict: 'FALSE POSITIVE',
      });
    }
  }
  console.log(`\nNear-duplicate pairs (${pairs.length}):`);
  table(pairs);
  console.log(
    `near-duplicates: copies found ${tp}/${tp + fn} (recall ${round(tp / Math.max(1, tp + fn), 3)}), ` +
      `distinct same-merchant pairs flagged ${fp}/${fp + tn} (precision ${round(tp / Math.max(1, tp + fp), 3)})`,
  );

  // 4. Intake cost at N documents: the check per document against the document insert, on new
  // generated documents (most documents: chance band collisions only) and on the dev receipts'
  // near-copies (the costly path: near candidates, samples compared, texts read).
  const fresh = Array.from({ length: 200 }, (_, i) => ({ id: `new_${i}`, text: generatedText(10 * n + i) }));
  const copies = receipts.flatMap((r, i) => [
    { id: `copy_${i}`, text: ocrNoisy(r.text, i + 1) },
    {
      id: `copy_re_${i}`,
      text: r.text
        .replace(/\s+/g, ' ')
        .replace(/(.{60}) /g, '$1\n')
        .toUpperCase(),
    },
  ]);
  // The baseline is the check as it was before the sketches came only for near candidates.
  const baseline = nearDuplicatesBefore(db);
  lookups.queries = lookups.rows = lookups.chars = 0;
  const common = await alternatedChecks(fresh, nd, baseline);
  // Counted on the current check's lookups only (the baseline queries the database directly).
  const per = (x: number) => round(x / Math.max(1, lookups.queries), 1);
  console.log(
    `band lookups of new documents: candidates per lookup ${per(lookups.rows)}, sketch text per lookup ${per(lookups.chars / 1024)} KB`,
  );
  const costly = copies.length > 0 ? await alternatedChecks(copies, nd, baseline) : null;
  const fpCpu: number[] = [];
  for (const d of fresh) {
    const cpu = process.cpuUsage();
    fingerprint(d.text, `${ORG}/live`);
    const used = process.cpuUsage(cpu);
    fpCpu.push(used.user + used.system);
  }
  const insertMs: number[] = [];
  for (const d of fresh)
    insertMs.push((await timed(() => insertDocs(db, [{ ...d, org: ORG, minhash: false }], embedder.modelId)))[1]);
  console.log(
    `\nIntake cost at ${n.toLocaleString('en')} documents (checks one at a time, alternated with the baseline):`,
  );
  const row = (step: string, x: CheckStats) => ({
    step,
    p50_ms: round(pct(x.ms, 50), 2),
    p95_ms: round(pct(x.ms, 95), 2),
    cpu_ms_per_doc: round(mean(x.cpuUs) / 1000, 3),
    event_loop_cpu_ms_per_doc: round(mean(x.threadUs) / 1000, 3),
  });
  table([
    row(`near-duplicate check, ${fresh.length} new documents`, common.cur),
    row("  baseline: every candidate's sample read and compared", common.base),
    ...(costly
      ? [
          row(`near-duplicate check, ${copies.length} near-copies of dev receipts`, costly.cur),
          row("  baseline: every candidate's sample read and compared", costly.base),
        ]
      : []),
    {
      step: 'fingerprint alone (CPU)',
      p50_ms: round(pct(fpCpu, 50) / 1000, 3),
      p95_ms: round(pct(fpCpu, 95) / 1000, 3),
      cpu_ms_per_doc: round(mean(fpCpu) / 1000, 3),
      event_loop_cpu_ms_per_doc: '',
    },
    {
      step: 'document insert with text + tsvector (intake without the check)',
      p50_ms: round(pct(insertMs, 50), 2),
      p95_ms: round(pct(insertMs, 95), 2),
      cpu_ms_per_doc: '',
      event_loop_cpu_ms_per_doc: '',
    },
  ]);
  const under = (x: LoadStats) =>
    `${round(x.cpu / x.n / 1000, 3)} ms CPU per document (event loop ${round(x.thread / x.n / 1000, 3)} ms), ${round((x.n / x.ms) * 1000)} checks/s`;
  console.log(
    `under load, new documents (8 checks in flight, ${common.loaded.cur.n} each): check ${under(common.loaded.cur)}; baseline ${under(common.loaded.base)}`,
  );
  if (costly)
    console.log(
      `under load, near-copies (8 in flight, ${costly.loaded.cur.n} each): check ${under(costly.loaded.cur)}; baseline ${under(costly.loaded.base)}`,
    );
  if (kind === 'pglite') console.log("(PGlite runs in this process: its CPU is in the check's CPU column.)");
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

interface CheckStats {
  ms: number[];
  cpuUs: number[];
  threadUs: number[];
}
interface LoadStats {
  cpu: number;
  thread: number;
  n: number;
  ms: number;
}
type Checker = { check(doc: { id: string; org_id: string; environment: string }, text: string): Promise<unknown> };

/**
 * The current check and the baseline on the same documents: one at a time, alternated document by
 * document so both see the same load and warm caches, then 8 in flight, alternated in rounds. One
 * at a time, each check waits for the database with nothing else to do, and on this VM the first
 * work after an idle moment costs 2-3x the CPU (a `SELECT $1` cost the event loop ~200 µs back to
 * back and 440-600 µs after a 10 ms wait): the one-at-a-time figure is what a quiet service pays
 * per document, the loaded one what a busy one does. The process's CPU includes its other threads
 * (garbage collection helpers, libuv's); the event-loop thread's own CPU is what the check costs
 * the thread that runs it.
 */
async function alternatedChecks(docs: { id: string; text: string }[], cur: Checker, base: Checker) {
  const stats = { cur: { ms: [], cpuUs: [], threadUs: [] }, base: { ms: [], cpuUs: [], threadUs: [] } } as Record<
    'cur' | 'base',
    CheckStats
  >;
  const checkers = { cur, base };
  for (const [i, d] of docs.entries()) {
    for (const which of i % 2 === 0 ? (['cur', 'base'] as const) : (['base', 'cur'] as const)) {
      const t0 = threadCpuUs();
      const cpu = process.cpuUsage();
      const [, ms] = await timed(() => checkers[which].check({ id: d.id, org_id: ORG, environment: 'live' }, d.text));
      const used = process.cpuUsage(cpu);
      stats[which].ms.push(ms);
      stats[which].threadUs.push(threadCpuUs() - t0);
      stats[which].cpuUs.push(used.user + used.system);
    }
  }
  const loaded: Record<'cur' | 'base', LoadStats> = {
    cur: { cpu: 0, thread: 0, n: 0, ms: 0 },
    base: { cpu: 0, thread: 0, n: 0, ms: 0 },
  };
  for (let r = 0; r < 6; r++) {
    for (const which of r % 2 ? (['base', 'cur'] as const) : (['cur', 'base'] as const)) {
      const t0 = threadCpuUs();
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < docs.length) {
            const d = docs[next++];
            await checkers[which].check({ id: d.id, org_id: ORG, environment: 'live' }, d.text);
          }
        }),
      );
      const c = process.cpuUsage(c0);
      loaded[which].cpu += c.user + c.system;
      loaded[which].thread += threadCpuUs() - t0;
      loaded[which].ms += performance.now() - w0;
      loaded[which].n += docs.length;
    }
  }
  return { ...stats, loaded };
}

/** CPU time of the calling thread in µs (Linux: /proc/thread-self/schedstat, in ns; NaN elsewhere). */
function threadCpuUs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1000;
  } catch {
    return NaN;
  }
}

export async function main(args: string[]): Promise<void> {
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 20_000);
  // Only the near-duplicate parts (3 and 4): minutes instead of the latency part's hour at 100k.
  const intakeOnly = args.includes('--intake-only');
  // Only the trade-off of the keyword ranking cap: latency and agreement with ranking every match.
  const keywordCaps = args.includes('--keyword-caps');
  // Only the vector index: HNSW (or, without pgvector, the sign-bit prefilter) latency and
  // recall@10 against an exact top 10 computed here from the stored vectors (the exact scan in SQL
  // takes seconds per query at 100k: timed on a few queries only).
  const vectorIndex = args.includes('--vector-index');
  const dev = loadDev();
  if (dev.length === 0)
    console.log(`dev corpus not found at ${DEV_CORPUS}: known-item and near-duplicate parts are empty`);
  const modelRoot = benchTmpDir('search-model');
  const tiny = await generateTinyModel(modelRoot, 'docpipe-bench/tiny-384', { hidden: DIMS });
  const embedder = await createTransformersEmbedder({
    modelId: tiny.modelId,
    modelDir: modelRoot,
    allowDownload: false,
  });
  console.log(`query embeddings: generated tiny model (${tiny.dims} dims, random weights: no meaning)`);

  if (!args.includes('--postgres-only')) {
    const pglite = await createDb({ pgliteDir: 'memory://' });
    try {
      await runOn('pglite', pglite, n, embedder, dev, { intakeOnly, keywordCaps, vectorIndex });
    } finally {
      await pglite.close();
    }
  }
  if (args.includes('--pglite-only')) return;
  const pgDb = await benchPostgres();
  if (pgDb) {
    const db = await createDb({ url: pgDb.url, poolSize: 2 });
    try {
      await runOn('postgres', db, n, embedder, dev, { intakeOnly, keywordCaps, vectorIndex });
    } finally {
      await db.close();
      await pgDb.drop();
    }
  }
  await embedder.dispose?.();
}
