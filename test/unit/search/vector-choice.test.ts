// Which vector path the search service takes: HNSW when the index for the query's dimension is
// usable, the sign-bit prefilter otherwise, and the exact scan when either answers short.
// And the dashboard's reading of highlights: only the two mark tokens are markup.
import { describe, expect, it } from 'vitest';
import type { SearchRepository } from '../../../src/modules/search/search.repository.js';
import { createSearchService } from '../../../src/modules/search/search.service.js';
import { createVectorIndex } from '../../../src/modules/search/vector-index.js';
import type { Db } from '../../../src/db/client.js';
import { snippetParts } from '../../../src/web/pages/search/Snippet.js';

const doc = (id: string) => ({ id, filename: `${id}.txt`, project_id: 'p', classification: null, status: 'completed' });
const scope = { orgId: 'o', environment: 'live' as const };

function setUp(opts: { usable: boolean; hnsw: string[]; signed?: string[]; exact: string[]; signatures?: boolean }) {
  const calls: string[] = [];
  const efs: (number | undefined)[] = [];
  const widths: (number | undefined)[] = [];
  const repo = {
    semanticHnsw: async (_s: unknown, _f: unknown, v: number[], _m: string, _l: number, _o: number, ef?: number) => {
      calls.push(`hnsw:${v.length}`);
      efs.push(ef);
      return opts.hnsw.map((id, i) => ({ ...doc(id), score: 1 - i / 10, content: id }));
    },
    semanticSigned: async (
      _s: unknown,
      _f: unknown,
      v: number[],
      _m: string,
      _l: number,
      _o: number,
      candidates?: number,
    ) => {
      calls.push(`signed:${v.length}`);
      widths.push(candidates);
      return (opts.signed ?? []).map((id, i) => ({ ...doc(id), score: 1 - i / 10, content: id }));
    },
    keyword: async () => [],
    semantic: async () => {
      calls.push('exact');
      return opts.exact.map((id, i) => ({ ...doc(id), score: 1 - i / 10, content: id }));
    },
  } as unknown as SearchRepository;
  const asked: number[] = [];
  const service = createSearchService({
    repo,
    embedder: async () => ({ modelId: 'm', dims: 3, embed: async () => [[1, 0, 0]], dispose: async () => undefined }),
    modelReady: () => true,
    vectors: {
      usable: (d) => {
        asked.push(d);
        return opts.usable;
      },
      signatures: () => opts.signatures ?? true,
    },
  });
  const ids = async (limit: number) =>
    (await service.search(scope, { q: 'x', mode: 'semantic', limit, offset: 0 })).results.map((r) => r.document.id);
  return { calls, asked, ids, efs, widths, service };
}

describe('semantic search: index or exact scan', () => {
  it('uses the index when it is usable for the query dimension and it answers in full', async () => {
    const s = setUp({ usable: true, hnsw: ['a', 'b'], exact: ['z'] });
    expect(await s.ids(2)).toEqual(['a', 'b']);
    expect(s.asked).toEqual([3]);
    expect(s.calls).toEqual(['hnsw:3']);
  });

  it('searches the index wider in semantic mode than for hybrid, whose vector list is one of two', async () => {
    const s = setUp({ usable: true, hnsw: ['a', 'b'], exact: ['z'] });
    await s.ids(2);
    await s.service.search(scope, { q: 'x', mode: 'hybrid', limit: 2, offset: 0 });
    // Hybrid leaves the width to the repository, which sizes it by the depth asked.
    expect(s.efs).toEqual([400, undefined]);
  });

  it('hands the sign-bit rerank fewer candidates for hybrid than in semantic mode', async () => {
    const s = setUp({ usable: false, hnsw: [], signed: ['s', 't'], exact: ['z'] });
    await s.ids(2);
    await s.service.search(scope, { q: 'x', mode: 'hybrid', limit: 2, offset: 0 });
    expect(s.widths).toEqual([undefined, 200]);
  });

  it('asks the exact scan when the index answers fewer than asked', async () => {
    const s = setUp({ usable: true, hnsw: ['a'], exact: ['a', 'b', 'c'] });
    expect(await s.ids(3)).toEqual(['a', 'b', 'c']);
    expect(s.calls).toEqual(['hnsw:3', 'exact']);
  });

  it('uses the sign-bit prefilter without a usable index, and the exact scan behind its short answer', async () => {
    const s = setUp({ usable: false, hnsw: ['a', 'b'], signed: ['s'], exact: ['z'] });
    expect(await s.ids(1)).toEqual(['s']);
    expect(s.calls).toEqual(['signed:3']);
    const short = setUp({ usable: false, hnsw: ['a', 'b'], signed: ['s'], exact: ['s', 'z'] });
    expect(await short.ids(2)).toEqual(['s', 'z']);
    expect(short.calls).toEqual(['signed:3', 'exact']);
  });
});

describe('semantic search on a server without bit_count', () => {
  it('goes straight to the exact scan when the sign-bit prefilter cannot run', async () => {
    const s = setUp({ usable: false, hnsw: [], signed: ['s', 't'], exact: ['z'], signatures: false });
    expect(await s.ids(1)).toEqual(['z']);
    expect(s.calls).toEqual(['exact']);
  });

  it('reads the server version: before 14 the index reports `exact` and turns the prefilter off', async () => {
    const fake = (version: number) =>
      ({
        kind: 'postgres',
        query: async (sql: string) => {
          if (sql.includes('server_version_num')) return { rows: [{ v: version }] };
          if (sql.includes('pg_available_extensions')) return { rows: [] };
          throw new Error(`unexpected: ${sql}`);
        },
      }) as unknown as Db;
    const old = createVectorIndex(fake(130012));
    await old.init();
    expect(old.signatures()).toBe(false);
    expect(old.status()).toMatchObject({ backend: 'exact', reason: expect.stringContaining('before 14') });
    const current = createVectorIndex(fake(150020));
    await current.init();
    expect(current.signatures()).toBe(true);
    expect(current.status().backend).toBe('signatures');
  });
});

describe('dashboard highlight parts', () => {
  it('reads only <mark> and </mark> as markup and decodes the escaped rest to text', () => {
    expect(snippetParts('a &lt;b&gt; <mark>word</mark> &amp; &quot;q&quot; &#39;s')).toEqual([
      { text: 'a <b> ', marked: false },
      { text: 'word', marked: true },
      { text: ' & "q" \'s', marked: false },
    ]);
    // Markup that slipped through unescaped stays text too; an unclosed mark runs to the end.
    expect(snippetParts('<img src=x onerror=1><mark>x')).toEqual([
      { text: '<img src=x onerror=1>', marked: false },
      { text: 'x', marked: true },
    ]);
    // Entities are decoded once: "&amp;lt;" is the text "&lt;", not "<".
    expect(snippetParts('&amp;lt;')).toEqual([{ text: '&lt;', marked: false }]);
  });
});
