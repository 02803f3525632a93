// The first hour in a browser, on an install whose embedding model cannot be loaded (the usual
// offline first start): the Quick start's sample invoice goes through the real pipeline, and the
// Pipeline page and the document page say that embeddings were skipped and why instead of
// looking complete. Also the "API keys" card of Settings → Integrations. Each step leaves a
// screenshot in test/artifacts/dashboard.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { ensureDashboardBuilt, screenshot, seriousViolations } from '../helpers/dashboard.js';
import { createDocsApp, docsConfig, eventually, type DocsApp } from '../helpers/docs-app.js';
import { waitForDocument } from '../helpers/pipeline.js';
import { packageRoot } from '../../src/lib/package-root.js';

describe('the first hour in the dashboard', () => {
  const modelDir = mkdtempSync(join(tmpdir(), 'docpipe-no-model-'));
  let t: DocsApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let docId: string;
  let auth: Record<string, string>;
  const owner = { email: 'first-hour@example.test', password: 'correct horse battery' };
  const problems: string[] = [];

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data: { id: string } };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  /** The element is inside the window without scrolling anything. */
  const inView = async (loc: ReturnType<Page['locator']>, height: number) => {
    const box = await loc.boundingBox();
    return !!box && box.y >= 0 && box.y + box.height <= height;
  };
  const go = async (path: string) => {
    await page.goto(`${base}${path}`);
    await page.waitForSelector('main h1');
  };

  beforeAll(async () => {
    ensureDashboardBuilt();
    const config = await docsConfig({
      EMBEDDING_MODEL: 'docpipe-test/not-installed',
      EMBEDDING_MODEL_DIR: modelDir,
      ALLOW_MODEL_DOWNLOAD: 'false',
    });
    [t, browser] = await Promise.all([createDocsApp({ config }), launchBrowser()]);
    await t.startWorkers();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    // localhost, not 127.0.0.1: the refresh cookie is Secure, and Chromium trusts localhost.
    base = `http://localhost:${(t.app.server.address() as { port: number }).port}`;
    await t.deps.services.orgs.createUser({ ...owner, orgName: 'First Hour Ltd', role: 'owner' });

    // The Quick start's first upload, through the API.
    const login = (await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(owner),
    }).then((r) => r.json())) as { data: { accessToken: string } };
    auth = { authorization: `Bearer ${login.data.accessToken}` };
    const project = (await fetch(`${base}/api/v1/projects`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'First steps', allowed_file_types: ['pdf', 'image/*'] }),
    }).then((r) => r.json())) as { data: { id: string } };
    const form = new FormData();
    form.set('project_id', project.data.id);
    form.set(
      'file',
      new Blob([readFileSync(join(packageRoot(), 'samples/invoice.pdf'))], { type: 'application/pdf' }),
      'invoice.pdf',
    );
    const up = (await fetch(`${base}/api/v1/documents`, { method: 'POST', headers: auth, body: form }).then((r) =>
      r.json(),
    )) as { data: { id: string } };
    docId = up.data.id;
    // Read from the database, not polled through the API: the owner's plan allows 30 requests a
    // minute, and a poll every 100 ms spent them in 3 s whenever the invoice took longer.
    await waitForDocument(t, docId, 60_000);

    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${base}/`);
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(modelDir, { recursive: true, force: true });
  });

  it('the Pipeline page says embeddings were skipped, why, and for how many documents', async () => {
    await go('/settings/pipeline');
    const note = page.getByRole('status').filter({ hasText: 'Embeddings skipped' });
    await note.waitFor();
    const text = await note.innerText();
    expect(text).toContain('docpipe-test/not-installed');
    expect(text).toContain('(1 document)');
    const embedRow = page.getByRole('row').filter({ hasText: 'vectors for search' });
    // In progress, failed, skipped.
    expect(await embedRow.locator('td.num').allInnerTexts()).toEqual(['0', '0', '1']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'pipeline-embeddings-skipped');
  });

  it('the document page says so too, while the rest of the pipeline did its work', async () => {
    await go(`/documents/${docId}`);
    const note = page.getByRole('status').filter({ hasText: 'Embeddings skipped' });
    await note.waitFor();
    expect(await note.innerText()).toContain('docpipe-test/not-installed');
    expect(await page.locator('main h1').innerText()).toContain('invoice.pdf');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'document-embeddings-skipped');
  });

  it('Settings → Integrations has an API keys card whose "Create API key" shows the new secret once', async () => {
    await go('/settings/integrations');
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'API keys' }) });
    await card.getByRole('button', { name: 'Create API key' }).click();
    const dlg = page.getByRole('dialog');
    await dlg.getByLabel('Name').fill('integration script');
    await dlg.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Your new API key' }).waitFor();
    expect((await page.getByTestId('secret-value').innerText()).trim()).toMatch(/^svc_live_\w{20,}/);
    await screenshot(page, 'integrations-api-key-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await eventually(async () => (await card.innerText()).includes('1 active key'), 'the card to count the new key');
    await card.getByRole('link', { name: 'Manage API keys' }).click();
    await page.getByRole('cell', { name: 'integration script' }).waitFor();
    expect(problems).toEqual([]);
  });
  it('dialogs keep their buttons in a short window; a refused webhook URL is said next to its field', async () => {
    const short = await (await browser.newContext({ viewport: { width: 1280, height: 700 } })).newPage();
    // The session lives in the refresh cookie of the first context: sign in again.
    await short.goto(`${base}/`);
    await short.getByLabel('E-mail').fill(owner.email);
    await short.getByLabel('Password').fill(owner.password);
    await short.getByRole('button', { name: 'Sign in' }).click();
    await short.getByRole('navigation', { name: 'Main' }).waitFor();
    await short.goto(`${base}/settings/api-keys`);
    await short.getByRole('button', { name: 'Create API key' }).click();
    expect(await inView(short.getByRole('button', { name: 'Create key' }), 700)).toBe(true);
    await screenshot(short, 'short-window-api-key-dialog');
    await short.getByRole('button', { name: 'Cancel' }).click();

    await short.goto(`${base}/settings/webhooks`);
    await short.getByRole('button', { name: 'Add webhook' }).click();
    const add = short.getByRole('dialog').getByRole('button', { name: 'Add webhook' });
    expect(await inView(add, 700)).toBe(true);
    await short.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hook');
    await add.click();
    const err = short.locator('#wh-url-error');
    await err.waitFor();
    expect(await err.innerText()).toMatch(/\S/);
    // The message belongs to the URL field (the same .field), the field is marked invalid.
    expect(
      await short
        .locator('.field.has-error')
        .filter({ has: short.locator('#wh-url') })
        .count(),
    ).toBe(1);
    expect(await short.locator('#wh-url').getAttribute('aria-invalid')).toBe('true');
    await screenshot(short, 'short-window-webhook-refused-url');
    await short.context().close();
  });

  it('"1 IP rule", not "1 IP rules"', async () => {
    await post('/api-keys', { name: 'one network', allowed_ips: ['10.0.0.0/8'] });
    await go('/settings/api-keys');
    const row = page.getByRole('row').filter({ hasText: 'one network' });
    expect(await row.innerText()).toContain('1 IP rule');
    expect(await row.innerText()).not.toContain('1 IP rules');
  });

  it('a project without documents says so instead of "last activity: now", and takes uploads itself', async () => {
    const empty = await post('/projects', { name: 'Contracts', allowed_file_types: ['pdf'] });
    await go(`/projects/${empty.id}`);
    const activity = page.locator('.stat').filter({ hasText: 'last activity' });
    await activity.getByText('no documents yet').waitFor();
    await screenshot(page, 'project-empty-with-upload');
    await page.getByLabel('Files to upload').setInputFiles(join(packageRoot(), 'samples/contract.pdf'));
    await eventually(
      async () => (await page.locator('.stat').filter({ hasText: 'documents' }).first().innerText()).startsWith('1'),
      'the project to count the uploaded contract',
    );
    expect(await activity.innerText()).not.toContain('no documents yet');
  });

  it('the Templates empty state points at samples/templates/', async () => {
    await go('/templates');
    expect(await page.locator('.empty').innerText()).toContain('samples/templates/');
  });

  it("the dry-run document picker names each document's project; the toast leaves the side panel free", async () => {
    const w = await post('/workflows', {
      name: 'Look at a document',
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'wait', type: 'delay', config: { seconds: 60 } },
      ],
      edges: [{ source: 'start', target: 'wait' }],
    });
    await go(`/workflows/${w.id}`);
    await page.getByRole('button', { name: 'Dry run…' }).click();
    const picker = page.getByRole('dialog').getByLabel('Document', { exact: true });
    // The list arrives after the dialog opens (documents and project names are fetched then).
    await expect
      .poll(() => picker.locator('option').allInnerTexts())
      .toContain('invoice.pdf · First steps (completed)');
    await picker.selectOption({ label: 'invoice.pdf · First steps (completed)' });
    await page.getByRole('dialog').getByRole('button', { name: 'Start dry run' }).click();
    const toast = page.locator('.toast').filter({ hasText: 'Dry run started' });
    await toast.waitFor();
    const [t, panel] = await Promise.all([toast.boundingBox(), page.locator('.wf-panel').boundingBox()]);
    expect(t && panel).toBeTruthy();
    // No horizontal overlap with the side panel.
    expect(t!.x + t!.width).toBeLessThanOrEqual(panel!.x);
    await screenshot(page, 'workflow-dry-run-toast');
  });

  it('the schedule time is typed as 24-hour HH:MM, not a locale AM/PM picker', async () => {
    const r = await post('/reports', {
      name: 'Daily count',
      type: 'document_summary',
      data_source: { period: { last: '7d' } },
    });
    await go(`/reports/${r.id}`);
    const time = page.getByRole('form', { name: 'Schedule' }).getByLabel('Time', { exact: true });
    expect(await time.getAttribute('type')).toBeNull();
    expect(await time.inputValue()).toBe('07:00');
    await time.fill('18:45');
    await page.getByRole('form', { name: 'Schedule' }).getByRole('button', { name: 'Schedule' }).click();
    await page.getByTestId('schedule-summary').waitFor();
    expect(await page.getByTestId('schedule-summary').innerText()).toContain('18:45');
    await screenshot(page, 'report-schedule-24h');
    expect(problems).toEqual([]);
  });
});
