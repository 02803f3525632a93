import { useState } from 'react';
import type { FieldPosition } from '../../lib/types';
import type { OcrPage } from '../../components/PdfViewer';

/**
 * An uploaded image with the selected field's box outlined and, with `onPick`, the words OCR
 * found in it laid over it as clickable regions: a click fills the selected field with the word
 * and its box (pixels of the image, as the server read it).
 */
export function ImagePage({
  url,
  alt,
  box,
  words,
  onPick,
}: {
  url: string;
  alt: string;
  box: { page: number; bbox: readonly number[] } | null;
  words?: OcrPage;
  onPick?: (text: string, position: FieldPosition) => void;
}) {
  // CSS pixels per image pixel, once the image is laid out.
  const [scale, setScale] = useState(0);
  const [natural, setNatural] = useState(0);
  // OCR boxes are in pixels of the image read; when its size is known, scale from that.
  const ocrScale = words?.width && natural ? (scale * natural) / words.width : scale;
  const rect = (b: readonly number[], s: number, pad = 0) => ({
    left: b[0] * s - pad,
    top: b[1] * s - pad,
    width: (b[2] - b[0]) * s + 2 * pad,
    height: (b[3] - b[1]) * s + 2 * pad,
  });
  return (
    <div className="viewer" tabIndex={0} role="region" aria-label="Original document">
      <div className="page-wrap">
        <img
          src={url}
          alt={alt}
          data-loaded={scale > 0 ? 'true' : undefined}
          onLoad={(e) => {
            setNatural(e.currentTarget.naturalWidth || 1);
            setScale(e.currentTarget.clientWidth / (e.currentTarget.naturalWidth || 1));
          }}
        />
        {onPick && scale > 0
          ? words?.words.map((w, i) => (
              <span
                key={i}
                className="page-word"
                data-testid="page-word"
                title={`Fill the selected field with “${w.text}”`}
                // Picked with the mouse; the keyboard fills fields by typing or from the Text view.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() =>
                  onPick(w.text, {
                    page: 1,
                    bbox: [w.bbox[0], w.bbox[1], w.bbox[2], w.bbox[3]],
                    unit: 'px',
                  })
                }
                style={rect(w.bbox, ocrScale)}>
                {w.text}
              </span>
            ))
          : null}
        {box && box.page === 1 && scale > 0 ? (
          <div className="field-box" data-testid="field-box" style={rect(box.bbox, ocrScale, 2)} />
        ) : null}
      </div>
    </div>
  );
}
