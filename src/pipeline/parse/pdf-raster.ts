import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs.js';
import { withTimeout } from './timeout.js';

/** Options for {@link renderPageToPng}. */
export interface RasterOptions {
  /** Resolution for OCR; tesseract does best with 150–300 dpi text. Default 200. */
  dpi?: number;
  /** Upper bound on pixels per page, so a poster-sized page cannot exhaust memory. Default 25,000,000. */
  maxPixels?: number;
  /** Render time limit; the render task is cancelled on expiry. Default 60,000 ms. */
  timeoutMs?: number;
}

/** The part of pdf.js's canvas factory (backed by its own @napi-rs/canvas) we use. */
interface CanvasAndContext {
  canvas: { width: number; height: number; encode?: (format: 'png') => Promise<Buffer>; toBuffer(mime: 'image/png'): Buffer };
  context: unknown;
}
interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(cc: CanvasAndContext): void;
}

/**
 * Renders one page to a PNG with pdf.js's own canvas factory. A second canvas binding in the
 * same process crashes (two native copies of Skia), so nothing else may create canvases here.
 */
export async function renderPageToPng(doc: PDFDocumentProxy, page: PDFPageProxy, options: RasterOptions = {}): Promise<Buffer> {
  const dpi = options.dpi ?? 200;
  const maxPixels = options.maxPixels ?? 25_000_000;
  const base = page.getViewport({ scale: 1 });
  let scale = dpi / 72;
  const pixels = base.width * base.height * scale * scale;
  if (pixels > maxPixels) scale *= Math.sqrt(maxPixels / pixels);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const cc = factory.create(width, height);
  try {
    const params = { canvas: cc.canvas, canvasContext: cc.context, viewport };
    const task = page.render(params as unknown as Parameters<PDFPageProxy['render']>[0]);
    await withTimeout(task.promise, options.timeoutMs ?? 60_000, `rendering page ${page.pageNumber}`, () => task.cancel());
    // encode() runs off the main thread; toBuffer() is the synchronous fallback.
    return typeof cc.canvas.encode === 'function' ? await cc.canvas.encode('png') : cc.canvas.toBuffer('image/png');
  } finally {
    factory.destroy(cc);
  }
}
