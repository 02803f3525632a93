// Highlights as HTML: the document text is escaped, and only the <mark> elements are markup.
// ts_headline marks matches with private-use characters (removed from the text beforehand), so
// escaping happens here, after the fact, and nothing in a document can forge a tag.

export const MARK_START = '\uE000';
export const MARK_END = '\uE001';
export const FRAGMENT = '\uE002';
/** What ts_headline is told; the three characters are stripped from the text it reads. */
export const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxFragments=3, MaxWords=24, MinWords=10, FragmentDelimiter=${FRAGMENT}`;
export const HEADLINE_STRIP = MARK_START + MARK_END + FRAGMENT;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface Highlight {
  field: 'text' | 'chunk';
  snippet: string;
}

/** ts_headline output → the fragments that hold a match, as escaped HTML with <mark> spans. */
export function headlineToHighlights(headline: string | null): Highlight[] {
  if (!headline) return [];
  return headline
    .split(FRAGMENT)
    .filter((f) => f.includes(MARK_START))
    .map((f) => ({
      field: 'text' as const,
      snippet: escapeHtml(f.replace(/\s+/g, ' ').trim())
        .split(MARK_START)
        .join('<mark>')
        .split(MARK_END)
        .join('</mark>'),
    }));
}

/** A plain excerpt (a chunk that matched by meaning), escaped, at most `max` characters. */
export function excerpt(text: string, max = 240): Highlight {
  const t = text.replace(/\s+/g, ' ').trim();
  return { field: 'chunk', snippet: escapeHtml(t.length > max ? `${t.slice(0, max)}…` : t) };
}
