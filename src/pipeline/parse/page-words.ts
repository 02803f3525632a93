/**
 * The words of a document's pages with their boxes, for a person to click on: PDF pages from
 * their text layer (points from the page's top left, the same boxes field positions use) and
 * pages read by OCR — images and scanned PDF pages — from tesseract's word boxes (pixels of the
 * image that was read, whose size is given when it was kept, so a viewer can scale them).
 */
import { unpackPage, type StoredLayout } from './pdf-layout.js';
import { pdfBox } from './positions.js';

export interface PageWords {
  /** 1-based. */
  page: number;
  unit: 'pt' | 'px';
  /** OCR pages: the pixel size of the image the boxes are measured in (absent when not known). */
  width?: number;
  height?: number;
  words: Array<{ text: string; bbox: [number, number, number, number] }>;
}

/** Every page of the layout that has positioned words, in page order. */
export function pageWords(layout: StoredLayout | null | undefined): PageWords[] {
  if (!layout) return [];
  const out: PageWords[] = [];
  const count = Math.max(layout.pages.length, layout.ocr?.length ?? 0);
  for (let i = 0; i < count; i++) {
    const pdf = layout.pages[i];
    const ocr = layout.ocr?.[i];
    if (pdf && pdf.w.length > 0) {
      out.push({
        page: i + 1,
        unit: 'pt',
        words: unpackPage(pdf).words.map((w) => ({ text: w.text, bbox: pdfBox(w) })),
      });
    } else if (ocr && ocr.length > 0) {
      const size = layout.px?.[i];
      out.push({
        page: i + 1,
        unit: 'px',
        ...(size ? { width: size[0], height: size[1] } : {}),
        words: ocr.map(([x0, y0, x1, y1, text]) => ({ text, bbox: [x0, y0, x1, y1] })),
      });
    }
  }
  return out;
}
