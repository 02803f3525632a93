// The parser process's side of PDF reading: drives pdf.js page by page and reports each page
// to the parent (see pdf-engine.ts for the protocol). It only talks to pdf.js; line
// reconstruction, OCR and error mapping stay in the parent.
import { pdfjsAssets } from './pdfjs.js';

// Untyped on purpose: pdf.js is loaded by URL at run time.
type PdfJs = any;

/** Page data as sent to the parent (`png` as bytes). */
export interface PageMessage {
  type: 'page';
  id: number;
  pageNumber: number;
  numPages: number;
  items: { str: string; transform: number[]; width: number; height: number; dir?: string }[];
  viewport: number[] | null;
  textChars: number;
  visible: boolean | null;
  png: Uint8Array | null;
  error: string | null;
  /** The reader waits for an `ack` before going on. */
  ack: boolean;
}

export interface ReadRequest {
  type: 'read';
  id: number;
  data: Uint8Array;
  maxPages: number;
  minTextChars: number;
  render: { dpi: number; maxPixels: number } | null;
}

/** Thrown to end a read with a given error name the parent maps to a code. */
export class ReaderError extends Error {
  constructor(
    override readonly name: 'TooManyPages' | 'TooLarge',
    message: string,
    readonly numPages?: number,
  ) {
    super(message);
  }
}

const PAINT_OPS = [
  'paintImageXObject',
  'paintInlineImageXObject',
  'paintImageMaskXObject',
  'paintImageXObjectRepeat',
  'paintImageMaskXObjectRepeat',
  'paintImageMaskXObjectGroup',
  'paintInlineImageXObjectGroup',
  'paintSolidColorImageMask',
  'showText',
  'showSpacedText',
  'nextLineShowText',
  'nextLineSetSpacingShowText',
];
const MANY_PATHS = 200;
/**
 * The reader waits for an ack after a page with an image to recognise (OCR is slow; pages must
 * not pile up) and after every ACK_EVERY pages, so at most that many pages of text are in
 * flight. Not waiting after every page matters: each message wakes the other process.
 */
const ACK_EVERY = 8;

async function hasVisibleContent(lib: PdfJs, page: PdfJs): Promise<boolean> {
  const paint = new Set(PAINT_OPS.map((n) => lib.OPS[n]).filter((n) => n !== undefined));
  const list = await page.getOperatorList();
  let paths = 0;
  for (const fn of list.fnArray as number[]) {
    if (paint.has(fn)) return true;
    if (fn === lib.OPS.constructPath && ++paths >= MANY_PATHS) return true;
  }
  return false;
}

async function renderPng(doc: PdfJs, page: PdfJs, opts: { dpi: number; maxPixels: number }): Promise<Uint8Array> {
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
    const png =
      typeof cc.canvas.encode === 'function' ? await cc.canvas.encode('png') : cc.canvas.toBuffer('image/png');
    return new Uint8Array(png);
  } finally {
    factory.destroy(cc);
  }
}

function plainItems(content: { items: any[] }): PageMessage['items'] {
  const items: PageMessage['items'] = [];
  for (const it of content.items) {
    if (typeof it.str !== 'string') continue;
    items.push({ str: it.str, transform: it.transform, width: it.width, height: it.height, dir: it.dir });
  }
  return items;
}

/**
 * Whether an error or a pdf.js warning says an allocation failed (memory limit reached). ICU
 * (behind TextDecoder and String#normalize) reports a refused allocation only as "Icu error".
 */
export function isAllocationFailure(text: string): boolean {
  return /allocation failed|invalid (typed )?array length|array buffer|out of memory|invalid string length|icu error/i.test(
    text,
  );
}

/**
 * pdf.js reads a page "as well as it can" and reports what it skipped only as a warning, so an
 * allocation refused by the process's memory limit would silently shorten the text. Warnings
 * are watched for that and turn the document into a TooLarge failure.
 */
function watchWarnings(): { exhausted(): boolean; reset(): void } {
  let seen = false;
  const watch = (...args: unknown[]): void => {
    if (!seen && isAllocationFailure(args.map(String).join(' '))) seen = true;
  };
  console.log = watch;
  console.warn = watch;
  console.error = watch;
  return { exhausted: () => seen, reset: () => void (seen = false) };
}

/** Loads pdf.js once and reads documents one at a time, streaming pages through `send`. */
export function createPdfReader(o: { maxImagePixels: number; send: (m: unknown) => void }) {
  const { pdfjsUrl, assets } = pdfjsAssets();
  let lib: Promise<PdfJs> | undefined;
  const load = (): Promise<PdfJs> => (lib ??= import(pdfjsUrl));
  const warnings = watchWarnings();
  let ackResolve: (() => void) | null = null;
  const waitForAck = () =>
    new Promise<void>((resolve) => {
      ackResolve = resolve;
    });

  const memoryCheck = (): void => {
    if (warnings.exhausted()) throw new ReaderError('TooLarge', 'an allocation failed at the memory limit');
  };

  async function read(msg: ReadRequest): Promise<void> {
    const pdfjs = await load();
    warnings.reset();
    const task = pdfjs.getDocument({
      data: msg.data,
      ...assets,
      cMapPacked: true,
      // Warnings are printed to the watched console (see watchWarnings), never to a terminal.
      verbosity: pdfjs.VerbosityLevel.WARNINGS,
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
      maxImageSize: o.maxImagePixels,
    });
    let doc: PdfJs;
    try {
      doc = await task.promise;
    } catch (err) {
      await task.destroy().catch(() => {});
      throw err;
    }
    try {
      const numPages: number = doc.numPages;
      if (numPages > msg.maxPages) throw new ReaderError('TooManyPages', 'too many pages', numPages);
      for (let n = 1; n <= numPages; n++) {
        const out: PageMessage = {
          type: 'page',
          id: msg.id,
          pageNumber: n,
          numPages,
          items: [],
          viewport: null,
          textChars: 0,
          visible: null,
          png: null,
          error: null,
          ack: false,
        };
        let page: PdfJs;
        try {
          page = await doc.getPage(n);
          out.viewport = page.getViewport({ scale: 1 }).transform;
          out.items = plainItems(await page.getTextContent());
          out.textChars = out.items.reduce((sum, it) => sum + it.str.replace(/\s+/g, '').length, 0);
          if (out.textChars < msg.minTextChars) {
            out.visible = await hasVisibleContent(pdfjs, page);
            if (out.visible && msg.render) out.png = await renderPng(doc, page, msg.render);
          }
        } catch (err) {
          if (isAllocationFailure(String(err))) throw new ReaderError('TooLarge', String(err));
          out.error = String((err as Error)?.message ?? err);
        } finally {
          page?.cleanup();
        }
        memoryCheck();
        out.ack = out.png !== null || (n % ACK_EVERY === 0 && n < numPages);
        o.send(out);
        if (out.ack) await waitForAck();
      }
      o.send({ type: 'done', id: msg.id, numPages });
    } finally {
      await doc.destroy().catch(() => {});
    }
  }

  return {
    /** Resolves once pdf.js is loaded (the parent starts its watchdogs after this). */
    ready: () => load().then(() => undefined),
    read,
    ack(): void {
      const resolve = ackResolve;
      ackResolve = null;
      resolve?.();
    },
  };
}
