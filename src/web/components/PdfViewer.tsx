// The original PDF rendered in the page with pdf.js (bundled; fonts, CMaps and decoders are
// served from this origin, so it works offline). Loaded only when a PDF is opened.
import { useEffect, useRef, useState } from 'react';
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { Button } from './ui';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
const DATA = `/assets/pdfjs-${pdfjs.version}`;
const BATCH = 10;

function Page({ doc, n, total }: { doc: pdfjs.PDFDocumentProxy; n: number; total: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let task: pdfjs.RenderTask | undefined;
    let cancelled = false;
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
      task = page.render({ canvas, viewport });
      await task.promise.catch(() => undefined);
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, n]);
  return <canvas ref={ref} role="img" aria-label={`Page ${n} of ${total}`} data-page={n} />;
}

export default function PdfViewer({ data }: { data: ArrayBuffer }) {
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
        <Page key={n} doc={doc} n={n} total={doc.numPages} />
      ))}
      {shown < doc.numPages ? <Button onClick={() => setShown(shown + BATCH)}>Show more pages</Button> : null}
    </div>
  );
}
