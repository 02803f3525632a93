// Source of the worker thread that runs pdf.js. It is plain JavaScript evaluated with
// `new Worker(source, { eval: true })` so it runs the same way from compiled `dist/` and from
// TypeScript sources under the test runner (a worker thread cannot load .ts files).
// It only talks to pdf.js; line reconstruction, OCR and error mapping stay in the parent.
//
// Protocol (parent → worker):  {type:'read', id, data, maxPages, minTextChars, render}
//                              {type:'ack', id}           after handling a 'page' marked ack
// Protocol (worker → parent):  {type:'ready'} | {type:'failed', message} once, at start-up
//                              {type:'page', id, pageNumber, numPages, items, viewport,
//                               textChars, visible, png, error, ack}
// The worker waits for an ack after a page with an image to recognise (OCR is slow; pages
// must not pile up) and after every ACK_EVERY pages, so at most that many pages of text are in
// flight. Not waiting after every page matters: each message wakes the other thread, which on
// a small virtual machine costs tens of microseconds of CPU per message.
//                              {type:'done', id, numPages} | {type:'error', id, name, message, numPages?}

export const PDF_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

let pdfjsPromise;
const pdfjs = () => (pdfjsPromise ??= import(workerData.pdfjsUrl));
// Loading pdf.js takes a few hundred milliseconds; the parent starts its watchdog after this.
pdfjs().then(
  () => parentPort.postMessage({ type: 'ready' }),
  (err) => parentPort.postMessage({ type: 'failed', message: String((err && err.message) || err) }),
);

// One document at a time per worker; the parent waits for 'done' or 'error' before the next.
let ackResolve = null;
const waitForAck = () => new Promise((resolve) => { ackResolve = resolve; });

const PAINT_OPS = ${JSON.stringify([
  'paintImageXObject', 'paintInlineImageXObject', 'paintImageMaskXObject', 'paintImageXObjectRepeat',
  'paintImageMaskXObjectRepeat', 'paintImageMaskXObjectGroup', 'paintInlineImageXObjectGroup',
  'paintSolidColorImageMask', 'showText', 'showSpacedText', 'nextLineShowText', 'nextLineSetSpacingShowText',
])};
const MANY_PATHS = 200;
const ACK_EVERY = 8;

async function hasVisibleContent(lib, page) {
  const paint = new Set(PAINT_OPS.map((n) => lib.OPS[n]).filter((n) => n !== undefined));
  const list = await page.getOperatorList();
  let paths = 0;
  for (const fn of list.fnArray) {
    if (paint.has(fn)) return true;
    if (fn === lib.OPS.constructPath && ++paths >= MANY_PATHS) return true;
  }
  return false;
}

async function renderPng(doc, page, opts) {
  const base = page.getViewport({ scale: 1 });
  let scale = opts.dpi / 72;
  const pixels = base.width * base.height * scale * scale;
  if (pixels > opts.maxPixels) scale *= Math.sqrt(opts.maxPixels / pixels);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  // pdf.js's own canvas factory: a second canvas binding in one process crashes.
  const factory = doc.canvasFactory;
  const cc = factory.create(width, height);
  try {
    await page.render({ canvas: cc.canvas, canvasContext: cc.context, viewport }).promise;
    const png = typeof cc.canvas.encode === 'function' ? await cc.canvas.encode('png') : cc.canvas.toBuffer('image/png');
    return new Uint8Array(png);
  } finally {
    factory.destroy(cc);
  }
}

function plainItems(content) {
  const items = [];
  for (const it of content.items) {
    if (typeof it.str !== 'string') continue;
    items.push({ str: it.str, transform: it.transform, width: it.width, height: it.height, dir: it.dir });
  }
  return items;
}

async function read(msg) {
  const lib = await pdfjs();
  const task = lib.getDocument({
    data: msg.data,
    ...workerData.assets,
    cMapPacked: true,
    verbosity: lib.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    // Text comes from each font's encoding and ToUnicode map, never from its glyph program. With
    // system fonts "on", pdf.js leaves a non-embedded standard font (Helvetica, Times, …) as a
    // name instead of loading and converting the matching font file for every document, which
    // was over half of a text PDF's parse time (the text is byte-for-byte the same on the
    // benchmark and robustness-corpus PDFs). Pages rendered for OCR draw such text with a
    // fallback face; their text layer is tiny anyway.
    useSystemFonts: true,
    enableXfa: false,
    stopAtErrors: false,
    maxImageSize: workerData.maxImagePixels,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    throw err;
  }
  try {
    const numPages = doc.numPages;
    if (numPages > msg.maxPages) {
      parentPort.postMessage({ type: 'error', id: msg.id, name: 'TooManyPages', message: 'too many pages', numPages });
      return;
    }
    for (let n = 1; n <= numPages; n++) {
      const out = { type: 'page', id: msg.id, pageNumber: n, numPages, items: [], viewport: null, textChars: 0, visible: null, png: null, error: null };
      let page;
      try {
        page = await doc.getPage(n);
        out.viewport = page.getViewport({ scale: 1 }).transform;
        out.items = plainItems(await page.getTextContent());
        out.textChars = out.items.reduce((sum, it) => sum + it.str.replace(/\s+/g, '').length, 0);
        if (out.textChars < msg.minTextChars) {
          out.visible = await hasVisibleContent(lib, page);
          if (out.visible && msg.render) out.png = await renderPng(doc, page, msg.render);
        }
      } catch (err) {
        out.error = String((err && err.message) || err);
      } finally {
        if (page) page.cleanup();
      }
      out.ack = out.png !== null || (n % ACK_EVERY === 0 && n < numPages);
      parentPort.postMessage(out, out.png ? [out.png.buffer] : []);
      if (out.ack) await waitForAck();
    }
    parentPort.postMessage({ type: 'done', id: msg.id, numPages });
  } finally {
    await doc.destroy().catch(() => {});
  }
}

parentPort.on('message', (msg) => {
  if (msg.type === 'ack') {
    const resolve = ackResolve;
    ackResolve = null;
    if (resolve) resolve();
    return;
  }
  if (msg.type === 'read') {
    read(msg).catch((err) => {
      parentPort.postMessage({
        type: 'error',
        id: msg.id,
        name: (err && err.name) || 'Error',
        message: String((err && err.message) || err),
      });
    });
  }
});
`;
