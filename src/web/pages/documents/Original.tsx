import { lazy, Suspense, useEffect, useState } from 'react';
import * as api from '../../lib/api';
import { errorText } from '../../lib/queries';
import { Button, Spinner } from '../../components/ui';
import type { DocumentRow, FieldPosition } from '../../lib/types';

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
  const [img, setImg] = useState<{ scale: number } | null>(null);
  const kind =
    doc.mime_type === 'application/pdf'
      ? 'pdf'
      : doc.mime_type.startsWith('image/') && doc.mime_type !== 'image/svg+xml'
        ? 'image'
        : 'other';
  const [data, setData] = useState<{ buf: ArrayBuffer; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const previewable = kind !== 'other' && doc.size_bytes <= MAX_PREVIEW;
  useEffect(() => {
    if (!previewable) return;
    const ctl = new AbortController();
    let url = '';
    api.blob(`/documents/${doc.id}/content`, ctl.signal).then(
      async (b) => {
        // The API serves originals as attachments of a neutral type; the page knows what it is.
        const typed = new Blob([b], { type: doc.mime_type });
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
            box={box && box.unit === 'pt' ? box : null}
            onPick={
              onPick
                ? (w) =>
                    onPick(w.text, {
                      page: w.page,
                      bbox: w.bbox.map((v) => Math.round(v * 100) / 100) as [number, number, number, number],
                      unit: 'pt',
                    })
                : undefined
            }
          />
        </Suspense>
      ) : (
        <div className="viewer" tabIndex={0} role="region" aria-label="Original document">
          <div className="page-wrap">
            <img
              src={data.url}
              alt={`Original of ${doc.filename}`}
              onLoad={(e) => setImg({ scale: e.currentTarget.clientWidth / (e.currentTarget.naturalWidth || 1) })}
            />
            {box && box.unit === 'px' && box.page === 1 && img ? (
              <div
                className="field-box"
                data-testid="field-box"
                style={{
                  left: box.bbox[0] * img.scale - 2,
                  top: box.bbox[1] * img.scale - 2,
                  width: (box.bbox[2] - box.bbox[0]) * img.scale + 4,
                  height: (box.bbox[3] - box.bbox[1]) * img.scale + 4,
                }}
              />
            ) : null}
          </div>
        </div>
      )}
    </div>
  );
}
