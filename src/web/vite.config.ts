import { cpSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('../../dist/web', import.meta.url));

// pdf.js loads its standard fonts, CMaps and image decoders at run time: ship them with the
// bundle (under a versioned folder, as the viewer expects) instead of fetching them from a CDN.
function pdfjsData(): Plugin {
  const pkg = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const version = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version as string;
  return {
    name: 'docpipe-pdfjs-data',
    apply: 'build',
    writeBundle() {
      for (const d of ['cmaps', 'standard_fonts', 'wasm'])
        cpSync(join(pkg, d), join(outDir, 'assets', `pdfjs-${version}`, d), { recursive: true });
    },
  };
}

// The dashboard builds into dist/web, which the service serves at /. Everything is bundled
// (no CDN, works offline); heavy pages are separate chunks loaded on demand.
export default defineConfig({
  root,
  base: '/',
  plugins: [react(), pdfjsData()],
  publicDir: false,
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: true,
  },
  server: {
    // `npx vite --config src/web/vite.config.ts` during development, with the API on :8000.
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
});
