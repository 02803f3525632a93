import { lazy, Suspense, useEffect, useState } from 'react';
import * as api from '../../lib/api';
import { errorText, useGet } from '../../lib/queries';
import { Button, Spinner } from '../../components/ui';
import type { DocumentRow, FieldPosition } from '../../lib/types';
import type { OcrPage } from '../../components/PdfViewer';
import { ImagePage } from './ImagePage';

const PdfViewer = lazy(() => import('../../components/PdfViewer'));
const MAX_PREVIEW = 40 * 1024 * 1024;

/**
 * The uploaded file as it came in: PDFs rendered with pdf.js, images shown, others downloadable.
 * With `onPick`, clicking a word of a rendered PDF page hands its text and box to the caller.
 */
export function Original({
  doc,
  position,
  onPick,
}: {
  doc: DocumentRow;
  position?: FieldPosition | null;
  onPick?: (text: string, position: FieldPosition) => void;
}) {
  const box = position && 'page' in position ? position : null;
  const kind =
    doc.mime_type === 'application/pdf'
      ? 'pdf'
      : doc.mime_type.startsWith('image/') && doc.mime_type !== 'image/svg+xml'
        ? 'image'
        : 'other';
  const [data, setData] = useState<{ buf: ArrayBuffer; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const previewable = kind !== 'other' && doc.size_bytes <= MAX_PREVIEW;
  // Words OCR found (images, scanned PDF pages): what a click on the page can pick there. PDF
  // text layers come from pdf.js itself.
  const words = useGet(
    '/api/v1/documents/{id}/words',
    previewable && doc.timestamps.parsed_at ? { path: { id: doc.id } } : null,
    { retry: false },
  );
  const ocr: OcrPage[] = (words.data?.pages ?? []).filter((p) => p.unit === 'px');
  useEffect(() => {
    if (!previewable) return;
    const ctl = new AbortController();
    let url = '';
    // Browsers cannot show TIFFs: the server's upright PNG of the first page stands in for them.
    const png = doc.mime_type === 'image/tiff';
    api.blob(`/documents/${doc.id}/${png ? 'preview' : 'content'}`, ctl.signal).then(
      async (b) => {
        // The API serves originals as attachments of a neutral type; the page knows what it is.
        const typed = new Blob([b], { type: png ? 'image/png' : doc.mime_type });
        url = URL.createObjectURL(typed);
        setData({ buf: await typed.arrayBuffer(), url });
      },
      (e) => {
        if (!ctl.signal.aborted) setError(errorText(e));
      },
    );
    return () => {
      ctl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [doc.id, doc.mime_type, previewable]);

  const download = async () => {
    const b = await api.blob(`/documents/${doc.id}/content`);
    const url = URL.createObjectURL(b);
    const a = document.createElement('a');
    a.href = url;
    a.download = doc.filename;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <div className="stack">
      <div className="row">
        <Button onClick={() => void download()}>Download original</Button>
        <span className="muted small">{doc.mime_type}</span>
      </div>
      {error ? (
        <div className="error-box" role="alert">
          {error}
        </div>
      ) : !previewable ? (
        <p className="muted">No preview for this type of file; download it to open it.</p>
      ) : !data ? (
        <Spinner label="Loading the original…" />
      ) : kind === 'pdf' ? (
        <Suspense fallback={<Spinner label="Loading the PDF viewer…" />}>
          <PdfViewer
            data={data.buf}
            box={box}
            ocr={ocr}
            onPick={
              onPick
                ? (w) =>
                    onPick(w.text, {
                      page: w.page,
                      bbox: w.bbox.map((v) => Math.round(v * 100) / 100) as [number, number, number, number],
                      unit: w.unit,
                    })
                : undefined
            }
          />
        </Suspense>
      ) : (
        <ImagePage
          url={data.url}
          alt={`Original of ${doc.filename}`}
          box={box && box.unit === 'px' ? box : null}
          words={ocr.find((p) => p.page === 1)}
          onPick={onPick}
        />
      )}
    </div>
  );
}
