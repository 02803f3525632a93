// The clickable words of a stored layout (GET /documents/{id}/words): PDF text-layer words in
// points with the boxes field positions use, OCR words in pixels with the size of the image read.
import { describe, expect, it } from 'vitest';
import { packLayout, pageWords, positionIndex } from '../../../src/pipeline/parse/index.js';

describe('pageWords', () => {
  const pdfPage = {
    words: [
      { x0: 72, x1: 120, base: 100, size: 10, text: 'Invoice' },
      { x0: 124, x1: 150, base: 100, size: 10, text: '1042', sp: 1 as const },
    ],
    other: [],
  };
  const ocr = [
    { text: 'Total', x0: 10, y0: 20, x1: 60, y1: 40, nl: 1 as const },
    { text: '9.99', x0: 70, y0: 20, x1: 110, y1: 40 },
  ];

  it('gives text-layer pages in points and OCR pages in pixels with their image size', () => {
    const layout = packLayout([pdfPage, null], [null, ocr], [null, [1240, 1754]]);
    expect(layout.px).toEqual([null, [1240, 1754]]);
    const pages = pageWords(layout);
    expect(pages).toEqual([
      {
        page: 1,
        unit: 'pt',
        words: [
          { text: 'Invoice', bbox: [72, 92, 120, 102] },
          { text: '1042', bbox: [124, 92, 150, 102] },
        ],
      },
      {
        page: 2,
        unit: 'px',
        width: 1240,
        height: 1754,
        words: [
          { text: 'Total', bbox: [10, 20, 60, 40] },
          { text: '9.99', bbox: [70, 20, 110, 40] },
        ],
      },
    ]);
  });

  it('shares its boxes with field positions', () => {
    const layout = packLayout([pdfPage], undefined);
    const index = positionIndex('Invoice 1042', layout);
    const at = index.text.indexOf('1042');
    expect(index.at(at, at + 4)).toEqual({ page: 1, bbox: pageWords(layout)[0].words[1].bbox, unit: 'pt' });
  });

  it('leaves out pages without words, and gives no size where none was kept', () => {
    expect(pageWords(null)).toEqual([]);
    const old = packLayout([null], [ocr]);
    expect(old.px).toBeUndefined();
    const [p] = pageWords(old);
    expect(p).toMatchObject({ page: 1, unit: 'px' });
    expect('width' in p).toBe(false);
    expect(pageWords(packLayout([{ words: [], other: [] }]))).toEqual([]);
  });
});
