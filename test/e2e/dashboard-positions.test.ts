// Field positions in the dashboard (issue 24): focusing a field outlines its value on the
// rendered PDF page; with confirmed fields the document offers "Create template from this
// document"; clicking a word on the page fills the selected field, and fields are reviewed from
// the keyboard through to the next document. The review queue of fields works from the keyboard
// alone (next field, accept, correct by selecting text, next document), and the words OCR read
// in an image or a scanned page fill the selected field when clicked. Leaves screenshots in
// test/artifacts/dashboard.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { screenshot, seriousViolations, startDashboardStack, type DashboardStack } from '../helpers/dashboard.js';
import { makeScannedPdf, makeTextPdf, renderTextPng } from '../helpers/pdf-fixtures.js';

describe('field positions in the dashboard', () => {
  let s: DashboardStack;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    // Uncapped plan: besides the dashboard's own requests, the tests poll the API for documents
    // to finish, which the free plan's 30 requests a minute cannot carry.
    [s, browser] = await Promise.all([startDashboardStack({ plan: 'self_hosted' }), launchBrowser()]);
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
    await expect.poll(() => row.innerText(), { timeout: 90_000, interval: 250 }).toMatch(/Completed/);
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
        await expect.poll(() => row.innerText(), { timeout: 90_000, interval: 1000 }).toMatch(/Completed/);
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
      const saved = page.waitForResponse((r) => r.request().method() === 'PATCH');
      await page.keyboard.press('Enter');
      await saved;
      await number.focus();
      await expect.poll(() => page.getByTestId('field-span').innerText()).toBe(printed);

      // Enter, then Enter on the next field and Ctrl+Enter, all before the first field's save has
      // answered (held here, as a slow server would): the later keys wait for the save before them
      // instead of being dropped, in the order pressed; the last confirms every field and opens the
      // next document.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const saves: string[] = [];
      await page.route('**/api/v1/documents/*', async (route) => {
        if (route.request().method() !== 'PATCH') return route.fallback();
        saves.push(route.request().postData() ?? '');
        if (saves.length === 1) await held;
        await route.fallback();
      });
      try {
        await number.focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => saves.length).toBe(1);
        const after = String(await focused());
        await page.keyboard.press('Enter');
        await number.focus();
        await page.keyboard.press('Control+Enter');
        expect(saves.length).toBe(1);
        release();
        await page.getByRole('heading', { level: 1, name: second }).waitFor({ timeout: 30_000 });
        // The field alone, the field after it alone, then every field with the corrected value.
        const bodies = saves.map((b) => JSON.parse(b).fields as Record<string, unknown>);
        expect(bodies.map((f) => Object.keys(f).sort())).toEqual([
          ['invoice_number'],
          [after.replace(/^field-/, '')],
          names.map((n) => n.replace(/^field-/, '')).sort(),
        ]);
        const last = bodies[2].invoice_number as { value?: string } | string;
        expect(typeof last === 'object' ? last.value : last).toBe(printed);
      } finally {
        release();
        await page.unroute('**/api/v1/documents/*');
      }
      expect(problems).toEqual([]);
    },
  );

  /** The API as the signed-in owner sees it (what the dashboard saved). */
  const rest = async () => {
    const login = await fetch(`${s.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: s.owner.email, password: s.owner.password }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const call = async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await fetch(`${s.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as { data: any };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    const send = async (project: string, name: string, data: Buffer, type: string) => {
      const form = new FormData();
      form.set('project_id', project);
      form.set('file', new Blob([new Uint8Array(data)], { type }), name);
      const res = await fetch(`${s.base}/api/v1/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const id = ((await res.json()) as { data: { id: string } }).data.id;
      await expect
        .poll(async () => (await call('GET', `/documents/${id}`)).status, { timeout: 90_000, interval: 500 })
        .toMatch(/^(completed|failed)$/);
      const doc = await call('GET', `/documents/${id}`);
      expect(doc.status, JSON.stringify(doc.error)).toBe('completed');
      return id;
    };
    return { call, send };
  };
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);

  it(
    'reviews the fields queue from the keyboard alone: next field, accept, correct by selecting text, next document',
    { timeout: 240_000 },
    async () => {
      const { call, send } = await rest();
      const project = (await call('POST', '/projects', { name: 'Keyboard review', classification_threshold: 0 })).id;
      const invoice = (no: string, ref: string) =>
        makeTextPdf({
          pages: [
            [
              'Bayview Stationers Ltd',
              'INVOICE',
              `Invoice No: ${no}`,
              `Customer ref: ${ref}`,
              'Invoice Date: 02.05.2024',
              `Total ${no.endsWith('1') ? '18.00' : '27.50'} EUR`,
            ],
          ],
        });
      // Newest first in the queue: the second upload is reviewed first.
      const later = await send(project, 'bay-1.pdf', await invoice('BV-3301', 'CR-5512'), 'application/pdf');
      const first = await send(project, 'bay-2.pdf', await invoice('BV-3302', 'CR-7719'), 'application/pdf');
      const text: string = (await call('GET', `/documents/${first}/text`)).text;

      await page.goto(`${s.base}/review`);
      await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
      // Only the keyboard from here on: the fields queue is the second tab.
      await page.getByRole('tab', { name: /Types to confirm/ }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toMatch(/queue=fields/);
      const region = page.getByRole('region', { name: 'Document under review' });
      await region.getByRole('link', { name: 'bay-2.pdf' }).waitFor({ timeout: 30_000 });
      await page.locator('[data-testid=pdf-viewer] canvas[data-page="1"]').waitFor({ timeout: 30_000 });

      // ?: the full list of keys. F: into the fields; ↓ until the invoice number (bounded).
      await page.keyboard.press('?');
      await page.getByRole('region', { name: 'Keyboard shortcuts' }).waitFor();
      await page.keyboard.press('f');
      const names = await page.locator('.fields-table tbody input').evaluateAll((els) => els.map((e) => e.id));
      expect(names).toContain('field-invoice_number');
      expect(names).toContain(await focused());
      for (let i = 0; i < names.length && (await focused()) !== 'field-invoice_number'; i++)
        await page.keyboard.press(
          names.indexOf(String(await focused())) < names.indexOf('field-invoice_number') ? 'ArrowDown' : 'ArrowUp',
        );
      expect(await focused()).toBe('field-invoice_number');

      // Correct it by selecting text: Esc leaves the field, T opens the text, the caret goes to
      // the customer reference's line and Shift+← selects its value, Enter fills the field.
      await page.keyboard.press('Escape');
      await page.keyboard.press('t');
      await expect.poll(focused).toBe('TEXTAREA');
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.includes('CR-7719'));
      expect(line).toBeGreaterThanOrEqual(0);
      await page.keyboard.press('Control+Home');
      for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      const tail = lines[line].length - (lines[line].indexOf('CR-7719') + 'CR-7719'.length);
      for (let i = 0; i < tail; i++) await page.keyboard.press('ArrowLeft');
      for (let i = 0; i < 'CR-7719'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
      await screenshot(page, '24-review-queue-text-selected');
      const number = page.getByLabel('Invoice number');
      await page.getByTestId('review-text').press('Enter');
      await expect.poll(() => number.inputValue()).toBe('CR-7719');
      expect(await focused()).toBe('field-invoice_number');
      // Enter accepts the field and moves on.
      await page.keyboard.press('Enter');
      const numberRow = page.getByRole('row').filter({ has: number });
      await expect.poll(() => numberRow.innerText()).toMatch(/confirmed/);
      const at = names.indexOf('field-invoice_number');
      expect(await focused()).toBe(names[at + 1] ?? names[at]);
      // Esc leaves the field; P and N move between fields from the page.
      await page.keyboard.press('Escape');
      expect(names).not.toContain(await focused());
      await page.keyboard.press(at + 1 < names.length ? 'p' : 'n');
      expect(await focused()).toBe('field-invoice_number');
      expect(await seriousViolations(page)).toEqual([]);

      // Esc, then A: every field accepted, and the next document opens with its first field focused.
      await page.keyboard.press('Escape');
      await page.keyboard.press('a');
      await region.getByRole('link', { name: 'bay-1.pdf' }).waitFor({ timeout: 30_000 });
      await expect.poll(focused).toMatch(/^field-/);
      const saved = await call('GET', `/documents/${first}`);
      const offsets = text.indexOf('CR-7719');
      expect(saved.fields.invoice_number).toMatchObject({
        value: 'CR-7719',
        confirmed: true,
        position: { start: offsets, end: offsets + 'CR-7719'.length },
      });
      for (const [k, f] of Object.entries(saved.fields as Record<string, { confirmed: boolean }>))
        expect(f.confirmed, k).toBe(true);

      // In a field, Ctrl+Enter accepts the whole document and goes on; the queue no longer has either.
      await page.keyboard.press('Control+Enter');
      await expect
        .poll(async () =>
          Object.values(
            (await call('GET', `/documents/${later}`)).fields as Record<string, { confirmed: boolean }>,
          ).every((f) => f.confirmed),
        )
        .toBe(true);
      await expect.poll(() => region.getByRole('link', { name: /^bay-/ }).count(), { timeout: 30_000 }).toBe(0);
      const queue = (await call('GET', `/documents?project_id=${project}&fields_unconfirmed=true`)) as unknown[];
      expect(queue).toEqual([]);
      await screenshot(page, '25-review-queue-next-document');
      expect(problems).toEqual([]);
    },
  );

  it(
    'fills the selected field by clicking a word OCR read in an image and in a scanned PDF page',
    { timeout: 300_000 },
    async () => {
      const { call, send } = await rest();
      const project = (await call('POST', '/projects', { name: 'Scans', classification_threshold: 0 })).id;
      const lines = [
        'Lakeside Paper Company',
        'INVOICE',
        'Invoice No: LK-40917',
        'Order ref: PO-61234',
        'Total: 42.50 EUR',
      ];
      const png = await renderTextPng(lines, { dpi: 200, pageSize: [420, 180] });
      const scan = await makeScannedPdf([lines], { pageSize: [420, 180] });
      // Browsers cannot show a TIFF: the page shows the server's PNG of it, and the words fit it.
      const tif = await sharp(png).tiff({ compression: 'lzw' }).toBuffer();
      for (const [name, data, type, shot] of [
        ['lakeside.png', png, 'image/png', '26-image-word-clicked'],
        ['lakeside.tif', tif, 'image/tiff', '28-tiff-word-clicked'],
        ['lakeside-scan.pdf', scan, 'application/pdf', '27-scanned-page-word-clicked'],
      ] as const) {
        const id = await send(project, name, data, type);
        const words = (await call('GET', `/documents/${id}/words`)).pages[0].words as Array<{
          text: string;
          bbox: number[];
        }>;
        const target = words.find((w) => w.text === 'PO-61234');
        expect(target, JSON.stringify(words.map((w) => w.text))).toBeDefined();
        await page.goto(`${s.base}/documents/${id}`);
        await page.getByRole('heading', { level: 1, name }).waitFor();
        if (type !== 'application/pdf') await page.locator('img[data-loaded=true]').waitFor({ timeout: 30_000 });
        else await page.locator('canvas[data-painted=true]').waitFor({ timeout: 30_000 });
        const number = page.getByLabel('Invoice number');
        await number.fill('typo');
        // The field's place is outlined, and the words read by OCR lie over the picture.
        const word = page.getByTestId('page-word').filter({ hasText: /^PO-61234$/ });
        await word.waitFor({ timeout: 30_000 });
        const picture = (await page
          .locator(type !== 'application/pdf' ? '.page-wrap img' : '.page-wrap canvas')
          .boundingBox())!;
        const w = (await word.boundingBox())!;
        expect(w.x).toBeGreaterThan(picture.x);
        expect(w.x + w.width).toBeLessThan(picture.x + picture.width);
        expect(w.y).toBeGreaterThan(picture.y);
        await word.click();
        await expect.poll(() => number.inputValue()).toBe('PO-61234');
        await page.keyboard.press('Enter');
        await expect
          .poll(async () => (await call('GET', `/documents/${id}`)).fields.invoice_number, { timeout: 20_000 })
          .toMatchObject({
            value: 'PO-61234',
            confirmed: true,
            position: { page: 1, unit: 'px', bbox: target!.bbox },
          });
        // Back on the field, its outline sits on the word that was picked.
        await number.focus();
        await expect
          .poll(async () => {
            const box = (await page.getByTestId('field-box').boundingBox())!;
            return Math.abs(box.x + 2 - w.x) + Math.abs(box.y + 2 - w.y);
          })
          .toBeLessThan(4);
        await screenshot(page, shot);
        expect(await seriousViolations(page)).toEqual([]);
      }
      expect(problems).toEqual([]);
    },
  );
});
