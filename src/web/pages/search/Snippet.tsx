import type { ReactNode } from 'react';

// Search highlights arrive as escaped text with <mark>…</mark> spans. They are never given to the
// browser as HTML: only the two mark tokens are read as markup, every other character (entities
// decoded) becomes a text node, so whatever a document contains cannot inject an element.
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);

/** Splits a highlight into plain and marked runs (an unmatched mark runs to the end). */
export function snippetParts(snippet: string): { text: string; marked: boolean }[] {
  const out: { text: string; marked: boolean }[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece) out.push({ text: decode(piece), marked });
  }
  return out;
}

export function Snippet({ snippet }: { snippet: string }): ReactNode {
  return (
    <span className="snippet">
      {snippetParts(snippet).map((p, i) => (p.marked ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  );
}
