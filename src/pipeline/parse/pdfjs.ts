import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the parser process finds pdf.js and the data it needs offline. */
export interface PdfjsAssets {
  /** file: URL of pdf.js's legacy build (the one meant for Node), for a dynamic import. */
  pdfjsUrl: string;
  /** Standard fonts, CMaps, ICC profiles and wasm image decoders, as `getDocument` options. */
  assets: Record<'standardFontDataUrl' | 'cMapUrl' | 'iccUrl' | 'wasmUrl', string>;
}

/** Resolves pdf.js's files relative to this module, so no network and no CDN is ever involved. */
export function pdfjsAssets(): PdfjsAssets {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  // pdf.js in Node reads these with fs and appends file names: it needs the trailing separator.
  const dir = (name: string): string => path.join(root, name) + path.sep;
  return {
    pdfjsUrl: pathToFileURL(path.join(root, 'legacy', 'build', 'pdf.mjs')).href,
    assets: {
      standardFontDataUrl: dir('standard_fonts'),
      cMapUrl: dir('cmaps'),
      iccUrl: dir('iccs'),
      wasmUrl: dir('wasm'),
    },
  };
}
