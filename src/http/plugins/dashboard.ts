import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The dashboard: the single-page app built into `dist/web` by `npm run build`, served from memory.
 * Only files found in that folder at start-up are served (a fixed table, so no request path is
 * ever joined onto the file system), hashed assets as immutable, `index.html` always revalidated.
 */
interface Asset {
  body: Buffer;
  /** Compressed on first request (apps built in tests never pay for it). */
  gzip?: Buffer | null;
  compressible: boolean;
  type: string;
  etag: string;
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
};
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg)/;

// Inline styles are needed by the chart and canvas libraries; scripts only from this origin.
// blob: images are originals fetched with the session's token; pdf.js runs in a worker from 'self'.
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

export interface Dashboard {
  index: Asset;
  files: Map<string, Asset>;
  dir: string;
  builtAt: number;
}

/** Reads the built app; null when it has not been built (the API works without it). */
export function loadDashboard(dir: string): Dashboard | null {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile) || !statSync(indexFile).isFile()) return null;
  const files = new Map<string, Asset>();
  for (const file of walk(dir)) {
    const rel = relative(dir, file).split(sep).join('/');
    const body = readFileSync(file);
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    files.set(`/${rel}`, {
      body,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      // Vite names everything under assets/ by content hash.
      immutable: rel.startsWith('assets/'),
      compressible: COMPRESSIBLE.test(type) && body.length > 1024,
    });
  }
  return { index: files.get('/index.html')!, files, dir, builtAt: statSync(indexFile).mtimeMs };
}

function send(req: FastifyRequest, reply: FastifyReply, a: Asset, extra: Record<string, string> = {}) {
  reply.headers({ 'Content-Type': a.type, ETag: a.etag, Vary: 'Accept-Encoding', ...extra });
  reply.header('Cache-Control', a.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  if (a.compressible && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    a.gzip ??= gzipSync(a.body, { level: 9 });
    reply.header('Content-Encoding', 'gzip');
    return reply.send(a.gzip);
  }
  return reply.send(a.body);
}

/** Paths that belong to the API or operations, never to the app. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === '/metrics';
}

/**
 * A browser navigating to an app URL (`/documents/doc_…`) gets index.html and the app routes it;
 * anything else that matches nothing (curl, fetch, other methods, `/api/...`) still gets the
 * JSON 404 from the not-found handler.
 */
export function wantsApp(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = req.url.split('?')[0];
  if (isApiPath(path)) return false;
  return /\btext\/html\b/.test(String(req.headers.accept ?? ''));
}

export function installDashboard(
  app: FastifyInstance,
  loaded: Dashboard | null,
): (req: FastifyRequest, reply: FastifyReply) => unknown {
  let dash = loaded;
  const serveIndex = (req: FastifyRequest, reply: FastifyReply) => {
    // A rebuild while the service runs (development) replaces the files: pick them up.
    if (dash) {
      try {
        if (statSync(join(dash.dir, 'index.html')).mtimeMs !== dash.builtAt) dash = loadDashboard(dash.dir) ?? dash;
      } catch {
        /* mid-rebuild: keep serving what is in memory */
      }
    }
    if (!dash) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The dashboard has not been built. Run `npm run build` (it builds the API and the dashboard into dist/).\n',
        );
    }
    return send(req, reply, dash.index, HTML_HEADERS);
  };
  app.get('/', { schema: { hide: true } }, serveIndex);
  if (loaded) {
    // One route for the hashed bundle, looked up in the table; the few top-level files one each.
    app.get('/assets/*', { schema: { hide: true } }, (req, reply) => {
      const asset = dash?.files.get(req.url.split('?')[0]);
      if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
      return send(req, reply, asset);
    });
    for (const [path, asset] of loaded!.files) {
      if (path === '/index.html' || path.startsWith('/assets/')) continue;
      app.get(path, { schema: { hide: true } }, (req, reply) => send(req, reply, asset));
    }
  }
  return serveIndex;
}
