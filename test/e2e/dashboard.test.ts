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
import { hashPassword } from '../../src/lib/crypto.js';
import { serviceAccountKey } from '../helpers/sheets-harness.js';
import { startWebhookSink } from '../helpers/webhook-sink.js';

const sampleLines = (file: string) =>
  readFileSync(`${packageRoot()}/samples/classifier/${file}`, 'utf8').split('\n').slice(0, 40);

describe('dashboard in a browser', () => {
  let s: DashboardStack;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const scanned: { path: string; violations: Awaited<ReturnType<typeof seriousViolations>> }[] = [];
  const state: { projectId?: string; invoiceId?: string; receiptId?: string } = {};

  const go = async (path: string) => {
    await page.goto(`${s.base}${path}`);
    await page.waitForSelector('main h1');
  };
  /** Scans the page as it is now; the assertion over every scan is the last test. */
  const scan = async (label: string) => {
    scanned.push({ path: label, violations: await seriousViolations(page) });
  };

  beforeAll(async () => {
    [s, browser] = await Promise.all([startDashboardStack(), launchBrowser()]);
    ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.base });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of (4\d\d)/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
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
    expect(cookies.find((c) => c.name === 'docpipe_refresh')).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/api/v1/auth/refresh',
    });
    // Nothing of the session is in storage a script could read.
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
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
      {
        name: 'invoice-wilson.pdf',
        data: (await makeTextPdf({ pages: [sampleLines('invoice/001.txt')] })).toString('base64'),
      },
      {
        name: 'receipt-shannon.pdf',
        data: (await makeTextPdf({ pages: [sampleLines('receipt/001.txt')] })).toString('base64'),
      },
    ];
    const dt = await page.evaluateHandle((list) => {
      const t = new DataTransfer();
      for (const f of list)
        t.items.add(
          new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: 'application/pdf' }),
        );
      return t;
    }, files);
    await page.dispatchEvent('[data-testid=dropzone]', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer: dt });
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await expect.poll(() => uploads.getByText('uploaded').count(), { timeout: 30_000 }).toBe(2);
    // Each file had its own progress bar, now full.
    for (const f of files)
      expect(await page.getByRole('progressbar', { name: `Upload of ${f.name}` }).getAttribute('value')).toBe('1');
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await expect
      .poll(
        async () => (await row('invoice-wilson.pdf').innerText()) + (await row('receipt-shannon.pdf').innerText()),
        { timeout: 60_000, interval: 250 },
      )
      .toMatch(/Completed[\s\S]*Invoice[\s\S]*\d+%[\s\S]*Completed[\s\S]*Receipt[\s\S]*\d+%/);
    await screenshot(page, '02-documents-classified');
    await scan('/documents');
    state.invoiceId = (await row('invoice-wilson.pdf').getByRole('link').getAttribute('href'))!.split('/').pop();
    state.receiptId = (await row('receipt-shannon.pdf').getByRole('link').getAttribute('href'))!.split('/').pop();
  });

  it('opens the invoice (PDF rendered in the page), corrects a field and confirms it', async () => {
    await go(`/documents/${state.invoiceId}`);
    // Wait for pdf.js to finish drawing (reading the pixels before that sees a blank canvas on
    // a loaded machine), then check it drew something: some pixel differs from white.
    const canvas = page.locator('[data-testid=pdf-viewer] canvas[data-page="1"][data-painted="true"]');
    await canvas.waitFor({ timeout: 30_000 });
    const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
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
    const { rows } = await s.deps.db.query<{
      fields: Record<string, { value: unknown; method: string; confidence: number }>;
    }>('SELECT fields FROM documents WHERE id = $1', [state.invoiceId]);
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
    expect(
      await page
        .getByRole('row', { name: /accounting export/ })
        .locator('code')
        .innerText(),
    ).toMatch(/^svc_live_.{4}…/);
    await scan('/settings/api-keys');
  });

  it('adds a mailbox and runs its connection test, stage by stage', async (ctx2) => {
    if (!s.dovecot) return ctx2.skip();
    await go('/settings/integrations');
    await page.getByRole('button', { name: 'Add mailbox' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a mailbox' });
    await dialog.getByLabel('Name', { exact: true }).fill('Supplier invoices');
    await dialog.getByLabel('IMAP host').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(String(s.dovecot.port));
    await dialog.getByLabel('Security').selectOption('none');
    await dialog.getByLabel('User name').fill('inbox');
    await dialog.getByLabel('Password', { exact: true }).fill('pw-inbox');
    await scan('/settings/integrations (add mailbox dialog)');
    await dialog.getByRole('button', { name: 'Add mailbox' }).click();
    await page.getByRole('link', { name: 'Supplier invoices' }).waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('mailbox-test');
    await result.waitFor();
    const text = await result.innerText();
    expect(text).toMatch(/Log in/);
    expect(text).toMatch(/INBOX: \d+ messages/);
    expect(text).not.toMatch(/✗/);
    await screenshot(page, '07-mailbox-tested');
    // A wrong password fails at the log-in stage, and says so.
    await page.getByRole('link', { name: 'Supplier invoices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Supplier invoices' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('dialog', { name: 'Edit mailbox' }).getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Save mailbox' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Test connection' }).click();
    const failed = page.getByTestId('mailbox-test');
    await failed.waitFor();
    expect(await failed.locator('.stage-failed').innerText()).toMatch(/Log in/);
    await scan('/settings/integrations/mailboxes/:id');
  });

  it('maps a Google Sheets export with a preview, and a row arrives at the (fake) Google API', async () => {
    s.google.spreadsheets.create('book-e2e', ['Invoices', 'Archive']);
    const key = serviceAccountKey(s.google);
    await go('/settings/integrations');
    await page.getByRole('button', { name: 'Connect account' }).click();
    const conn = page.getByRole('dialog', { name: 'Connect a Google account' });
    await conn.getByLabel('Name', { exact: true }).fill('Finance robot');
    await conn.getByLabel('Key file (JSON)').fill(JSON.stringify(key));
    await conn.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('Finance robot').waitFor();
    await page.getByRole('button', { name: 'New export' }).click();
    const dlg = page.getByRole('dialog', { name: 'Export a project to Google Sheets' });
    await dlg.getByLabel('Spreadsheet id').fill('book-e2e');
    await dlg.getByRole('button', { name: 'Check access' }).click();
    await dlg.getByText('access ok').waitFor();
    await dlg.getByLabel('Sheet', { exact: true }).selectOption('Invoices');
    // Add a column by dragging a field onto the columns, and another by clicking it.
    await dlg
      .getByRole('button', { name: 'classification.confidence' })
      .dragTo(dlg.getByRole('list', { name: 'Columns' }));
    await dlg.getByRole('button', { name: 'fields.po_number' }).click();
    const preview = dlg.getByTestId('export-preview');
    await expect.poll(() => preview.innerText()).toMatch(/Confidence[\s\S]*Po number[\s\S]*(invoice|receipt)/i);
    await scan('/settings/integrations (export dialog)');
    await screenshot(page, '08-sheets-mapping');
    await dlg.getByRole('button', { name: 'Create export' }).click();
    await dlg.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Export now' }).click();
    const send = page.getByRole('dialog', { name: 'Export a document now' });
    await send.getByLabel('Document').selectOption({ label: 'invoice-wilson.pdf (completed)' });
    await send.getByRole('button', { name: 'Export' }).click();
    await expect
      .poll(() => s.google.spreadsheets.getValues('book-e2e', 'Invoices').length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    const rows = s.google.spreadsheets.getValues('book-e2e', 'Invoices');
    // The dragged column went where it was dropped, the clicked one at the end.
    expect([...rows[0]].filter((h) => h !== 'docpipe_row_key').sort()).toEqual([
      'Confidence',
      'Document',
      'File',
      'Po number',
      'Type',
    ]);
    expect(rows[0].indexOf('Po number')).toBe(4);
    const cell = (h: string) => rows[1][rows[0].indexOf(h)];
    expect([cell('Document'), cell('File'), cell('Type'), cell('Po number')]).toEqual([
      state.invoiceId,
      'invoice-wilson.pdf',
      'invoice',
      'PO-99999',
    ]);
    expect(cell('Confidence')).toBeGreaterThan(0.6);
    await go(`/documents/${state.invoiceId}`);
    await page
      .getByText(/exported/)
      .first()
      .waitFor({ timeout: 20_000 });
    await scan('/settings/integrations');
  });

  it('a webhook goes failing and is re-enabled; the held events are then delivered', async () => {
    const sink = await startWebhookSink();
    try {
      sink.setStatus(500);
      await go('/settings/webhooks');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const dlg = page.getByRole('dialog', { name: 'Add a webhook' });
      await dlg.getByLabel('Endpoint URL').fill(sink.url);
      await dlg.getByLabel('Description').fill('Accounting system');
      await dlg.getByLabel('All events').check();
      await dlg.getByRole('button', { name: 'Add webhook' }).click();
      const secret = await page.getByTestId('secret-value').innerText();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await page.getByRole('link', { name: 'Accounting system' }).click();
      await page.getByRole('heading', { level: 1, name: 'Accounting system' }).waitFor();
      // An event: the receipt is classified again (a helper in the page, with the page's own session).
      const reclassify = () =>
        page.evaluate(async (id) => {
          const csrf = document.cookie.match(/docpipe_csrf=([^;]+)/)![1];
          const r = await fetch('/api/v1/auth/refresh', {
            method: 'POST',
            headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
            body: '{}',
          });
          const { accessToken } = (await r.json()).data;
          await fetch(`/api/v1/documents/${id}/reprocess`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ stages: ['classify'] }),
          });
        }, state.receiptId);
      await reclassify();
      await page.getByText('Every retry of a delivery failed', { exact: false }).waitFor({ timeout: 30_000 });
      expect(await page.locator('.page-header .badge').first().innerText()).toBe('Failing');
      expect(sink.requests.length).toBeGreaterThanOrEqual(3);
      await page.getByRole('button', { name: 'Attempts' }).first().click();
      await page.getByRole('table', { name: 'Attempts' }).waitFor();
      expect(await page.getByRole('table', { name: 'Attempts' }).getByText('500').count()).toBeGreaterThanOrEqual(1);
      await screenshot(page, '09-webhook-failing');
      await scan('/settings/webhooks/:id (failing)');
      // While failing, a new event is held, not sent.
      const before = sink.requests.length;
      await reclassify();
      await page.getByRole('combobox', { name: 'Delivery status' }).selectOption('suspended');
      await page
        .getByRole('cell', { name: /Suspended/ })
        .first()
        .waitFor({ timeout: 20_000 });
      expect(sink.requests.length).toBe(before);
      await page.getByRole('combobox', { name: 'Delivery status' }).selectOption('');
      sink.setStatus(200);
      await page.getByRole('button', { name: 'Re-enable' }).click();
      await page.getByText(/Re-enabled/).waitFor();
      await expect
        .poll(() => page.locator('.page-header .badge').first().innerText(), { timeout: 20_000 })
        .toBe('Active');
      await sink.waitFor(before + 1, 20_000);
      await screenshot(page, '10-webhook-re-enabled');
      await go('/settings/webhooks');
      await scan('/settings/webhooks');
    } finally {
      await sink.close();
    }
  });

  it('templates: import a YAML template, test it against a document', async () => {
    await go('/templates');
    await page.getByRole('button', { name: 'Import templates' }).click();
    const dlg = page.getByRole('dialog', { name: 'Import invoice2data templates' });
    await dlg.getByLabel('Name', { exact: true }).fill('wilson-martin');
    await dlg
      .getByLabel('Template (YAML or JSON)')
      .fill(
        [
          'issuer: Wilson & Martin LLP',
          'keywords:',
          '  - Wilson & Martin',
          'fields:',
          '  po_number: PURCHASE ORDER:\\s*(\\S+)',
          '  client: CLIENT NO\\.:\\s*(\\d+)',
          'options:',
          '  currency: GBP',
        ].join('\n'),
      );
    await dlg.getByRole('button', { name: 'Validate' }).click();
    await dlg.getByText(/1 template valid/).waitFor();
    await scan('/templates (import dialog)');
    await dlg.getByRole('button', { name: /^Import/ }).click();
    await dlg.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'wilson-martin' }).click();
    await page.getByLabel('Template as JSON').waitFor();
    await page.getByLabel('Document', { exact: true }).selectOption({ label: 'invoice-wilson.pdf' });
    await page.getByRole('button', { name: 'Run template' }).click();
    const result = page.getByTestId('template-test-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/keywords match[\s\S]*po_number[\s\S]*ok[\s\S]*PO-80832/);
    await screenshot(page, '11-template-tested');
    await scan('/templates/:id');
    await go('/templates');
    await scan('/templates');
  });

  it('members and the pipeline page', async () => {
    await go('/settings/members');
    await page.getByRole('button', { name: 'Add person' }).click();
    const dlg = page.getByRole('dialog', { name: 'Add a person' });
    await dlg.getByLabel('E-mail').fill('jo@example.test');
    await dlg.getByLabel('Role').selectOption('viewer');
    await dlg.getByRole('button', { name: 'Add' }).click();
    const temp = await page.getByTestId('secret-value').innerText();
    expect(temp).toMatch(/^[A-Za-z0-9]{20}$/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Role of jo@example.test').selectOption('member');
    await page.getByText('jo@example.test: member').waitFor();
    // The owner's own row cannot be changed, and says why.
    expect(await page.getByLabel(`Role of ${s.owner.email}`).isDisabled()).toBe(true);
    await scan('/settings/members');
    await go('/settings/pipeline');
    await page.getByRole('table').first().waitFor();
    // The embed queue is held, so the batch is seen running: the dialog says it measures the pace.
    await s.deps.queues.get('embed').pause();
    await page.getByRole('button', { name: 'Run embed on all' }).click();
    await page.getByRole('button', { name: 'Start' }).click();
    const rp = page.getByRole('dialog', { name: 'Reprocess documents' });
    await rp.getByText(/^Running/).waitFor();
    expect(await rp.getByTestId('reprocess-pace').innerText()).toMatch(/Measuring the pace/);
    await screenshot(page, '12-pipeline');
    await s.deps.queues.get('embed').resume();
    await rp.getByText(/^Finished/).waitFor({ timeout: 60_000 });
    await scan('/settings/pipeline');
    await page.keyboard.press('Escape');
  });

  it('a viewer sees the pages with the actions they may not take disabled, and why', async () => {
    const viewer = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const p = await viewer.newPage();
    try {
      const { rows } = await s.deps.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'jo@example.test'`);
      await s.deps.repos.orgs.updateUser(rows[0].id, { role: 'viewer' });
      const temp = 'viewer password 123';
      await s.deps.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
        rows[0].id,
        await hashPassword(temp),
      ]);
      await p.goto(`${s.base}/`);
      await p.getByLabel('E-mail').fill('jo@example.test');
      await p.getByLabel('Password').fill(temp);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('navigation', { name: 'Main' }).waitFor();
      await p.goto(`${s.base}/documents`);
      await p.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
      expect(await p.getByRole('button', { name: 'Choose files…' }).isDisabled()).toBe(true);
      expect(await p.getByText('Needs the member role; you are a viewer.').first().isVisible()).toBe(true);
      await p.goto(`${s.base}/settings/api-keys`);
      await p.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      expect(await p.getByRole('button', { name: 'Create API key' }).isDisabled()).toBe(true);
      await screenshot(p, '13-viewer-disabled-actions');
    } finally {
      await viewer.close();
    }
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
    expect(scanned.length).toBeGreaterThanOrEqual(25);
    expect(problems).toEqual([]);
  });
});
