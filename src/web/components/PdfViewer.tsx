// The original PDF rendered in the page with pdf.js (bundled; fonts, CMaps and decoders are
// served from this origin, so it works offline). Loaded only when a PDF is opened.
import { useEffect, useRef, useState } from 'react';
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { Button } from './ui';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
const DATA = `/assets/pdfjs-${pdfjs.version}`;
const BATCH = 10;

/**
 * A box to outline on a page, in PDF points from the page's top left: `bbox` is [x0, y0, x1, y1]
 * (the API's FieldPosition, whose schema fixes the length at 4).
 */
export interface PageBox {
  page: number;
  bbox: readonly number[];
}

/** A word of the page's text layer, in PDF points from the page's top left. */
export interface PageWord extends PageBox {
  text: string;
}

/**
 * A page read by OCR (a scan): its words in pixels of the image the server read, whose size is
 * `width` × `height` when known (GET /documents/{id}/words). pdf.js finds no text layer there.
 */
export interface OcrPage {
  page: number;
  width?: number;
  words: ReadonlyArray<{ text: string; bbox: readonly number[] }>;
}

/** The resolution the server renders scanned pages at for OCR when the image size is not known. */
const OCR_DPI = 200;

/**
 * The words of a page from its text layer: each text run's box (from its transform and width at
 * scale 1), split into words in proportion to their characters (runs are set in one font, so
 * this is close enough to click on).
 */
async function pageWords(page: pdfjs.PDFPageProxy, n: number): Promise<PageWord[]> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const out: PageWord[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '' || item.width <= 0) continue;
    const t = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
    const height = Math.hypot(t[2], t[3]) || item.height;
    const x0 = t[4];
    const y1 = t[5];
    const perChar = item.width / Math.max(1, item.str.length);
    for (const m of item.str.matchAll(/\S+/g)) {
      const start = x0 + (m.index ?? 0) * perChar;
      out.push({ page: n, text: m[0], bbox: [start, y1 - height, start + m[0].length * perChar, y1] });
    }
  }
  return out;
}

function Page({
  doc,
  n,
  total,
  box,
  ocr,
  onPick,
}: {
  doc: pdfjs.PDFDocumentProxy;
  n: number;
  total: number;
  box?: (PageBox & { unit?: string }) | null;
  ocr?: OcrPage;
  onPick?: (w: PageWord & { unit: 'pt' | 'px' }) => void;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  // CSS pixels per PDF point, once the page is laid out (the outline is drawn in CSS pixels).
  const [cssScale, setCssScale] = useState(0);
  // The page's width in points (to scale OCR pixels onto it).
  const [ptWidth, setPtWidth] = useState(0);
  const [words, setWords] = useState<PageWord[]>([]);
  // Set once pdf.js has finished drawing the page (tests and screenshots wait for it).
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let task: pdfjs.RenderTask | undefined;
    let cancelled = false;
    setPainted(false);
    // Fire and forget (an effect cannot await): a failed render is caught below, and the page of
    // a document destroyed on unmount has nothing to draw.
    void (async () => {
      const page = await doc.getPage(n);
      const canvas = ref.current;
      if (cancelled || !canvas) return;
      const width = Math.min(canvas.parentElement?.clientWidth ?? 800, 1000);
      const base = page.getViewport({ scale: 1 });
      const scale = (width / base.width) * (window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / (window.devicePixelRatio || 1))}px`;
      setCssScale(Math.floor(viewport.width / (window.devicePixelRatio || 1)) / base.width);
      setPtWidth(base.width);
      task = page.render({ canvas, viewport });
      await task.promise.then(
        () => {
          if (!cancelled) setPainted(true);
        },
        () => undefined,
      );
      // The words to click on come from the same page's text layer.
      const ws = await pageWords(page, n).catch(() => []);
      if (!cancelled) setWords(ws);
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, n]);
  // CSS pixels per OCR pixel on a scanned page.
  const pxScale = ocr && ptWidth > 0 ? (cssScale * ptWidth) / (ocr.width ?? (ptWidth * OCR_DPI) / 72) : 0;
  const boxScale = box?.unit === 'px' ? pxScale : cssScale;
  const mine = box && box.page === n && boxScale > 0 ? box.bbox : null;
  // Words to click: the text layer's, or on a scan (no text layer) the OCR words.
  const clickable: Array<{ w: PageWord; unit: 'pt' | 'px'; scale: number }> =
    words.length > 0 || !ocr
      ? words.map((w) => ({ w, unit: 'pt', scale: cssScale }))
      : ocr.words.map((w) => ({ w: { page: n, text: w.text, bbox: w.bbox }, unit: 'px', scale: pxScale }));
  return (
    <div className="page-wrap">
      <canvas
        ref={ref}
        role="img"
        aria-label={`Page ${n} of ${total}`}
        data-page={n}
        data-painted={painted ? 'true' : undefined}
      />
      {onPick && cssScale > 0
        ? clickable.map(({ w, unit, scale }, i) => (
            <span
              key={i}
              className="page-word"
              data-testid="page-word"
              title={`Fill the selected field with “${w.text}”`}
              // A word is picked with the mouse; the keyboard fills fields by typing or from the Text tab.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick({ ...w, unit })}
              style={{
                left: w.bbox[0] * scale,
                top: w.bbox[1] * scale,
                width: (w.bbox[2] - w.bbox[0]) * scale,
                height: (w.bbox[3] - w.bbox[1]) * scale,
              }}>
              {w.text}
            </span>
          ))
        : null}
      {mine ? (
        <div
          className="field-box"
          data-testid="field-box"
          style={{
            left: mine[0] * boxScale - 2,
            top: mine[1] * boxScale - 2,
            width: (mine[2] - mine[0]) * boxScale + 4,
            height: (mine[3] - mine[1]) * boxScale + 4,
          }}
        />
      ) : null}
    </div>
  );
}

export default function PdfViewer({
  data,
  box,
  ocr,
  onPick,
}: {
  data: ArrayBuffer;
  /** The outline: in points (`unit` pt or absent) or, on a scanned page, in OCR pixels (`unit` px). */
  box?: (PageBox & { unit?: string }) | null;
  /** OCR words of scanned pages, clickable where the page has no text layer. */
  ocr?: readonly OcrPage[];
  /** Clicking a word of the page hands it here (filling the selected field); without it words are not clickable. */
  onPick?: (w: PageWord & { unit: 'pt' | 'px' }) => void;
}) {
  const [doc, setDoc] = useState<pdfjs.PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(BATCH);
  useEffect(() => {
    // pdf.js takes ownership of the buffer it is given: hand it a copy.
    const task = pdfjs.getDocument({
      data: new Uint8Array(data.slice(0)),
      cMapUrl: `${DATA}/cmaps/`,
      cMapPacked: true,
      standardFontDataUrl: `${DATA}/standard_fonts/`,
      wasmUrl: `${DATA}/wasm/`,
      isEvalSupported: false,
      enableXfa: false,
    });
    let live = true;
    task.promise.then(
      (d) => {
        if (live) setDoc(d);
      },
      (e: Error) => {
        if (live) setError(e.message);
      },
    );
    return () => {
      live = false;
      void task.destroy();
    };
  }, [data]);
  if (error)
    return (
      <div className="error-box" role="alert">
        This PDF cannot be shown: {error}
      </div>
    );
  if (!doc) return <p className="muted">Rendering…</p>;
  const pages = Array.from({ length: Math.min(shown, doc.numPages) }, (_, i) => i + 1);
  return (
    <div className="viewer" data-testid="pdf-viewer" tabIndex={0} role="region" aria-label="Original document">
      <p className="small muted">
        {doc.numPages} {doc.numPages === 1 ? 'page' : 'pages'}
      </p>
      {pages.map((n) => (
        <Page
          key={n}
          doc={doc}
          n={n}
          total={doc.numPages}
          box={box}
          ocr={ocr?.find((p) => p.page === n)}
          onPick={onPick}
        />
      ))}
      {shown < doc.numPages ? <Button onClick={() => setShown(shown + BATCH)}>Show more pages</Button> : null}
    </div>
  );
}
