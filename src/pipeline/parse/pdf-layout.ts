/**
 * A page's text laid out the way poppler's `pdftotext -layout` lays it out, rebuilt from text
 * positions: invoice2data templates are written against that text (table columns kept apart by
 * runs of spaces, one visual line per line, a form feed after each page), so template matching
 * reads this rendering while search and classification keep the reading-order text.
 *
 * The method follows pdftotext's physical layout: words closer than 0.1 em run together, up to
 * 1.5 em apart they are one space apart within a fragment, wider gaps (or a change of font size
 * after a gap) start a new fragment. Fragments are given text columns from left to right across
 * the whole page — a fragment starts three columns after every fragment that ends to its left,
 * or proportionally inside one it overlaps above or below — so columns line up from row to row.
 * Fragments are written top to bottom; one whose baseline is within half an em of the previous
 * one continues its line, otherwise a step of n em writes n line breaks (one to five).
 */
import type { OcrWord } from './ocr.js';
import { placeItems, rotatePoint, type RawTextItem } from './pdf-lines.js';

/** A run of text on a page, in points from the top left, upright. */
export interface LayoutWord {
  x0: number;
  x1: number;
  /** Baseline. */
  base: number;
  size: number;
  text: string;
  /** Set when the PDF draws a space right before this word (pdf.js gives it as its own item). */
  sp?: 1;
}

/** One page's positioned words (the stored form of a PDF's layout). */
export interface LayoutPage {
  words: LayoutWord[];
  /** Text in other directions than the page's main one (margin stamps), in drawing order. */
  other: string[];
}

/** Gap (in em) above which two words are separate words. */
const WORD_BREAK = 0.1;
/** Gap (in em) above which the next word starts a new fragment (a new table cell). */
const FRAGMENT_BREAK = 1.5;
/** Baselines closer than this (in em) share an output line. */
const LINE_DELTA = 0.5;
/** Relative font size difference that separates two words into different fragments. */
const SIZE_BREAK = 0.1;
/** ... when they are more than this far apart (in em); closer, a smaller word stays in its line ("20 Unit(s)"). */
const SIZE_GAP = 0.3;
/** Top of a glyph box above the baseline, in em (pdftotext orders fragments by their tops). */
const ASCENT = 0.8;
/** Columns between a fragment and one that ends to its left. */
const GAP_COLUMNS = 3;
/** Most line breaks written for one vertical gap (pdftotext writes at most 5). */
const MAX_BREAKS = 5;

/**
 * Splits pdf.js text items into positioned words, turning the page so that its main text
 * direction runs left to right. Character positions inside an item are spread evenly over its
 * width (pdf.js gives one width per item).
 */
export function layoutWords(items: RawTextItem[], viewportTransform: number[]): LayoutPage {
  // Whitespace-only items carry no position worth keeping, but they say "a space here".
  const placed: Array<ReturnType<typeof placeItems>[number] & { spaceBefore: boolean }> = [];
  let space = false;
  for (const item of items) {
    if (typeof item.str === 'string' && item.str.length > 0 && item.str.trim() === '') {
      space = true;
      continue;
    }
    const p = placeItems([item], viewportTransform)[0];
    if (!p) continue;
    placed.push({ ...p, spaceBefore: space || /^\s/.test(p.str) });
    space = /\s$/.test(p.str);
  }
  if (placed.length === 0) return { words: [], other: [] };
  const weight = [0, 0, 0, 0];
  for (const p of placed) weight[p.quadrant] += p.str.length;
  const dominant = weight.indexOf(Math.max(...weight));
  const words: LayoutWord[] = [];
  const other: string[] = [];
  for (const p of placed) {
    if (p.quadrant !== dominant) {
      if (p.str.trim()) other.push(p.str.trim());
      continue;
    }
    const [x, base] = rotatePoint(p.x, p.y, dominant);
    const chars = [...p.str];
    const cw = chars.length > 0 ? p.width / chars.length : 0;
    let i = 0;
    let first = true;
    while (i < chars.length) {
      while (i < chars.length && /\s/.test(chars[i])) i++;
      const start = i;
      while (i < chars.length && !/\s/.test(chars[i])) i++;
      if (i > start) {
        const w: LayoutWord = {
          x0: x + start * cw,
          x1: x + i * cw,
          base,
          size: p.size,
          text: chars.slice(start, i).join(''),
        };
        if ((first && p.spaceBefore) || !first) w.sp = 1;
        words.push(w);
        first = false;
      }
    }
  }
  return { words, other };
}

interface Fragment {
  xMin: number;
  xMax: number;
  base: number;
  size: number;
  text: string[];
  col: number;
  /** Each word's characters in `text` (from, to), for positions. */
  words: Array<{ word: LayoutWord; from: number; to: number }>;
}

/** A word of a rendered page and where its characters are in the page's text. */
export interface WordSpan {
  start: number;
  end: number;
  word: LayoutWord;
}

function fragments(words: LayoutWord[]): Fragment[] {
  const sorted = [...words].sort((a, b) => a.base - b.base || a.x0 - b.x0);
  // Words into lines by baseline, then lines into fragments by horizontal gaps.
  const lines: LayoutWord[][] = [];
  for (const w of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(w.base - line[0].base) < LINE_DELTA * Math.max(w.size, line[0].size)) line.push(w);
    else lines.push([w]);
  }
  const out: Fragment[] = [];
  for (const line of lines) {
    line.sort((a, b) => a.x0 - b.x0);
    let frag: Fragment | null = null;
    let prev: LayoutWord | null = null;
    for (const w of line) {
      // The same glyphs drawn twice with a small offset is how some producers fake bold.
      if (prev && w.text === prev.text && Math.abs(w.x0 - prev.x0) < 0.3 * w.size) continue;
      const em = Math.max(w.size, prev?.size ?? 0);
      const gap = prev ? w.x0 - prev.x1 : Infinity;
      // Another font size after a space is another block of text for pdftotext (a label and its value).
      const sizeChange = prev !== null && Math.abs(w.size - prev.size) > SIZE_BREAK * em && gap > SIZE_GAP * em;
      if (!frag || !prev || gap > FRAGMENT_BREAK * em || sizeChange) {
        frag = { xMin: w.x0, xMax: w.x1, base: line[0].base, size: w.size, text: [], col: 0, words: [] };
        out.push(frag);
      } else if (gap > WORD_BREAK * prev.size || (w.sp === 1 && gap > -0.2 * em)) {
        frag.text.push(' ');
      }
      const from = frag.text.length;
      frag.text.push(...w.text);
      frag.words.push({ word: w, from, to: frag.text.length });
      frag.xMax = Math.max(frag.xMax, w.x1);
      frag.size = Math.max(frag.size, w.size);
      prev = w;
    }
  }
  return out;
}

/**
 * pdftotext's column assignment: left to right, a fragment starts three columns after every
 * fragment that ends to its left, or proportionally inside one it overlaps horizontally.
 */
function assignColumns(frags: Fragment[]): void {
  const order = [...frags].sort((a, b) => a.xMin - b.xMin || a.base - b.base);
  for (let i = 0; i < order.length; i++) {
    const f = order[i];
    let col = 0;
    for (let j = 0; j < i; j++) {
      const g = order[j];
      let c: number;
      if (f.xMin > g.xMax) c = g.col + g.text.length + GAP_COLUMNS;
      else if (g.xMax === g.xMin) c = g.col;
      else c = g.col + Math.trunc(((f.xMin - g.xMin) / (g.xMax - g.xMin)) * g.text.length);
      if (c > col) col = c;
    }
    f.col = col;
  }
}

/**
 * Renders one page as pdftotext -layout does (without the final form feed). With `spans`, each
 * word's character range in the result is added to it (offsets in UTF-16 code units).
 */
export function renderLayout(page: LayoutPage, spans?: WordSpan[]): string {
  const frags = fragments(page.words);
  assignColumns(frags);
  // As pdftotext: fragments top to bottom (by the top of their glyphs), then left to right;
  // a fragment continues the current output line when its baseline is within half an em and it
  // starts after what is already written, else 1-5 line breaks by the baseline step.
  frags.sort((a, b) => a.base - ASCENT * a.size - (b.base - ASCENT * b.size) || a.xMin - b.xMin);
  let out = '';
  let line = '';
  for (let i = 0; i < frags.length; i++) {
    const f = frags[i];
    line = line.padEnd(f.col, ' ');
    if (spans) {
      // Characters are code points in `text`; offsets count UTF-16 units as JavaScript strings do.
      let at = out.length + line.length;
      let k = 0;
      for (const fw of f.words) {
        for (; k < fw.from; k++) at += f.text[k].length;
        const start = at;
        for (; k < fw.to; k++) at += f.text[k].length;
        spans.push({ start, end: at, word: fw.word });
      }
    }
    line += f.text.join('');
    const next = frags[i + 1];
    if (!next) break;
    if (next.col < line.length || Math.abs(next.base - f.base) > LINE_DELTA * f.size) {
      const d = Math.min(MAX_BREAKS, Math.max(1, Math.trunc((next.base - f.base) / f.size)));
      out += line.trimEnd() + '\n'.repeat(d);
      line = '';
    }
  }
  out += line.trimEnd();
  if (page.other.length > 0) out += `\n\n${page.other.join('\n')}`;
  return out;
}

/**
 * The words inside a box (points from the top left; a word counts when its centre is inside),
 * for template fields read from an area of the page.
 */
export function cropWords(page: LayoutPage, box: { x: number; y: number; width: number; height: number }): LayoutPage {
  const words = page.words.filter((w) => {
    const cx = (w.x0 + w.x1) / 2;
    const cy = w.base - w.size * 0.35;
    return cx >= box.x && cx <= box.x + box.width && cy >= box.y && cy <= box.y + box.height;
  });
  return { words, other: [] };
}

/** A word as stored: [x0, x1, baseline, size, text] plus 1 when a space precedes it. */
type PackedWord = [number, number, number, number, string] | [number, number, number, number, string, 1];

/** An OCR word as stored: [x0, y0, x1, y1, text] in pixels, plus 1 when it starts a line. */
export type PackedOcrWord = [number, number, number, number, string] | [number, number, number, number, string, 1];

/**
 * A document's layout as stored with it: positioned words per PDF page (null: read by OCR or an
 * image), and the OCR word boxes of pages read by OCR (for field positions).
 */
export interface StoredLayout {
  v: 1;
  pages: Array<{ w: PackedWord[]; o?: string[] } | null>;
  ocr?: Array<PackedOcrWord[] | null>;
  /**
   * Pixel size [width, height] of the image each OCR'd page was read from (what `ocr` boxes are
   * relative to: a scanned PDF page is rendered at the OCR resolution). Absent in layouts stored
   * before it was kept.
   */
  px?: Array<[number, number] | null>;
}

/** Pages kept: templates read at most 100,000 characters, about a dozen pages of layout text. */
export const MAX_LAYOUT_PAGES = 30;

const round = (n: number): number => Math.round(n * 10) / 10;

/** The stored form of the first {@link MAX_LAYOUT_PAGES} pages. */
// PDFs carry NUL characters in their text now and then; PostgreSQL's jsonb refuses a string
// holding one (and the reading text drops them too), so the stored layout leaves them out.
const noNul = (s: string) => (s.includes('\u0000') ? s.replace(/\u0000/g, '') : s);

export function packLayout(
  pages: ReadonlyArray<LayoutPage | null>,
  ocrWords?: ReadonlyArray<ReadonlyArray<OcrWord> | null>,
  ocrSizes?: ReadonlyArray<readonly [number, number] | null>,
): StoredLayout {
  const ocr = ocrWords?.slice(0, MAX_LAYOUT_PAGES).map((ws) =>
    ws
      ? ws.map((w): PackedOcrWord => {
          const box: [number, number, number, number] = [
            Math.round(w.x0),
            Math.round(w.y0),
            Math.round(w.x1),
            Math.round(w.y1),
          ];
          return w.nl ? [...box, noNul(w.text), 1] : [...box, noNul(w.text)];
        })
      : null,
  );
  return {
    v: 1,
    ...(ocr && ocr.some((p) => p !== null) ? { ocr } : {}),
    ...(ocr && ocrSizes?.some((p) => p)
      ? { px: ocr.map((_, i): [number, number] | null => (ocrSizes[i] ? [ocrSizes[i][0], ocrSizes[i][1]] : null)) }
      : {}),
    pages: pages.slice(0, MAX_LAYOUT_PAGES).map((p) => {
      if (!p) return null;
      const w = p.words.map((x): PackedWord =>
        x.sp
          ? [round(x.x0), round(x.x1), round(x.base), round(x.size), noNul(x.text), 1]
          : [round(x.x0), round(x.x1), round(x.base), round(x.size), noNul(x.text)],
      );
      return p.other.length > 0 ? { w, o: p.other.map(noNul) } : { w };
    }),
  };
}

/**
 * A stored page rendered once, with its words' spans: the extract stage reads the layout text
 * (templates) and the positions of the values (the same rendering with spans) from the same
 * stored page object, which would otherwise be unpacked and laid out twice per document.
 */
const rendered = new WeakMap<object, { text: string; spans: WordSpan[] }>();

export function renderStoredPage(p: { w: PackedWord[]; o?: string[] }): { text: string; spans: WordSpan[] } {
  const hit = rendered.get(p);
  if (hit) return hit;
  const spans: WordSpan[] = [];
  const out = { text: renderLayout(unpackPage(p), spans), spans };
  rendered.set(p, out);
  return out;
}

export function unpackPage(p: { w: PackedWord[]; o?: string[] }): LayoutPage {
  return {
    words: p.w.map(([x0, x1, base, size, text, sp]) =>
      sp ? { x0, x1, base, size, text, sp: 1 } : { x0, x1, base, size, text },
    ),
    other: p.o ?? [],
  };
}

/**
 * The whole document as pdftotext -layout prints it: each page's lines, a form feed after each
 * page. Pages without a layout (read by OCR, or beyond the stored ones) use their reading text
 * (`readingText` holds the pages separated by form feeds).
 */
export function layoutText(stored: StoredLayout, readingText: string): string {
  const reading = readingText.split('\f').map((p) => p.replace(/^\n+|\n+$/g, ''));
  const count = Math.max(stored.pages.length, reading.length);
  let out = '';
  for (let i = 0; i < count; i++) {
    const page = stored.pages[i];
    const text = page ? renderStoredPage(page).text : (reading[i] ?? '');
    out += (text ? `${text}\n` : '') + '\f';
  }
  return out;
}

/**
 * The text of a page region as `pdftotext -layout -f F -l L -x X -y Y -W W -H H -r R` gives it
 * (pixels at R dpi from the top left; default 72 dpi, pages 1 to the last).
 */
export function layoutAreaText(
  stored: StoredLayout,
  area: { f?: number; l?: number; x: number; y: number; W: number; H: number; r?: number },
): string {
  const scale = 72 / (area.r ?? 72);
  const first = Math.max(1, area.f ?? 1);
  const last = Math.min(stored.pages.length, area.l ?? stored.pages.length);
  let out = '';
  for (let n = first; n <= last; n++) {
    const page = stored.pages[n - 1];
    if (!page) {
      out += '\f';
      continue;
    }
    const crop = cropWords(unpackPage(page), {
      x: area.x * scale,
      y: area.y * scale,
      width: area.W * scale,
      height: area.H * scale,
    });
    const text = renderLayout(crop);
    out += (text ? `${text}\n` : '') + '\f';
  }
  return out;
}
