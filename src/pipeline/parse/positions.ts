/**
 * Where a piece of a document's text is on its pages. The index renders every page the way
 * templates read it (a PDF page from its positioned words, a page read by OCR from tesseract's
 * words, line by line) and keeps, for each word, its character range and its box. A value
 * found in that text then maps to the union of the boxes of the words it covers. Documents
 * without a layout (text, e-mail, office files) answer with character offsets into their text.
 */
import { renderStoredPage, type StoredLayout } from './pdf-layout.js';

import type { FieldPosition } from '../extract/types.js';

export type { FieldPosition };

export interface PositionIndex {
  /** The text values are looked for in. */
  text: string;
  /** The place of `text[start, end)`; null when no positioned word covers it (never invented). */
  at(start: number, end: number): FieldPosition | null;
}

interface Span {
  start: number;
  end: number;
  page: number;
  box: [number, number, number, number];
  unit: 'pt' | 'px';
}

/** Top of a glyph box above the baseline and bottom below it, in em. */
const ASCENT = 0.8;
const DESCENT = 0.2;

const r1 = (n: number): number => Math.round(n * 10) / 10;

/** A PDF word's box in points from the page's top left (the box field positions use). */
export function pdfBox(w: { x0: number; x1: number; base: number; size: number }): [number, number, number, number] {
  return [r1(w.x0), r1(w.base - ASCENT * w.size), r1(w.x1), r1(w.base + DESCENT * w.size)];
}

/** The position index of a document: its layout when it has one, else its text. */
export function positionIndex(text: string, layout: StoredLayout | null | undefined): PositionIndex {
  if (!layout || (layout.pages.every((p) => p === null) && !layout.ocr?.some((p) => p && p.length > 0)))
    return {
      text,
      at: (start, end) => (end > start && start >= 0 && end <= text.length ? { start, end } : null),
    };
  const reading = text.split('\f').map((p) => p.replace(/^\n+|\n+$/g, ''));
  const count = Math.max(layout.pages.length, layout.ocr?.length ?? 0, reading.length);
  const spans: Span[] = [];
  let out = '';
  for (let i = 0; i < count; i++) {
    if (i > 0) out += '\n\f\n';
    const base = out.length;
    const page = layout.pages[i];
    const ocr = layout.ocr?.[i];
    if (page) {
      const r = renderStoredPage(page);
      out += r.text;
      for (const s of r.spans)
        spans.push({ start: base + s.start, end: base + s.end, page: i + 1, box: pdfBox(s.word), unit: 'pt' });
    } else if (ocr && ocr.length > 0) {
      for (const [x0, y0, x1, y1, word, nl] of ocr) {
        if (out.length > base) out += nl ? '\n' : ' ';
        spans.push({
          start: out.length,
          end: out.length + word.length,
          page: i + 1,
          box: [x0, y0, x1, y1],
          unit: 'px',
        });
        out += word;
      }
    } else out += reading[i] ?? '';
  }
  return {
    text: out,
    at(start, end) {
      // Spans are in text order: find the first that ends after `start`.
      let lo = 0;
      let hi = spans.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (spans[mid].end <= start) lo = mid + 1;
        else hi = mid;
      }
      const first = lo;
      let box: [number, number, number, number] | null = null;
      let page = 0;
      let unit: 'pt' | 'px' = 'pt';
      for (let k = first; k < spans.length && spans[k].start < end; k++) {
        const s = spans[k];
        if (box === null) {
          box = [...s.box];
          page = s.page;
          unit = s.unit;
        } else if (s.page === page) {
          box = [
            Math.min(box[0], s.box[0]),
            Math.min(box[1], s.box[1]),
            Math.max(box[2], s.box[2]),
            Math.max(box[3], s.box[3]),
          ];
        }
      }
      return box ? { page, bbox: box, unit } : null;
    },
  };
}
