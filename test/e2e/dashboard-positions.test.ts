// Field positions in the dashboard (issue 24): focusing a field outlines its value on the
// rendered PDF page; with confirmed fields the document offers "Create template from this
// document"; clicking a word on the page fills the selected field, and fields are reviewed from
// the keyboard through to the next document. Leaves screenshots in test/artifacts/dashboard.
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

  it(
    'fills the selected field by clicking a word on the page and reviews fields from the keyboard',
    { timeout: 240_000 },
    async () => {
      const upload = async (name: string, lines: string[]) => {
        const pdf = await makeTextPdf({ pages: [lines] });
        const dt = await page.evaluateHandle(
          ([data, file]) => {
            const t = new DataTransfer();
            t.items.add(
              new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], file, { type: 'application/pdf' }),
            );
            return t;
          },
          [pdf.toString('base64'), name] as const,
        );
        await page.dispatchEvent('[data-testid=dropzone]', 'dragover', { dataTransfer: dt });
        await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer: dt });
      };
      const invoice = (no: string, ref: string, total: string) => [
        'Northwind Traders Ltd',
        'INVOICE',
        `Invoice No: ${no}`,
        `Order reference: ${ref}`,
        'Invoice Date: 12.04.2024',
        'Description\tQty\tAmount',
        `Tea\t1\t${total}`,
        `Total ${total} EUR`,
      ];
      await page.goto(`${s.base}/documents`);
      await page.waitForSelector('main h1');
      await upload('north-a.pdf', invoice('NA-1001', 'PO-88412', '20.00'));
      await upload('north-b.pdf', invoice('NB-2002', 'PO-99520', '31.50'));
      for (const name of ['north-a.pdf', 'north-b.pdf']) {
        const row = page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
        await expect.poll(() => row.innerText(), { timeout: 90_000, intervals: [1000] }).toMatch(/Completed/);
      }
      // Reviewed in the list's order: the first of the two, then the one after it.
      // (A row may link its file more than once.)
      const listed = [
        ...new Set((await page.getByRole('link', { name: /\.pdf$/ }).allInnerTexts()).map((t) => t.trim())),
      ];
      expect(listed.filter((t) => t.startsWith('north-')).sort()).toEqual(['north-a.pdf', 'north-b.pdf']);
      const first = listed.find((t) => t.startsWith('north-'))!;
      const second = listed[listed.indexOf(first) + 1];
      const own = first === 'north-a.pdf' ? 'PO-88412' : 'PO-99520';
      await page.getByRole('link', { name: first }).first().click();
      await page.locator('[data-testid=pdf-viewer] canvas[data-page="1"]').waitFor({ timeout: 30_000 });

      // A person types a wrong value, then clicks the right word on the page instead.
      const number = page.getByLabel('Invoice number');
      await number.fill('typo');
      await page
        .getByTestId('page-word')
        .filter({ hasText: new RegExp(`^${own}$`) })
        .first()
        .click();
      await expect.poll(() => number.inputValue()).toBe(own);
      expect(await number.evaluate((el) => el === document.activeElement)).toBe(true);
      await screenshot(page, '22-field-filled-by-click');

      // Enter accepts the field and moves on to the next one.
      const names = await page.locator('.fields-table tbody input').evaluateAll((els) => els.map((e) => e.id));
      await page.keyboard.press('Enter');
      await page.getByText('Fields saved and confirmed').waitFor();
      const numberRow = page.getByRole('row').filter({ has: number });
      await expect.poll(() => numberRow.innerText()).toMatch(/confirmed/);
      const at = names.indexOf('field-invoice_number');
      const focused = () => page.evaluate(() => document.activeElement?.id);
      expect(at).toBeGreaterThan(0);
      // The next field (the last one stays where it is).
      expect(await focused()).toBe(names[at + 1] ?? names[at]);
      // ↑ and ↓ move between fields; back on the invoice number the accepted value kept the place
      // it was picked from, outlined on the page.
      if (at === names.length - 1) {
        await page.keyboard.press('ArrowUp');
        expect(await focused()).toBe(names[at - 1]);
        await page.keyboard.press('ArrowDown');
      } else await page.keyboard.press('ArrowUp');
      expect(await focused()).toBe('field-invoice_number');
      await expect.poll(() => number.inputValue()).toBe(own);
      const outline = page.getByTestId('field-box');
      await outline.waitFor();
      const word = (await page
        .getByTestId('page-word')
        .filter({ hasText: new RegExp(`^${own}$`) })
        .first()
        .boundingBox())!;
      const b = (await outline.boundingBox())!;
      expect(Math.abs(b.x + 2 - word.x)).toBeLessThan(3);
      expect(Math.abs(b.y + 2 - word.y)).toBeLessThan(3);
      // Esc undoes a correction not yet accepted.
      await page.keyboard.type('x');
      await page.keyboard.press('Escape');
      await expect.poll(() => number.inputValue()).toBe(own);
      await screenshot(page, '23-field-reviewed-by-keyboard');

      // Text selected in the Text tab fills the selected field too, and keeps its offsets.
      const printed = first === 'north-a.pdf' ? 'NA-1001' : 'NB-2002';
      await page.getByRole('tab', { name: 'Text' }).click();
      const pre = page.getByLabel('Extracted text');
      await pre.waitFor();
      await pre.evaluate((el, word) => {
        const node = el.firstChild!;
        const at = node.textContent!.indexOf(word);
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        window.getSelection()!.removeAllRanges();
        window.getSelection()!.addRange(range);
        el.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
      }, printed);
      await expect.poll(() => number.inputValue()).toBe(printed);
      await page.keyboard.press('Enter');
      await expect.poll(() => numberRow.innerText()).toMatch(/confirmed/);
      await number.focus();
      await expect.poll(() => page.getByTestId('field-span').innerText()).toBe(printed);

      // Ctrl+Enter confirms every field and opens the next document.
      await page.keyboard.press('Control+Enter');
      await page.getByRole('heading', { level: 1, name: second }).waitFor({ timeout: 30_000 });
      expect(problems).toEqual([]);
    },
  );
});
