import { decodeEntities } from './html-entities.js';
import { decodeText, normalizeText } from './text.js';

/** Elements that start and end a line of their own. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'body',
  'legend',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
  'title',
]);
/** Elements whose content is never visible text. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'iframe', 'object']);
const CELL = new Set(['td', 'th']);

interface Out {
  parts: string[];
  /** Text of the current line so far is only whitespace: cells and breaks need no separator. */
  lineEmpty: boolean;
}

function pushText(out: Out, raw: string, pre: boolean): void {
  const text = decodeEntities(pre ? raw : raw.replace(/\s+/g, ' '));
  if (text === '') return;
  if (out.lineEmpty && !pre) {
    const trimmed = text.replace(/^ +/, '');
    if (trimmed === '') return;
    out.parts.push(trimmed);
  } else {
    out.parts.push(text);
  }
  out.lineEmpty = pre ? /\n[ \t]*$/.test(text) : false;
}

/** Ends the current line; `force` (for `<br>`) also ends an empty one. */
function newline(out: Out, force = false): void {
  if (out.lineEmpty && !force) return;
  out.parts.push('\n');
  out.lineEmpty = true;
}

/** Index just past the `>` that closes the tag opened at `start`, honouring quoted attributes. */
function tagEnd(html: string, start: number): number {
  let quote = '';
  for (let i = start; i < html.length; i++) {
    const ch = html[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '>') {
      return i + 1;
    }
  }
  return html.length;
}

/**
 * Visible text of an HTML document: scripts, styles and comments dropped, entities decoded,
 * block elements on their own lines, table cells separated by tabs, `<pre>` kept as written.
 * A single forward scan (no regex backtracking), so hostile markup costs linear time.
 */
export function htmlToText(html: string): string {
  const lower = html.toLowerCase();
  const out: Out = { parts: [], lineEmpty: true };
  let preDepth = 0;
  let i = 0;
  let title = '';
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      pushText(out, html.slice(i), preDepth > 0);
      break;
    }
    if (lt > i) pushText(out, html.slice(i, lt), preDepth > 0);
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/.exec(html.slice(lt, lt + 64));
    if (!m) {
      if (html[lt + 1] === '!' || html[lt + 1] === '?') {
        i = tagEnd(html, lt);
      } else {
        pushText(out, '<', preDepth > 0);
        i = lt + 1;
      }
      continue;
    }
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    i = tagEnd(html, lt);
    if (closing) {
      if (name === 'pre' && preDepth > 0) preDepth--;
      if (BLOCK.has(name)) newline(out);
      continue;
    }
    const selfClosing = html[i - 2] === '/';
    if (name === 'title' && !selfClosing) {
      const close = lower.indexOf('</title', i);
      title = decodeEntities(
        html
          .slice(i, close < 0 ? html.length : close)
          .replace(/\s+/g, ' ')
          .trim(),
      );
      i = close < 0 ? html.length : tagEnd(html, close);
      continue;
    }
    if (HIDDEN.has(name) && !selfClosing) {
      // Raw-text elements end at their first closing tag; nesting is not possible inside them.
      const close = lower.indexOf(`</${name}`, i);
      i = close < 0 ? html.length : tagEnd(html, close);
      continue;
    }
    if (name === 'br') {
      newline(out, true);
    } else if (CELL.has(name)) {
      if (!out.lineEmpty) out.parts.push('\t');
      out.lineEmpty = true;
    } else if (BLOCK.has(name)) {
      newline(out);
      if (name === 'pre' && !selfClosing) preDepth++;
    } else if (name === 'img') {
      const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(html.slice(lt, i));
      const altText = alt?.[2] ?? alt?.[3];
      if (altText) pushText(out, ` ${altText} `, false);
    }
  }
  const body = out.parts
    .join('')
    .replace(/ +\n/g, '\n')
    .replace(/\t *\n/g, '\n');
  return normalizeText(title && !body.trimStart().startsWith(title) ? `${title}\n\n${body}` : body);
}

/** Reads the charset an HTML file declares for itself in its first kilobytes, if any. */
export function declaredCharset(head: string): string | undefined {
  const m = /<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})/i.exec(head.slice(0, 4096));
  return m?.[1];
}

export function htmlBytesToText(buf: Buffer): string {
  const charset = declaredCharset(buf.subarray(0, 4096).toString('latin1'));
  return htmlToText(decodeText(buf, charset).text);
}
