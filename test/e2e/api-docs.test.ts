import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';

describe('API reference page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const a = t.app.server.address();
    base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the operations from /api/v1/openapi.json without script errors', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    await page.goto(`${base}/api/v1/docs`, { waitUntil: 'networkidle' });
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const summaries = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(summaries.some((s) => s.includes('/api/v1/projects'))).toBe(true);
    expect(summaries.some((s) => s.includes('/api/v1/api-keys'))).toBe(true);
    expect(summaries.some((s) => s.includes('/api/v1/documents'))).toBe(true);
    // Open one operation and check its parameters are shown from the route schema.
    await page
      .locator('.opblock-summary-path', { hasText: /^\/api\/v1\/projects$/ })
      .first()
      .click();
    await page.waitForSelector('.parameters', { timeout: 10_000 });
    const params = await page.locator('.parameter__name').allInnerTexts();
    expect(params.join(' ')).toContain('include_archived');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers the upload of POST /documents as a form with a file field to try', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/api/v1/docs`, { waitUntil: 'networkidle' });
    const upload = page.locator('.opblock-post', {
      has: page.locator('.opblock-summary-path', { hasText: /^\/api\/v1\/documents$/ }),
    });
    await upload.locator('.opblock-summary').click();
    await upload.locator('button.try-out__btn').click();
    await upload.locator('input[type=file]').first().waitFor({ timeout: 10_000 });
    // One file field (the document); project_id, metadata and allow_duplicate are text.
    expect(await upload.locator('input[type=file]').count()).toBe(1);
    const text = await upload.innerText();
    for (const field of ['project_id', 'metadata', 'allow_duplicate', 'multipart/form-data', '201', '413', '415'])
      expect(text).toContain(field);
    await page.close();
  });
});
