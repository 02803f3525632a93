// The first run in a browser: an installation without users shows "Create the owner account"
// instead of a sign-in form that can only fail; creating it signs the owner in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { ensureDashboardBuilt, screenshot, seriousViolations } from '../helpers/dashboard.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('first-run setup in the dashboard', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ensureDashboardBuilt();
    [t, browser] = await Promise.all([createTestApp('pglite'), launchBrowser()]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('offers the owner account while no user exists, then signs the new owner in', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Create the owner account' }).waitFor();
    expect(await page.getByLabel('Setup token').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'setup-form');
    await page.getByLabel('Organization name').fill('Acme First Run');
    await page.getByLabel('E-mail').fill('first@example.test');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.locator('.org').innerText()).toBe('Acme First Run');
    // Once a user exists, a fresh visit shows the sign-in form again.
    const other = await (await browser.newContext()).newPage();
    await other.goto(`${base}/`);
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await other.getByRole('heading', { name: 'Create the owner account' }).count()).toBe(0);
  });
});
