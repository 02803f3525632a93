// Serving the built dashboard: index.html at / and for browser navigations to app paths, hashed
// assets from a fixed table (nothing else from the disk), JSON 404s for everything else.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { appDepsFrom, buildApp } from '../../../src/http/app.js';
import { foundationApp, expectError } from './support.js';
import type { TestApp } from '../../helpers/app.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

describe('dashboard files', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let root: string;
  let dir: string;
  beforeAll(async () => {
    t = await foundationApp('pglite');
    root = mkdtempSync(join(tmpdir(), 'docpipe-web-'));
    dir = join(root, 'web');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    writeFileSync(join(root, 'secret.txt'), 'not here');
    app = await buildApp({ ...appDepsFrom(t.deps), webDir: dir });
    bare = await buildApp({ ...appDepsFrom(t.deps), webDir: join(dir, 'missing') });
    writeFileSync(join(dir, 'late.txt'), 'written after start');
  });
  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('/ is the app, with a strict content security policy and no caching of the page itself', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a browser navigating to an app path gets the app; other clients and other methods get the JSON 404', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const url of ['/documents', '/documents/doc_123?tab=text', '/settings/webhooks/whk_1']) {
      const res = await app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
    }
    expectError(await app.inject({ url: '/documents' }), 404, 'NOT_FOUND');
    expectError(await app.inject({ url: '/documents', headers: { accept: 'application/json' } }), 404, 'NOT_FOUND');
    expectError(await app.inject({ method: 'POST', url: '/documents', headers: html }), 404, 'NOT_FOUND');
  });

  it('unknown /api paths keep answering JSON, even to a browser', async () => {
    const html = { accept: 'text/html' };
    for (const url of ['/api/v1/nope', '/api/v2/projects', '/api', '/metrics']) {
      const res = await app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('assets are served from the build with long caching, gzip when asked and ETag revalidation', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SCRIPT);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    expect(gz.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    const again = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect((await app.inject({ url: '/robots.txt' })).body).toContain('Disallow');
  });

  it('only files present at start-up are served: no path can reach anything else', async () => {
    for (const url of [
      '/assets/missing.js',
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/..\\..\\secret.txt',
      '/late.txt',
      '/assets/../../package.json',
      '/index.html/../../secret.txt',
    ]) {
      for (const accept of ['*/*', 'text/html']) {
        const res = await app.inject({ url, headers: { accept } });
        expect(res.body, url).not.toContain('not here');
        if (accept === '*/*') expect(res.statusCode, url).toBe(404);
      }
    }
  });

  it('without a build, / says how to build it and the API still works', async () => {
    const res = await bare.inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toMatch(/npm run build/);
    expect((await bare.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
  });
});
