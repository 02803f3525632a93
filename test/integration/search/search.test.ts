// Search over the real pipeline: keyword search (phrases, prefixes, stems, highlights, filters),
// semantic and hybrid modes, similar documents, near-duplicates at intake with the project's
// on_near_duplicate, tenant and live/test isolation, and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf, errorCode } from '../documents/fixtures.js';
import { createSearchRepository } from '../../../src/modules/search/search.repository.js';
import { createNearDuplicates } from '../../../src/modules/documents/near-duplicates.js';
import { fingerprint } from '../../../src/pipeline/dedup/index.js';
import { bakeryReceipt, CONTRACT_TEXT, GERMAN_TEXT, HTML_TEXT, MEMO_TEXT, ocrNoise } from './fixtures.js';

describe.each(dbKinds())('search (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  let projectId: string;
  let otherProjectId: string;
  const ids: Record<string, string> = {};

  const put = async (who: Actor, project: string, name: string, text: string, headers: Record<string, string> = {}) => {
    const res = await upload(t, { auth: { ...who.auth, ...headers } }, project, name, Buffer.from(text));
    const id = dataOf(res, 201).id as string;
    return { id, row: await waitForDocument(t, id) };
  };
  const search = async (qs: string, who: Actor = actor, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/documents/search?${qs}`, headers: { ...who.auth, ...headers } });
  const foundIds = async (qs: string, who: Actor = actor) =>
    (dataOf(await search(qs, who)).results as { document: { id: string } }[]).map((r) => r.document.id);

  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
    other = await createActor(t);
    projectId = await createProject(t, actor, { name: 'Inbox' });
    otherProjectId = await createProject(t, actor, { name: 'Archive' });
    for (const [name, text, project] of [
      ['contract', CONTRACT_TEXT, projectId],
      ['memo', MEMO_TEXT, projectId],
      ['german', GERMAN_TEXT, projectId],
      ['html', HTML_TEXT, otherProjectId],
    ] as const) {
      const d = await put(actor, project, `${name}.txt`, text);
      expect(d.row.status).toBe('completed');
      ids[name] = d.id;
    }
    // The same contract in another organization, and in the caller's test environment.
    ids.otherOrg = (await put(other, await createProject(t, other), 'contract.txt', CONTRACT_TEXT)).id;
    const testProject = dataOf(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/projects',
        headers: { ...actor.auth, 'x-environment': 'test' },
        payload: { name: 'Sandbox' },
      }),
      201,
    ).id;
    ids.testEnv = (await put(actor, testProject, 'contract.txt', CONTRACT_TEXT, { 'x-environment': 'test' })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds a document by its words, ranked, with <mark> highlights', async () => {
    const data = dataOf(await search('q=termination&mode=keyword'));
    expect(data.mode).toBe('keyword');
    const first = data.results[0];
    expect(first.document).toEqual({
      id: ids.contract,
      filename: 'contract.txt',
      project_id: projectId,
      classification: expect.any(String),
      status: 'completed',
    });
    expect(first.score).toBeGreaterThan(0);
    expect(first.highlights[0].field).toBe('text');
    expect(first.highlights.map((h: { snippet: string }) => h.snippet).join(' ')).toContain('<mark>Termination</mark>');
    // The memo holds the word too, ranked lower.
    expect(data.results.map((r: { document: { id: string } }) => r.document.id)).toEqual([ids.contract, ids.memo]);
  });

  it('matches a quoted phrase only where the words stand together', async () => {
    expect(await foundIds(`q=${encodeURIComponent('"termination clause"')}&mode=keyword`)).toEqual([ids.contract]);
    expect(await foundIds('q=termination clause&mode=keyword')).toEqual(
      expect.arrayContaining([ids.contract, ids.memo]),
    );
    expect(await foundIds(`q=${encodeURIComponent('termination -delaware')}&mode=keyword`)).toEqual([ids.memo]);
  });

  it('ranks at most the candidate cap of keyword matches, counted within the organization and environment', async () => {
    const scope = { orgId: actor.orgId, environment: 'live' as const };
    const ranked = async (cap: number, limit: number, offset: number) =>
      (
        await createSearchRepository(t.deps.db, { keywordCandidates: cap }).keyword(
          scope,
          {},
          'termination',
          limit,
          offset,
        )
      ).map((r) => r.id);
    // Both of the caller's matches without a cap in the way, best first.
    expect(await ranked(1000, 10, 0)).toEqual([ids.contract, ids.memo]);
    // A cap of two (the caller's page) still finds both: the other organization's and the test
    // environment's copies of the contract (more matches of the same query) must not use it up.
    expect(await ranked(2, 2, 0)).toEqual([ids.contract, ids.memo]);
    // The cap never cuts a page short: the second page of one reads two candidates.
    expect(await ranked(1, 1, 1)).toEqual([ids.memo]);
  });

  it('matches prefixes with a trailing *', async () => {
    expect(await foundIds(`q=${encodeURIComponent('zeppel*')}&mode=keyword`)).toEqual([ids.html]);
    expect(await foundIds(`q=${encodeURIComponent('agree* delaw*')}&mode=keyword`)).toEqual([ids.contract]);
    // Words no configuration keeps (punctuation) leave the prefix to decide alone.
    expect(await foundIds(`q=${encodeURIComponent('-- zeppel*')}&mode=keyword`)).toEqual([ids.html]);
  });

  it('stems words in the document language and keeps exact words for the rest', async () => {
    const row = await waitForDocument(t, ids.german);
    expect(row.language).toBe('de');
    expect(row.search_config).toBe('german');
    // "Rechnung" is not in the text ("Rechnungen" is): only the German stem finds it.
    expect(await foundIds('q=Rechnung&mode=keyword')).toEqual([ids.german]);
    expect(await foundIds('q=Lieferung&mode=keyword')).toEqual([ids.german]);
  });

  it('escapes the document text: only the marks are HTML', async () => {
    const data = dataOf(await search('q=zeppelin&mode=keyword'));
    const snippets = data.results[0].highlights.map((h: { snippet: string }) => h.snippet).join(' ');
    expect(snippets).toContain('<mark>zeppelin</mark>');
    const all = dataOf(await search('q=widget&mode=keyword')).results[0].highlights[0].snippet as string;
    // (The full-text parser drops tag-like tokens; what is left is escaped.)
    expect(all).not.toContain('<script');
    expect(all).toContain('&amp;');
    expect(all.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('filters by project, classification and status, and pages', async () => {
    expect(await foundIds(`q=bundle&mode=keyword&project_id=${projectId}`)).toEqual([]);
    expect(await foundIds(`q=bundle&mode=keyword&project_id=${otherProjectId}`)).toEqual([ids.html]);
    expect(await foundIds('q=termination&mode=keyword&status=failed')).toEqual([]);
    const type = (await waitForDocument(t, ids.contract)).classification.type as string;
    expect(await foundIds(`q=termination&mode=keyword&classification=${type}`)).toContain(ids.contract);
    expect(await foundIds('q=termination&mode=keyword&classification=no-such-type')).toEqual([]);
    expect(await foundIds('q=termination&mode=keyword&limit=1&offset=1')).toEqual([ids.memo]);
  });

  it("never shows another organization's or the other environment's documents", async () => {
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const mine = await foundIds(`q=termination clause agreement&mode=${mode}`);
      expect(mine).toContain(ids.contract);
      expect(mine).not.toContain(ids.otherOrg);
      expect(mine).not.toContain(ids.testEnv);
      const theirs = await foundIds(`q=termination clause agreement&mode=${mode}`, other);
      expect(theirs).toEqual([ids.otherOrg]);
    }
    const test = dataOf(await search('q=termination&mode=keyword', actor, { 'x-environment': 'test' }));
    expect(test.results.map((r: { document: { id: string } }) => r.document.id)).toEqual([ids.testEnv]);
  });

  it('ranks by meaning (semantic) and fuses both lists (hybrid), hybrid by default with a model', async () => {
    const semantic = dataOf(await search('q=agreement notice&mode=semantic'));
    expect(semantic.mode).toBe('semantic');
    expect(semantic.results.length).toBeGreaterThan(0);
    expect(semantic.results[0].highlights[0].field).toBe('chunk');
    const scores = semantic.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    const hybrid = dataOf(await search('q=termination'));
    expect(hybrid.mode).toBe('hybrid');
    // Found by both lists, the contract leads; its highlight is the full-text one.
    expect(hybrid.results[0].document.id).toBe(ids.contract);
    expect(hybrid.results[0].highlights[0].snippet).toContain('<mark>');
  });

  it('uses pgvector HNSW where the database has it (PGlite), the sign-bit prefilter where not, with the same answers', async () => {
    const ready = dataOf(await t.app.inject({ method: 'GET', url: '/api/v1/ready' }));
    const expected = kind === 'pglite' ? 'hnsw' : 'signatures';
    expect(ready.components.search.vector_index).toBe(expected);
    const vectors = t.deps.search.vectors;
    const { rows } = await t.deps.db.query<{ dims: number; model: string }>(
      `SELECT array_length(embedding, 1) AS dims, model_id AS model FROM document_chunks LIMIT 1`,
    );
    const { dims, model } = rows[0];
    expect(await vectors.ensure(dims)).toBe(kind === 'pglite');
    const indexes = await t.deps.db.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE indexname LIKE '%hnsw%' ORDER BY 1`,
    );
    if (kind === 'pglite') {
      expect(indexes.rows.map((r) => r.name)).toEqual([
        `document_chunks_hnsw_${dims}`,
        `documents_embedding_hnsw_${dims}`,
      ]);
      const after = dataOf(await t.app.inject({ method: 'GET', url: '/api/v1/ready' }));
      expect(after.components.search).toMatchObject({ vector_index: 'hnsw', dimensions: [dims] });
    } else {
      expect(indexes.rows).toEqual([]);
      expect(ready.components.search.reason).toContain('pgvector');
    }
    // The index answers what the exact scan answers (a handful of vectors: HNSW is exact here),
    // scoped the same way: the other organization's copy of the contract never comes back.
    const scope = { orgId: actor.orgId, environment: 'live' as const };
    const probe = (
      await t.deps.db.query<{ embedding: number[] }>(
        `SELECT embedding FROM document_chunks WHERE document_id = $1 LIMIT 1`,
        [ids.contract],
      )
    ).rows[0].embedding;
    const exact = await t.deps.search.repo.semantic(scope, {}, probe, model, 5, 0);
    expect(exact[0].id).toBe(ids.contract);
    if (kind === 'pglite') {
      const viaIndex = await t.deps.search.repo.semanticHnsw(scope, {}, probe, model, 5, 0);
      expect(viaIndex.map((r) => r.id)).toEqual(exact.map((r) => r.id));
      expect(viaIndex.map((r) => r.id)).not.toContain(ids.otherOrg);
      expect(viaIndex[0].score).toBeCloseTo(exact[0].score, 4);
      // (A table this small is read faster whole: the planner is told not to, to show the index fits.)
      const plan = await t.deps.db.tx(async (q) => {
        await q.query('SET LOCAL enable_seqscan = off');
        return q.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT document_id FROM document_chunks c WHERE array_length(c.embedding, 1) = ${dims}
            ORDER BY (c.embedding::vector(${dims})) <=> $1::vector(${dims}) LIMIT 5`,
          [`[${probe.join(',')}]`],
        );
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(`document_chunks_hnsw_${dims}`);
    }
    // The sign-bit prefilter (the path without pgvector, on both databases): its rows are the
    // trigger's, one per chunk with a bit per dimension, and with every chunk inside its margin it
    // answers what the exact scan answers, scoped alike.
    const sigs = await t.deps.db.query<{ n: number; bad: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE length(s.bits) <> array_length(c.embedding, 1)
          OR s.bits <> embedding_sign_bits(c.embedding) OR s.org_id <> d.org_id)::int AS bad
         FROM document_chunks c JOIN documents d ON d.id = c.document_id
         LEFT JOIN chunk_signatures s USING (document_id, chunk_index)`,
    );
    expect(sigs.rows[0].n).toBeGreaterThan(0);
    expect(sigs.rows[0].bad).toBe(0);
    expect(
      (
        await t.deps.db.query(
          `SELECT 1 FROM document_chunks c LEFT JOIN chunk_signatures s USING (document_id, chunk_index) WHERE s.bits IS NULL`,
        )
      ).rows,
    ).toEqual([]);
    const signed = await t.deps.search.repo.semanticSigned(scope, {}, probe, model, 5, 0);
    expect(signed.map((r) => r.id)).toEqual(exact.map((r) => r.id));
    expect(signed.map((r) => r.id)).not.toContain(ids.otherOrg);
    expect(signed[0].score).toBeCloseTo(exact[0].score, 4);
    // Through the API, whichever path: the contract first, nothing of the other organization.
    const found = await foundIds('q=termination clause agreement&mode=semantic');
    expect(found).not.toContain(ids.otherOrg);
  });

  it('answers bad input with 400 naming the field', async () => {
    for (const [qs, field] of [
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      ['', 'q'],
      ['q=x&mode=fuzzy', 'mode'],
      ['q=x&limit=101', 'limit'],
      ['q=x&limit=0', 'limit'],
      ['q=x&offset=-1', 'offset'],
      ['q=x&status=nope', 'status'],
    ]) {
      const res = await search(qs);
      expect(res.statusCode, qs).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_ERROR');
      expect(res.body, qs).toContain(field);
    }
  });

  describe('near-duplicates and similar documents', () => {
    let dupProject: string;
    const receipts: { id: string; row: Record<string, any> }[] = [];
    let copy: { id: string; row: Record<string, any> };

    beforeAll(async () => {
      dupProject = await createProject(t, actor, { name: 'Receipts' });
      for (let n = 0; n < 6; n++) receipts.push(await put(actor, dupProject, `receipt-${n}.txt`, bakeryReceipt(n)));
      copy = await put(actor, dupProject, 'receipt-0-scan.txt', ocrNoise(bakeryReceipt(0)));
    });

    it('tells the same order on two receipts apart by their transaction numbers, and finds a copy of either', async () => {
      // Same items, same totals: only the transaction number differs, as with a standing order.
      // An organization of its own: the other tests count this organization's duplicates.
      const shop = await createActor(t);
      const project = await createProject(t, shop, { name: 'Orders' });
      const order = (tx: string) => `${bakeryReceipt(9)}\nTransaction TX${tx}`;
      const first = await put(shop, project, 'order-a.txt', order('20260310118842'));
      const second = await put(shop, project, 'order-b.txt', order('20260317120977'));
      expect(first.row.duplicate_of).toBeNull();
      expect(second.row.duplicate_of).toBeNull();
      const scan = await put(shop, project, 'order-b-scan.txt', ocrNoise(order('20260317120977')));
      expect(scan.row.duplicate_of).toMatchObject({ id: second.id, method: 'minhash' });
    });

    it('puts each fingerprint straight into the band index, with nothing left pending for lookups to read', async () => {
      // With GIN's fast update on, the receipts' keys would sit in a pending list that every
      // intake lookup reads in full until a vacuum; merging it now would then clean ≥ 1 page.
      const { rows } = await t.deps.db.query<{ pages: number }>(
        `SELECT gin_clean_pending_list('document_minhash_bands_idx'::regclass)::int AS pages`,
      );
      expect(receipts.length).toBeGreaterThan(0);
      expect(rows[0].pages).toBe(0);
    });

    it('flags an OCR-noisy copy, and none of the same bakery’s other receipts', async () => {
      for (const r of receipts) expect(r.row.duplicate_of, r.row.filename).toBeNull();
      expect(copy.row.status).toBe('completed');
      expect(copy.row.duplicate_of).toMatchObject({ id: receipts[0].id, method: 'minhash' });
      expect(copy.row.duplicate_of.similarity).toBeGreaterThan(0.5);
      const doc = dataOf(await api(t, actor, 'GET', `/documents/${copy.id}`));
      expect(doc.duplicate_of).toEqual(copy.row.duplicate_of);
      expect(doc.pipeline.notes.parse).toContain(`possible duplicate of ${receipts[0].id}`);
    });

    it('compares the candidates sharing the most bands, past failed ones, when one template has more documents than are compared', async () => {
      // 300 earlier documents of one template (each shares bands with any new one of it), then a
      // failed copy of an original and the original itself, newest of all. Only ranking by shared
      // bands brings the original into the 100 compared: by age it would be the last.
      const shop = await createActor(t);
      const project = await createProject(t, shop, { name: 'Statements' });
      const nd = createNearDuplicates(t.deps.db);
      const template = (n: string) =>
        `${CONTRACT_TEXT}\nStatement reference ${n}\nKeep this statement for your records.`;
      const rows = [
        ...Array.from({ length: 300 }, (_, i) => ({
          id: `doc_tpl_${String(i).padStart(3, '0')}`,
          text: template(`T-${i}`),
          status: 'completed',
        })),
        { id: 'doc_tpl_900_failed', text: template('ORIGINAL-77'), status: 'failed' },
        { id: 'doc_tpl_901_original', text: template('ORIGINAL-77'), status: 'completed' },
      ];
      for (const [i, r] of rows.entries()) {
        await t.deps.db.query(
          `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, status, text_content, created_at)
           VALUES ($1, $2, 'live', $3, $1, 'text/plain', 1, md5($1), $1, $4, $5, now() - make_interval(secs => $6::int))`,
          [r.id, shop.orgId, project, r.status, r.text, rows.length - i],
        );
        const fp = fingerprint(r.text, `${shop.orgId}/live`);
        await t.deps.db.query(
          `INSERT INTO document_minhash (document_id, org_id, environment, signature, sketch, shingles, band_keys)
           VALUES ($1, $2, 'live', $3::int[], $4::int[], $5, $6::bigint[])`,
          [r.id, shop.orgId, fp!.signature, fp!.sample, fp!.shingles, fp!.bandKeys],
        );
      }
      const copy = await nd.check(
        { id: 'doc_tpl_copy', org_id: shop.orgId, environment: 'live' },
        ocrNoise(template('ORIGINAL-77'), 0.01),
      );
      expect(copy.match).toMatchObject({ id: 'doc_tpl_901_original', method: 'minhash' });
      // PGlite never analyzes: a plan kept from when the table was small would stay, so the
      // lookup is planned on every call there (the pattern is split so as not to match itself).
      if (kind === 'pglite') {
        const { rows } = await t.deps.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%band' || '_keys &&%'`,
        );
        expect(rows[0].n).toBe(0);
      }
    });

    it('lists flagged documents with duplicate=true', async () => {
      const flagged = dataOf(await api(t, actor, 'GET', `/documents?duplicate=true`));
      expect(flagged.map((d: { id: string }) => d.id)).toEqual([copy.id]);
      const rest = dataOf(await api(t, actor, 'GET', `/documents?duplicate=false&project_id=${dupProject}`));
      expect(rest.map((d: { id: string }) => d.id).sort()).toEqual(receipts.map((r) => r.id).sort());
    });

    it('says so in the document.processed event, keeping the usual fields', async () => {
      const { rows } = await t.deps.db.query<{ data: Record<string, any> }>(
        `SELECT data FROM events WHERE type = 'document.processed' AND data->>'documentId' = ANY($1::text[])`,
        [[copy.id, receipts[1].id]],
      );
      const byId = new Map(rows.map((r) => [r.data.documentId, r.data]));
      expect(byId.get(copy.id)).toMatchObject({
        documentId: copy.id,
        filename: 'receipt-0-scan.txt',
        projectId: dupProject,
        duplicate_of: { id: receipts[0].id, method: 'minhash' },
      });
      expect(byId.get(receipts[1].id)).toMatchObject({ documentId: receipts[1].id, duplicate_of: null });
    });

    it('stops a near-duplicate for review or fails it, as the project says', async () => {
      const bad = await api(t, actor, 'PUT', `/projects/${dupProject}`, { on_near_duplicate: 'sometimes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('on_near_duplicate');
      const review = await createProject(t, actor, { name: 'Review dups', on_near_duplicate: 'review' });
      const reviewed = await put(actor, review, 'again-1.txt', ocrNoise(bakeryReceipt(1), 0.02));
      expect(reviewed.row.status).toBe('needs_review');
      expect(reviewed.row.duplicate_of.id).toBe(receipts[1].id);

      const strict = await createProject(t, actor, { name: 'Strict' });
      const set = dataOf(await api(t, actor, 'PUT', `/projects/${strict}`, { on_near_duplicate: 'reject' }));
      expect(set.on_near_duplicate).toBe('reject');
      const rejected = await put(actor, strict, 'again-2.txt', ocrNoise(bakeryReceipt(2), 0.02));
      expect(rejected.row.status).toBe('failed');
      expect(rejected.row.error).toMatchObject({ stage: 'parse', code: 'NEAR_DUPLICATE' });
      expect(rejected.row.error.message).toContain(receipts[2].id);
      // A distinct receipt of the same bakery passes a strict project.
      expect((await put(actor, strict, 'new.txt', bakeryReceipt(9))).row.status).toBe('completed');
    });

    it('lists similar documents by embedding, or by MinHash without a vector', async () => {
      const byVector = dataOf(await api(t, actor, 'GET', `/documents/${receipts[0].id}/similar?limit=3`));
      expect(byVector.method).toBe('embedding');
      expect(byVector.results).toHaveLength(3);
      expect(byVector.results.map((r: { document: { id: string } }) => r.document.id)).not.toContain(receipts[0].id);
      // Without pgvector the nearest are found through the chunks' sign bits: with every document
      // inside the margin, the same documents in the same order as the exact scan.
      const scope = { orgId: actor.orgId, environment: 'live' as const };
      const exact = await t.deps.search.repo.similarByVector(scope, receipts[0].id, 3);
      const signed = await t.deps.search.repo.similarBySignatures(scope, receipts[0].id, 3);
      expect(signed.map((r) => r.id)).toEqual(exact.map((r) => r.id));
      expect(signed[0].score).toBeCloseTo(exact[0].score, 4);
      // Another organization's document is no source.
      expect(await t.deps.search.repo.similarBySignatures({ ...scope, orgId: other.orgId }, receipts[0].id, 3)).toEqual(
        [],
      );

      await t.deps.db.query('UPDATE documents SET embedding = NULL WHERE id = $1', [copy.id]);
      const byText = dataOf(await api(t, actor, 'GET', `/documents/${copy.id}/similar?limit=5`));
      expect(byText.method).toBe('minhash');
      expect(byText.results[0].document.id).toBe(receipts[0].id);
      expect(byText.results[0].similarity).toBeGreaterThan(0.3);
      const theirs = await api(t, other, 'GET', `/documents/${copy.id}/similar`);
      expect(theirs.statusCode).toBe(404);
      expect((await api(t, actor, 'GET', `/documents/${copy.id}/similar?limit=51`)).statusCode).toBe(400);
    });
  });
});
