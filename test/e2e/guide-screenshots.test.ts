// The setup flows the guides (docs/sheets.md, docs/email.md) walk through, done in headless
// Chromium against a real service with every worker role, the SMTP receiver, a watched folder,
// Dovecot and the fake Google API: each step is checked through the API, and each leaves the
// picture the guide shows. The pictures go to test/artifacts/dashboard/guides; with
// DOCPIPE_UPDATE_DOC_SCREENSHOTS=1 they are written to docs/images/ instead (so a normal run,
// and CI, leave the tree clean). Also the dashboard's layout checks that go with them: the
// document page's fields table fits at 1360 px, a toast leaves the fields' buttons free, dialog
// buttons are in view in a 900 px window.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { packageRoot } from '../../src/lib/package-root.js';
import { launchBrowser } from '../helpers/browser.js';
import { ARTIFACTS, seriousViolations, startDashboardStack, type DashboardStack } from '../helpers/dashboard.js';
import { fakeResolver, type DnsTable } from '../helpers/inbound-harness.js';
import { invoiceMessage } from '../helpers/mail-fixtures.js';
import { freePort } from '../helpers/net.js';
import { serviceAccountKey } from '../helpers/sheets-harness.js';

const UPDATE = process.env.DOCPIPE_UPDATE_DOC_SCREENSHOTS === '1';
const IMAGES = UPDATE ? join(packageRoot(), 'docs', 'images') : join(ARTIFACTS, 'guides');
const DOMAIN = 'in.example.com';

/**
 * A picture for a guide: a card (or a dialog, whole: the window is made tall enough for it and
 * its body scrolled to the top), with no toast over it and no focus ring in it.
 */
async function shot(target: Locator, name: string, o: { dialog?: boolean } = {}): Promise<void> {
  const page = target.page();
  for (const dismiss of await page.locator('.toast').getByRole('button', { name: 'Dismiss' }).all())
    await dismiss.click().catch(() => undefined);
  await page.locator('.toast').first().waitFor({ state: 'detached' });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const size = page.viewportSize()!;
  if (o.dialog) {
    await page.setViewportSize({ width: size.width, height: 1500 });
    await target.locator('.dialog-body').evaluate((el) => (el.scrollTop = 0));
  }
  mkdirSync(IMAGES, { recursive: true });
  const file = join(IMAGES, `${name}.png`);
  await target.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  if (o.dialog) await page.setViewportSize(size);
  // The guides' pictures stay small enough for a repository (and a reader on a slow line).
  if (UPDATE) expect(statSync(file).size, name).toBeLessThan(150_000);
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the guides’ setup flows in the dashboard', () => {
  let s: DashboardStack;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let token = '';
  let smtpPort = 0;
  const dns: DnsTable = new Map();
  const watchDir = mkdtempSync(join(tmpdir(), 'docpipe-guide-watch-'));
  const problems: string[] = [];
  const state: { projectId?: string; documentId?: string; address?: string } = {};

  /** The API as the owner; the organization is on the free plan (30 requests a minute), so a 429 waits as told. */
  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    for (;;) {
      const res = await fetch(`${s.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status !== 429) return { status: res.status, body: await res.json() };
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    }
  };
  const card = (title: string) =>
    page.locator('section.card').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  const sendMail = async (message: Record<string, unknown>) => {
    const tr = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      ignoreTLS: true,
      name: 'mail.vendor.example',
    });
    try {
      return (await tr.sendMail(message)) as { response: string };
    } finally {
      tr.close();
    }
  };

  beforeAll(async () => {
    smtpPort = await freePort();
    [s, browser] = await Promise.all([
      startDashboardStack({
        env: {
          SMTP_PORT: String(smtpPort),
          INBOUND_DOMAIN: DOMAIN,
          WATCH_DIR: watchDir,
          WATCH_STABLE_MS: '300',
          WATCH_POLL_MS: '200',
        },
        inbound: { resolver: fakeResolver(dns) },
      }),
      launchBrowser(),
    ]);
    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.base });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${s.base}/`);
    await page.getByLabel('E-mail').fill(s.owner.email);
    await page.getByLabel('Password').fill(s.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const login = await fetch(`${s.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: s.owner.email, password: s.owner.password }),
    }).then((r) => r.json() as Promise<{ data: { accessToken: string } }>);
    token = login.data.accessToken;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    rmSync(watchDir, { recursive: true, force: true });
  });

  it('watched folder: a PDF dropped into WATCH_DIR/<project id>/ becomes a document and moves to .done', async () => {
    const created = await api('POST', '/projects', { name: 'Supplier invoices' });
    expect(created.status).toBe(201);
    const projectId: string = created.body.data.id;
    state.projectId = projectId;
    // The watcher makes a folder for every active project within a minute; a person (or the
    // scanner's set-up) may make it at once.
    const folder = join(watchDir, projectId);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'invoice.pdf'), readFileSync(join(packageRoot(), 'samples', 'invoice.pdf')));
    await expect.poll(() => existsSync(join(folder, '.done', 'invoice.pdf')), { timeout: 30_000 }).toBe(true);
    const docs = await api('GET', `/projects/${projectId}/documents`);
    expect(docs.body.data.map((d: { filename: string }) => d.filename)).toEqual(['invoice.pdf']);
    state.documentId = docs.body.data[0].id;
    await expect
      .poll(async () => (await api('GET', `/documents/${state.documentId}`)).body.data.status, {
        timeout: 60_000,
        interval: 500,
      })
      .toMatch(/^(completed|needs_review)$/);
    // The same file again is a duplicate: stored once, noted beside it.
    writeFileSync(join(folder, 'again.pdf'), readFileSync(join(packageRoot(), 'samples', 'invoice.pdf')));
    await expect
      .poll(() => existsSync(join(folder, '.done', 'again.pdf.duplicate.txt')), { timeout: 30_000 })
      .toBe(true);
    expect(readFileSync(join(folder, '.done', 'again.pdf.duplicate.txt'), 'utf8')).toContain(state.documentId);
    // A file the project refuses goes to .failed with the reason.
    writeFileSync(join(folder, 'empty.pdf'), '');
    await expect.poll(() => existsSync(join(folder, '.failed', 'empty.pdf.error.txt')), { timeout: 30_000 }).toBe(true);
    expect((await api('GET', `/projects/${projectId}/documents`)).body.data).toHaveLength(1);

    // The folder is named after the project's id, shown on the project page.
    await page.goto(`${s.base}/projects/${projectId}`);
    const settings = card('Settings');
    await settings.getByText(projectId).waitFor();
    await shot(settings, 'watch-project-id');
    // The document says where it came from.
    expect((await api('GET', `/documents/${state.documentId}`)).body.data.source_metadata).toEqual({
      watch: { filename: 'invoice.pdf' },
    });
    await page.goto(`${s.base}/documents/${state.documentId}`);
    await page.getByText('from the watched folder').waitFor();
  });

  it('Google Sheets: connect a service account, check access, map the columns, a row arrives', async () => {
    s.google.spreadsheets.create('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', ['Invoices', 'Archive']);
    const key = serviceAccountKey(s.google, 'docpipe-export@acme-books.iam.gserviceaccount.com');
    await page.goto(`${s.base}/settings/integrations`);
    await page.getByRole('button', { name: 'Connect account' }).click();
    const conn = page.getByRole('dialog', { name: 'Connect a Google account' });
    await conn.getByLabel('Name', { exact: true }).fill('Finance exports');
    await conn.getByLabel('Key file (JSON)').fill(JSON.stringify(key, null, 2));
    await shot(conn, 'sheets-connect', { dialog: true });
    await conn.getByRole('button', { name: 'Connect' }).click();
    await conn.waitFor({ state: 'detached' });
    const conns = await api('GET', '/integrations/sheets/connections');
    expect(conns.body.data).toMatchObject([
      {
        name: 'Finance exports',
        type: 'service_account',
        client_email: 'docpipe-export@acme-books.iam.gserviceaccount.com',
      },
    ]);
    // The e-mail to share the spreadsheet with is shown with the account.
    const sheets = card('Google Sheets');
    await sheets.getByText('docpipe-export@acme-books.iam.gserviceaccount.com').waitFor();

    await page.getByRole('button', { name: 'New export' }).click();
    const dlg = page.getByRole('dialog', { name: 'Export a project to Google Sheets' });
    await dlg.getByLabel('Spreadsheet id').fill('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789');
    await dlg.getByRole('button', { name: 'Check access' }).click();
    await dlg.getByText('access ok').waitFor();
    await dlg.getByLabel('Sheet', { exact: true }).selectOption('Invoices');
    await dlg.getByRole('button', { name: 'fields.invoice_number' }).click();
    await dlg.getByRole('button', { name: 'fields.total' }).click();
    await expect
      .poll(() => dlg.getByTestId('export-preview').innerText())
      .toMatch(/Invoice number[\s\S]*Total[\s\S]*invoice\.pdf/i);
    await shot(dlg, 'sheets-mapping', { dialog: true });
    expect(await seriousViolations(page)).toEqual([]);
    await dlg.getByRole('button', { name: 'Create export' }).click();
    await dlg.waitFor({ state: 'detached' });
    const exports = await api('GET', '/integrations/sheets/exports');
    expect(exports.body.data).toHaveLength(1);
    expect(exports.body.data[0]).toMatchObject({ project_id: state.projectId, sheet_name: 'Invoices' });
    expect(exports.body.data[0].columns.map((c: { field: string }) => c.field)).toEqual(
      expect.arrayContaining(['fields.invoice_number', 'fields.total']),
    );

    await page.getByRole('button', { name: 'Export now' }).click();
    const send = page.getByRole('dialog', { name: 'Export a document now' });
    await send.getByLabel('Document').selectOption({ label: 'invoice.pdf (completed)' });
    await send.getByRole('button', { name: 'Export' }).click();
    await expect
      .poll(() => s.google.spreadsheets.getValues('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'Invoices').length, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);
    const rows = s.google.spreadsheets.getValues('1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'Invoices');
    expect(rows[0]).toEqual(expect.arrayContaining(['Invoice number', 'Total']));
    expect(rows[1][rows[0].indexOf('File')]).toBe('invoice.pdf');
    await page.reload();
    await card('Google Sheets').getByText('docpipe-export@acme-books.iam.gserviceaccount.com').waitFor();
    await shot(card('Google Sheets'), 'sheets-exports');
  });

  it('IMAP: add a mailbox, test the connection, and a mailed invoice becomes a document', async (t) => {
    if (!s.dovecot) return t.skip();
    await s.dovecot.createFolder('inbox', 'Processed');
    await page.goto(`${s.base}/settings/integrations`);
    await page.getByRole('button', { name: 'Add mailbox' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a mailbox' });
    await dialog.getByLabel('Name', { exact: true }).fill('Accounts payable');
    await dialog.getByLabel('IMAP host').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(String(s.dovecot.port));
    await dialog.getByLabel('Security').selectOption('none');
    await dialog.getByLabel('Folder', { exact: true }).fill('INBOX');
    await dialog.getByLabel('User name').fill('inbox');
    await dialog.getByLabel('Password', { exact: true }).fill('pw-inbox');
    await dialog.getByLabel('After processing').selectOption('move');
    await dialog.getByLabel('Move to folder').fill('Processed');
    await dialog.getByLabel('Attachment names to take').fill('*.pdf');
    await shot(dialog, 'imap-add-mailbox', { dialog: true });
    await dialog.getByRole('button', { name: 'Add mailbox' }).click();
    await page.getByRole('link', { name: 'Accounts payable' }).waitFor();
    const boxes = await api('GET', '/integrations/mailboxes');
    expect(boxes.body.data).toMatchObject([
      {
        name: 'Accounts payable',
        folder: 'INBOX',
        after_processing: 'move',
        processed_folder: 'Processed',
        project_id: state.projectId,
      },
    ]);
    expect(JSON.stringify(boxes.body)).not.toContain('pw-inbox');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('mailbox-test');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/INBOX: \d+ messages/);
    await shot(card('Mailboxes'), 'imap-tested');

    await s.dovecot.appendMessage('inbox', 'INBOX', invoiceMessage({ subject: 'Invoice 2024-001' }));
    await expect
      .poll(
        async () =>
          (await api('GET', `/projects/${state.projectId}/documents`)).body.data.map(
            (d: { filename: string }) => d.filename,
          ),
        { timeout: 30_000, interval: 500 },
      )
      .toContain('invoice-2024-001.pdf');
    await expect.poll(async () => (await s.dovecot!.listFolder('inbox', 'Processed')).length).toBe(1);
    await page.getByRole('link', { name: 'Accounts payable' }).click();
    const messages = card('Messages');
    await messages.getByText('Invoice 2024-001').waitFor({ timeout: 20_000 });
    await shot(messages, 'imap-messages');
  });

  it('inbound SMTP: copy and rotate the address, set the allowed senders and SPF; mail arrives', async () => {
    const before = (await api('GET', `/projects/${state.projectId}`)).body.data;
    expect(before.inbound_address).toMatch(
      new RegExp(`^supplier-invoices-[a-z0-9]{12}@${DOMAIN.replace(/\./g, '\\.')}$`),
    );
    await page.goto(`${s.base}/projects/${state.projectId}`);
    const address = card('Receiving address');
    await address.getByRole('button', { name: /copy/i }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(before.inbound_address);

    // A new address: the old one is refused from then on.
    await address.getByRole('button', { name: 'New address…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Replace the receiving address?' });
    await confirm.getByRole('button', { name: 'Replace address' }).click();
    await confirm.waitFor({ state: 'detached' });
    const after = (await api('GET', `/projects/${state.projectId}`)).body.data;
    expect(after.inbound_address).not.toBe(before.inbound_address);
    await address.getByText(after.inbound_address).waitFor();
    state.address = after.inbound_address;
    await expect(
      sendMail({ from: 'billing@vendor.example', to: before.inbound_address, subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    await address.getByRole('button', { name: /copy/i }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(after.inbound_address);
    await shot(address, 'inbound-address');

    // Only the supplier's domain, and only mail its SPF record vouches for.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit project' });
    await edit.getByLabel('Allowed senders').fill('@vendor.example');
    await edit.getByLabel('Sender authentication').selectOption('spf');
    await shot(edit, 'inbound-project-settings', { dialog: true });
    expect(await seriousViolations(page)).toEqual([]);
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await edit.waitFor({ state: 'detached' });
    const saved = (await api('GET', `/projects/${state.projectId}`)).body.data;
    expect(saved).toMatchObject({ inbound_allowed_senders: ['@vendor.example'], inbound_authentication: 'spf' });

    dns.set('vendor.example', ['v=spf1 ip4:127.0.0.1 ip6:::1 -all']);
    await expect(
      sendMail({ from: 'someone@elsewhere.example', to: state.address, subject: 'x', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    await sendMail({
      from: 'Billing <billing@vendor.example>',
      to: state.address,
      subject: 'Invoice 2024-002',
      attachments: [
        { filename: 'invoice-2024-002.pdf', content: readFileSync(join(packageRoot(), 'samples', 'contract.pdf')) },
      ],
    });
    await expect
      .poll(
        async () =>
          (await api('GET', `/projects/${state.projectId}/documents`)).body.data.map(
            (d: { filename: string }) => d.filename,
          ),
        { timeout: 30_000, interval: 500 },
      )
      .toContain('invoice-2024-002.pdf');

    await page.goto(`${s.base}/settings/integrations`);
    const table = page.getByRole('table', { name: 'Receiving addresses' });
    await expect.poll(() => table.textContent()).toContain(state.address);
    expect(await table.textContent()).toContain('SPF required');
    await shot(card('Receiving addresses'), 'inbound-integrations');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the document page: the fields table fits at 1360 px and a toast leaves its buttons free', async () => {
    const p = await (await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: 'en-US' })).newPage();
    // The session is in the first context's refresh cookie: sign in again.
    await p.goto(`${s.base}/`);
    await p.getByLabel('E-mail').fill(s.owner.email);
    await p.getByLabel('Password').fill(s.owner.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('navigation', { name: 'Main' }).waitFor();
    await p.goto(`${s.base}/documents/${state.documentId}`);
    const table = p.locator('table.fields-table');
    await table.waitFor();
    const wrap = p.locator('.table-wrap').filter({ has: table });
    // Every column is visible without scrolling the table sideways.
    const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    const method = (await table.getByRole('columnheader', { name: 'Method' }).boundingBox())!;
    const box = (await wrap.boundingBox())!;
    expect(method.x + method.width).toBeLessThanOrEqual(box.x + box.width + 0.5);

    // Adding a field shows a toast; the field row's buttons stay uncovered.
    await p.getByLabel('New field name').fill('order_reference');
    const add = p.getByRole('button', { name: 'Add', exact: true });
    await add.scrollIntoViewIfNeeded();
    await add.click();
    const toast = p.locator('.toast').first();
    await toast.waitFor();
    await p.getByLabel('Order reference').waitFor();
    await p.getByLabel('New field name').fill('another');
    const addBox = (await add.boundingBox())!;
    for (const t of await p.locator('.toast').all()) expect(overlaps((await t.boundingBox())!, addBox)).toBe(false);
    await p.screenshot({ path: join(ARTIFACTS, 'guides-document-fields-1360.png') });
    await p.context().close();
  });

  it('dialog buttons are in view in a 1280×900 window (API key, webhook)', async () => {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
    await p.goto(`${s.base}/`);
    await p.getByLabel('E-mail').fill(s.owner.email);
    await p.getByLabel('Password').fill(s.owner.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('navigation', { name: 'Main' }).waitFor();
    const inView = async (l: Locator) => {
      const b = (await l.boundingBox())!;
      return b.y >= 0 && b.y + b.height <= 900;
    };
    await p.goto(`${s.base}/settings/api-keys`);
    await p.getByRole('button', { name: 'Create API key' }).click();
    expect(await inView(p.getByRole('dialog').getByRole('button', { name: 'Create key' }))).toBe(true);
    await p.screenshot({ path: join(ARTIFACTS, 'guides-api-key-dialog-900.png') });
    await p.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await p.goto(`${s.base}/settings/webhooks`);
    await p.getByRole('button', { name: 'Add webhook' }).click();
    expect(await inView(p.getByRole('dialog').getByRole('button', { name: 'Add webhook' }))).toBe(true);
    await p.screenshot({ path: join(ARTIFACTS, 'guides-webhook-dialog-900.png') });
    await p.context().close();
  });
});
