// The search text as tsquery SQL, and highlights as escaped HTML with only <mark> as markup.
import { describe, expect, it } from 'vitest';
import { FRAGMENT, headlineToHighlights, MARK_END, MARK_START } from '../../../src/modules/search/highlight.js';
import { parseQuery, tsquerySql } from '../../../src/modules/search/query.js';

describe('search query', () => {
  it('takes prefix terms out of the text; other syntax is left to websearch_to_tsquery', () => {
    expect(parseQuery('"termination clause" invoi* -draft')).toEqual({
      text: '"termination clause"  -draft',
      prefix: "'invoi':*",
    });
    expect(parseQuery('Agree* DELAW*')).toEqual({ text: '', prefix: "'agree':* & 'delaw':*" });
    // Not a prefix: quotes or operators inside stay text, so nothing can break out of the quoting.
    expect(parseQuery("o'brien*").prefix).toBeNull();
  });

  it('builds parameterised SQL only for the parts present', () => {
    const params: unknown[] = [];
    const param = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const sql = tsquerySql(parseQuery('lease inv*'), param);
    expect(params).toEqual(['lease', "'inv':*"]);
    expect(sql).toContain(`websearch_to_tsquery('simple', $1::text)`);
    expect(sql).toContain(`websearch_to_tsquery('german', $1::text)`);
    expect(sql).toContain(`to_tsquery('simple', $2::text)`);
    expect(tsquerySql({ text: '', prefix: null }, param)).toBe(`''::tsquery`);
  });
});

describe('highlights', () => {
  it('escapes the text and keeps only matching fragments, with <mark> spans', () => {
    const headline = `a <b> & ${MARK_START}term${MARK_END} "x"${FRAGMENT}no match here${FRAGMENT}${MARK_START}two${MARK_END}`;
    expect(headlineToHighlights(headline)).toEqual([
      { field: 'text', snippet: 'a &lt;b&gt; &amp; <mark>term</mark> &quot;x&quot;' },
      { field: 'text', snippet: '<mark>two</mark>' },
    ]);
    expect(headlineToHighlights(null)).toEqual([]);
  });
});
