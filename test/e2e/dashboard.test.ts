// The dashboard in headless Chromium against a real service (Redis, the database, every worker,
// Dovecot, the fake Google API): a person's flows end to end, each leaving a screenshot in
// test/artifacts/dashboard, and an axe-core scan of every page. One server and one browser for
// the whole file; the flows build on each other in order.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { screenshot, seriousViolations, startDashboardStack, type DashboardStack } from '../helpers/dashboard.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { packageRoot } from '../../src/lib/package-root.js';

const sampleLines = (file: string) => readFileSync(`${packageRoot()}/samples/classifier/${file}`, 'utf8').split('\n').slice(0, 40);

describe('dashboard in a browser', () => {
  let s: DashboardStack;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const scanned: { path: string; violations: Awaited<ReturnType<typeof seriousViolations>> }[] = [];
  const state: { projectId?: string; invoiceId?: string } = {};

  const go = async (path: string) => {
    await page.goto(`${s.base}${path}`);
    await page.waitForSelector('main h1');
  };
  /** Scans the page as it is now; the assertion over every scan is the last test. */
  const scan = async (label: string) => { scanned.push({ path: label, violations: await seriousViolations(page) }); };

  beforeAll(async () => {
    [s, browser] = await Promise.all([startDashboardStack(), launchBrowser()]);
    ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.base });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error' && !/status of (4\d\d)/.test(m.text())) problems.push(`console: ${m.text()}`); });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('signs in with e-mail and password; a reload keeps the session through the refresh cookie only', async () => {
    await page.goto(`${s.base}/`);
    await scan('sign-in');
    await page.getByLabel('E-mail').fill(s.owner.email);
    await page.getByLabel('Password').fill(s.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.locator('.org').innerText()).toBe('Acme Dashboard Ltd');
    expect(await page.locator('.who .badge').first().innerText()).toBe('owner');
    const cookies = await ctx.cookies();
    expect(cookies.find((c) => c.name === 'docpipe_refresh')).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/v1/auth/refresh' });
    // Nothing of the session is in storage a script could read.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toMatch(/eyJ|rt_/);
    expect(await page.evaluate(() => document.cookie)).not.toContain('rt_');
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await screenshot(page, '01-signed-in-overview');
    await scan('/');
  });

  it('creates a project', async () => {
    await go('/projects');
    await page.getByRole('button', { name: 'New project' }).click();
    await scan('/projects (new project dialog)');
    await page.getByLabel('Name').fill('Invoices');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invoices' }).waitFor();
    state.projectId = page.url().split('/').pop();
    expect(state.projectId).toMatch(/^prj_/);
    await scan('/projects/:id');
    await go('/projects');
    await scan('/projects');
  });

  it('uploads two PDFs by drag and drop and sees them classified with a confidence', async () => {
    await go('/documents');
    const files = [
      { name: 'invoice-wilson.pdf', data: (await makeTextPdf({ pages: [sampleLines('invoice/001.txt')] })).toString('base64') },
      { name: 'receipt-shannon.pdf', data: (await makeTextPdf({ pages: [sampleLines('receipt/001.txt')] })).toString('base64') },
    ];
    const dt = await page.evaluateHandle((list) => {
      const t = new DataTransfer();
      for (const f of list) t.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: 'application/pdf' }));
      return t;
    }, files);
    await page.dispatchEvent('[data-testid=dropzone]', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer: dt });
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await expect.poll(() => uploads.getByText('uploaded').count(), { timeout: 30_000 }).toBe(2);
    // Each file had its own progress bar, now full.
    for (const f of files) expect(await page.getByRole('progressbar', { name: `Upload of ${f.name}` }).getAttribute('value')).toBe('1');
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await expect.poll(async () => (await row('invoice-wilson.pdf').innerText()) + (await row('receipt-shannon.pdf').innerText()), { timeout: 60_000, intervals: [1000] })
      .toMatch(/Completed[\s\S]*Invoice[\s\S]*\d+%[\s\S]*Completed[\s\S]*Receipt[\s\S]*\d+%/);
    await screenshot(page, '02-documents-classified');
    await scan('/documents');
    state.invoiceId = (await row('invoice-wilson.pdf').getByRole('link').getAttribute('href'))!.split('/').pop();
  });

  it('opens the invoice (PDF rendered in the page), corrects a field and confirms it', async () => {
    await go(`/documents/${state.invoiceId}`);
    await page.locator('[data-testid=pdf-viewer] canvas[data-page="1"]').waitFor({ timeout: 30_000 });
    // The canvas has been painted (not blank): some pixel differs from white.
    const painted = await page.locator('canvas[data-page="1"]').evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 200) return true;
      return false;
    });
    expect(painted).toBe(true);
    expect(await page.getByText(/by model/).isVisible()).toBe(true);
    const field = page.getByLabel('Po number');
    await field.fill('PO-99999');
    await page.getByRole('button', { name: /Save 1 correction and confirm/ }).click();
    await page.getByText('Fields saved and confirmed').waitFor();
    const { rows } = await s.deps.db.query<{ fields: Record<string, { value: unknown; method: string; confidence: number }> }>('SELECT fields FROM documents WHERE id = $1', [state.invoiceId]);
    expect(rows[0].fields.po_number).toMatchObject({ value: 'PO-99999', method: 'manual', confidence: 1 });
    await screenshot(page, '03-document-field-corrected');
    await scan('/documents/:id');
    await page.getByRole('tab', { name: 'Text' }).click();
    await page.getByLabel('Extracted text').waitFor();
    await scan('/documents/:id (text)');
  });

  it('creates an API key and copies it once; afterwards only the masked key is shown', async () => {
    await go('/settings/api-keys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByLabel('Name').fill('accounting export');
    await scan('/settings/api-keys (create dialog)');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByTestId('secret-value').innerText();
    expect(secret).toMatch(/^svc_live_[A-Za-z0-9]{20,}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshot(page, '04-api-key-shown-once');
    // The key works.
    const me = await fetch(`${s.base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('cell', { name: 'accounting export' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByRole('cell', { name: 'accounting export' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByRole('row', { name: /accounting export/ }).locator('code').innerText()).toMatch(/^svc_live_.{4}…/);
    await scan('/settings/api-keys');
  });

  it('the review queue, in test mode: clearly marked, and empty of live data', async () => {
    await go('/review');
    await scan('/review');
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByRole('note').getByText('Test mode').waitFor();
    await go('/documents');
    await page.getByText('No documents match these filters.').waitFor();
    await screenshot(page, '05-test-mode');
    await scan('/documents (test mode)');
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByRole('note').waitFor({ state: 'detached' });
  });

  it('fits a phone screen and works in dark mode', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const path of ['/', '/documents', `/documents/${state.invoiceId}`, '/settings/api-keys']) {
      await go(path);
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      await scan(`${path} (phone, dark)`);
    }
    // The navigation is behind the menu button on a phone.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: /Menu/ }).click();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    await screenshot(page, '06-phone-dark-menu');
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('no page has a serious or critical accessibility violation, and no script errors', async () => {
    const bad = scanned.filter((x) => x.violations.length);
    expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
    expect(scanned.length).toBeGreaterThanOrEqual(10);
    expect(problems).toEqual([]);
  });
});
