// The dashboard's inbound-mail parts in headless Chromium against a real service with the SMTP
// receiver: the receiving address with its copy button on the project page, the settings in the
// edit form, each e-mailed document's SMTP verdicts, and Settings → Integrations. Screenshots in
// test/artifacts/dashboard; axe-core scans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { ensureDashboardBuilt, screenshot, seriousViolations } from '../helpers/dashboard.js';
import { createInboundHarness, dkimKey, type InboundHarness } from '../helpers/inbound-harness.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';

describe('dashboard: inbound mail', () => {
  let h: InboundHarness;
  let browser: Browser;
  let page: Page;
  let base: string;
  const problems: string[] = [];

  beforeAll(async () => {
    ensureDashboardBuilt();
    h = await createInboundHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://localhost:${(h.app.server.address() as { port: number }).port}`;
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: 'en-US' });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${base}/`);
    await page.getByLabel('E-mail').fill(h.actor.email);
    await page.getByLabel('Password').fill(h.actor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('shows the address, the settings and the verdicts of a mailed document', async () => {
    const key = dkimKey();
    h.dns.set('acme.example', ['v=spf1 ip4:127.0.0.1 ip6:::1 -all']);
    h.dns.set('mail._domainkey.acme.example', [key.record]);
    h.dns.set('_dmarc.acme.example', ['v=DMARC1; p=reject']);
    const project = await h.createProject({
      name: 'Supplier invoices',
      inbound_allowed_senders: ['@acme.example'],
      inbound_authentication: 'dmarc',
    });
    await h.send(
      {
        from: 'Billing <billing@acme.example>',
        to: project.inbound_address,
        subject: 'Invoice 77',
        attachments: [{ filename: 'invoice-77.pdf', content: await makeTextPdf({ pages: [['Invoice 77']] }) }],
      },
      { dkim: { domainName: 'acme.example', keySelector: 'mail', privateKey: key.privateKey } },
    );
    const [doc] = await h.documents(project.id);

    await page.goto(`${base}/projects/${project.id}`);
    await page.getByRole('heading', { name: 'Receiving address' }).waitFor();
    await expect(page.getByTestId('copy-text').textContent()).resolves.toBe(project.inbound_address);
    expect(await page.getByText('@acme.example', { exact: true }).count()).toBeGreaterThan(0);
    await screenshot(page, 'inbound-project');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByLabel('Allowed senders').inputValue()).resolves.toBe('@acme.example');
    await expect(page.getByLabel('Sender authentication').inputValue()).resolves.toBe('dmarc');
    await screenshot(page, 'inbound-project-edit');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${base}/documents/${doc.id}`);
    await page.getByRole('heading', { name: 'Received by e-mail' }).waitFor();
    await screenshot(page, 'inbound-document');
    // SPF, DKIM and DMARC passed (ARC: none, the message was not forwarded).
    expect(await page.locator('.badge-good', { hasText: /^pass$/ }).count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${base}/settings/integrations`);
    await page.getByRole('heading', { name: 'Receiving addresses' }).waitFor();
    await expect(page.getByRole('table', { name: 'Receiving addresses' }).textContent()).resolves.toContain(
      project.inbound_address,
    );
    await screenshot(page, 'inbound-integrations');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
