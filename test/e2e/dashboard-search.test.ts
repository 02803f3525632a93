// Search in the dashboard, in headless Chromium against the real service and pipeline: the
// header box opens the results page, the mode can be changed, highlights are shown as text with
// <mark> runs (a document holding markup cannot inject it), and the document page shows similar
// documents and the "possible duplicate" notice. Screenshots in test/artifacts/dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { createActor, type Actor } from '../helpers/app.js';
import { ensureDashboardBuilt, screenshot, seriousViolations } from '../helpers/dashboard.js';
import { createDocsApp, type DocsApp } from '../helpers/docs-app.js';
import { createProject, upload, waitForDocument } from '../helpers/pipeline.js';
import { dataOf } from '../integration/documents/fixtures.js';
import { bakeryReceipt, CONTRACT_TEXT, MEMO_TEXT, ocrNoise } from '../integration/search/fixtures.js';

/** Markup a document might hold; the page must show it as text, never run or render it. */
const HOSTILE =
  'Quarterly zeppelin report <img src=x onerror="window.__injected=1"> and <b>bold</b> &amp; <mark>fake</mark> zeppelin notes.';

describe('dashboard: search', () => {
  let t: DocsApp;
  let actor: Actor;
  let browser: Browser;
  let page: Page;
  let base: string;
  const ids: Record<string, string> = {};
  const problems: string[] = [];

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await createDocsApp();
    actor = await createActor(t);
    const project = await createProject(t, actor, { name: 'Inbox' });
    for (const [name, text] of [
      ['contract.txt', CONTRACT_TEXT],
      ['memo.txt', MEMO_TEXT],
      ['hostile.txt', HOSTILE],
      ['receipt-1.txt', bakeryReceipt(1)],
      ['receipt-2.txt', bakeryReceipt(2)],
      ['receipt-1-scan.txt', ocrNoise(bakeryReceipt(1))],
    ]) {
      const id = dataOf(await upload(t, actor, project, name, Buffer.from(text)), 201).id as string;
      await waitForDocument(t, id);
      ids[name] = id;
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://localhost:${(t.app.server.address() as { port: number }).port}`;
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: 'en-US' });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${base}/`);
    await page.getByLabel('E-mail').fill(actor.email);
    await page.getByLabel('Password').fill(actor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('searches from the header, ranks, highlights, and changes mode', async () => {
    const box = page.getByRole('search', { name: 'Search documents (header)' }).getByRole('searchbox');
    await box.fill('termination');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=termination/);
    const results = page.locator('.search-result');
    // Hybrid (the tiny test model is loaded): every document is near by meaning, the two holding
    // the word lead because both lists found them.
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(6);
    await expect(results.nth(0).getByRole('link').textContent()).resolves.toBe('contract.txt');
    await expect(results.nth(1).getByRole('link').textContent()).resolves.toBe('memo.txt');
    expect(await results.nth(0).locator('mark').first().textContent()).toMatch(/^termination$/i);
    await expect(page.getByText('Searched by words and meaning').count()).resolves.toBe(1);
    await screenshot(page, 'search-results');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Search by').selectOption('keyword');
    await page.getByText('Searched by words ·', { exact: false }).waitFor();
    expect(page.url()).toContain('mode=keyword');
    await expect.poll(() => results.count()).toBe(2);
    await page.getByRole('searchbox', { name: 'Search for' }).fill('"termination clause"');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => results.count()).toBe(1);
    await results.nth(0).getByRole('link').click();
    await page.waitForURL(new RegExp(`/documents/${ids['contract.txt']}$`));
  });

  it('shows document markup in highlights as text, never as elements', async () => {
    await page.goto(`${base}/search?q=zeppelin&mode=keyword`);
    const result = page.locator('.search-result').first();
    await result.waitFor();
    const snippet = result.locator('.snippet').first();
    const text = (await snippet.textContent()) ?? '';
    expect(text).toContain('zeppelin');
    // Only the search's own marks are elements; nothing from the document became one.
    expect(await snippet.locator('img, b, script').count()).toBe(0);
    const marks = await snippet.locator('mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => m.toLowerCase() === 'zeppelin')).toBe(true);
    expect(text).toContain('&');
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    await screenshot(page, 'search-hostile-text');
  });

  it('shows similar documents and the possible duplicate on the document page', async () => {
    await page.goto(`${base}/documents/${ids['receipt-1-scan.txt']}`);
    const notice = page.getByTestId('duplicate-of');
    await notice.waitFor();
    await expect(notice.getByRole('link').textContent()).resolves.toBe('receipt-1.txt');
    expect(await notice.textContent()).toMatch(/Possible duplicate of receipt-1\.txt \(\d+% alike by text\)/);
    const similar = page.locator('.similar-list li');
    await expect.poll(() => similar.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByText('By meaning (embeddings)').count()).toBe(1);
    const names = await similar.getByRole('link').allTextContents();
    expect(names).not.toContain('receipt-1-scan.txt');
    await screenshot(page, 'document-similar-duplicate');
    expect(await seriousViolations(page)).toEqual([]);
    // A distinct receipt of the same bakery carries no notice.
    await page.goto(`${base}/documents/${ids['receipt-2.txt']}`);
    await page.locator('.similar-list li').first().waitFor();
    expect(await page.getByTestId('duplicate-of').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows the possible duplicate in the review queue (on_near_duplicate=review)', async () => {
    const strict = await createProject(t, actor, { name: 'Checked receipts', on_near_duplicate: 'review' });
    const id = dataOf(
      await upload(t, actor, strict, 'receipt-2-again.txt', Buffer.from(ocrNoise(bakeryReceipt(2), 0.02))),
      201,
    ).id as string;
    expect((await waitForDocument(t, id)).status).toBe('needs_review');
    await page.goto(`${base}/review`);
    const notice = page.getByTestId('duplicate-of');
    await notice.waitFor();
    await expect(notice.getByRole('link').textContent()).resolves.toBe('receipt-2.txt');
    await expect(page.getByRole('link', { name: 'receipt-2-again.txt' }).count()).resolves.toBe(1);
    await screenshot(page, 'review-duplicate');
    expect(problems).toEqual([]);
  });
});
