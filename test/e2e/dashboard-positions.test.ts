// Field positions in the dashboard (issue 24): focusing a field outlines its value on the
// rendered PDF page; with confirmed fields the document offers "Create template from this
// document". Leaves screenshots in test/artifacts/dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { screenshot, startDashboardStack, type DashboardStack } from '../helpers/dashboard.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';

describe('field positions in the dashboard', () => {
  let s: DashboardStack;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    [s, browser] = await Promise.all([startDashboardStack(), launchBrowser()]);
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('outlines the focused field on the page and offers to learn a template', { timeout: 180_000 }, async () => {
    await page.goto(`${s.base}/`);
    await page.getByLabel('E-mail').fill(s.owner.email);
    await page.getByLabel('Password').fill(s.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto(`${s.base}/projects`);
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Name').fill('Positions');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Positions' }).waitFor();
    await page.goto(`${s.base}/documents`);
    await page.waitForSelector('main h1');
    const pdf = await makeTextPdf({
      pages: [
        [
          'Harbor Office Supplies Ltd',
          'INVOICE',
          'Invoice No: HB-2024-1001',
          'Invoice Date: 05.03.2024',
          'Bill to: Example Customer Ltd',
          'Description\tQty\tAmount',
          'Paper A4\t10\t45.00',
          'Subtotal 45.00',
          'VAT 20% 9.00',
          'Total 54.00 EUR',
        ],
      ],
    });
    const dt = await page.evaluateHandle((data) => {
      const t = new DataTransfer();
      t.items.add(
        new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], 'harbor.pdf', { type: 'application/pdf' }),
      );
      return t;
    }, pdf.toString('base64'));
    await page.dispatchEvent('[data-testid=dropzone]', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer: dt });
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'harbor.pdf' }) });
    await expect.poll(() => row.innerText(), { timeout: 90_000, intervals: [100, 250] }).toMatch(/Completed/);
    await row.getByRole('link').click();
    await page.locator('[data-testid=pdf-viewer] canvas[data-page="1"]').waitFor({ timeout: 30_000 });
    await page.getByLabel('Invoice number').focus();
    const box = page.getByTestId('field-box');
    await box.waitFor();
    // The outline sits on the canvas, in its upper part (the number is the third line).
    const b = (await box.boundingBox())!;
    const c = (await page.locator('canvas[data-page="1"]').boundingBox())!;
    expect(b.x).toBeGreaterThan(c.x);
    expect(b.y).toBeGreaterThan(c.y);
    expect(b.y + b.height).toBeLessThan(c.y + c.height / 2);
    expect(b.width).toBeGreaterThan(20);
    await screenshot(page, '20-field-position-outlined');

    expect(await page.getByRole('button', { name: 'Create template from this document' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Confirm all fields' }).click();
    await page.getByText('Fields saved and confirmed').waitFor();
    await page.getByRole('button', { name: 'Create template from this document' }).click();
    await page
      .getByText('Template created from this document')
      .waitFor()
      .catch(async (e: Error) => {
        await screenshot(page, '21-template-learn-failed');
        throw new Error(`${e.message}\n${await page.locator('main').innerText()}`);
      });
    await expect.poll(() => page.url()).toMatch(/\/templates\/tpl_/);
    await page.waitForSelector('main h1');
    await screenshot(page, '21-template-learned');
    expect(problems).toEqual([]);
  });
});
