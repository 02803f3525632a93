// The dashboard's workflow and report pages in headless Chromium against a real service (same
// harness as dashboard.test.ts, a server of its own so each file stays a reasonable length): a
// workflow built in the graph editor, refused with the problem on its node, dry-run and run; a
// report created, scheduled (next run in its zone and in UTC), run, charted and downloaded in
// three formats that parse back. Screenshots in test/artifacts/dashboard; axe-core scans.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import {
  screenshot as fullShot,
  seriousViolations,
  startDashboardStack,
  type DashboardStack,
} from '../helpers/dashboard.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';

/** RFC 4180 rows (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

describe('dashboard: workflows and reports in a browser', () => {
  let s: DashboardStack;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const scanned: { path: string; violations: Awaited<ReturnType<typeof seriousViolations>> }[] = [];
  const state: { workflowUrl?: string; reportUrl?: string; runUrl?: string } = {};

  const go = async (path: string) => {
    await page.goto(`${s.base}${path}`);
    await page.waitForSelector('main h1');
  };
  /** A full-page screenshot from the top (a scrolled page would show the sticky bar mid-page). */
  const screenshot = async (p: Page, name: string) => {
    await p.evaluate(() => window.scrollTo(0, 0));
    return fullShot(p, name);
  };
  const scan = async (label: string) => {
    scanned.push({ path: label, violations: await seriousViolations(page) });
  };

  /** The API as a script would use it (JSON-mode login), for seeding what the flows need. */
  async function seedDocuments(): Promise<void> {
    const login = await fetch(`${s.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: s.owner.email, password: s.owner.password }),
    });
    const token = (await login.json()).data.accessToken as string;
    const auth = { authorization: `Bearer ${token}` };
    const project = await fetch(`${s.base}/api/v1/projects`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Reports seed', auto_classify: false, auto_extract: false }),
    });
    const projectId = (await project.json()).data.id as string;
    for (const [i, lines] of [
      ['INVOICE 1001', 'Total 120.00'],
      ['RECEIPT 77', 'Paid 9.50'],
    ].entries()) {
      const form = new FormData();
      form.set('project_id', projectId);
      form.set(
        'file',
        new Blob([new Uint8Array(await makeTextPdf({ pages: [lines] }))], { type: 'application/pdf' }),
        `seed-${i}.pdf`,
      );
      const r = await fetch(`${s.base}/api/v1/documents`, { method: 'POST', headers: auth, body: form });
      expect(r.status).toBe(201);
    }
  }

  beforeAll(async () => {
    [s, browser] = await Promise.all([startDashboardStack(), launchBrowser()]);
    // A zone of its own, so "in the schedule's zone" and "in the browser's zone" differ.
    ctx = await browser.newContext({
      viewport: { width: 1360, height: 900 },
      timezoneId: 'Europe/Berlin',
      locale: 'en-US',
      acceptDownloads: true,
    });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of (4\d\d)/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await seedDocuments();
    await page.goto(`${s.base}/`);
    await page.getByLabel('E-mail').fill(s.owner.email);
    await page.getByLabel('Password').fill(s.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('builds a two-step workflow in the editor; the API refuses a bad expression and the problem shows on the step', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workflows' }).waitFor();
    await page.getByText('No workflows yet').waitFor();
    await scan('/workflows (empty)');
    await page.getByRole('button', { name: 'New workflow' }).click();
    const dlg = page.getByRole('dialog', { name: 'New workflow' });
    await dlg.getByLabel('Name').fill('Big orders');
    await dlg.getByLabel('Start with').selectOption('manual');
    await scan('/workflows (new workflow dialog)');
    await screenshot(page, '29-workflow-new-dialog');
    await dlg.getByRole('button', { name: 'Create workflow' }).click();
    expect(await page.getByTestId('secret-value').innerText()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Open the editor' }).click();
    await page.getByRole('heading', { level: 1, name: /Big orders/ }).waitFor();
    state.workflowUrl = new URL(page.url()).pathname;

    // The trigger is on the canvas; select it, then add a condition from the palette (connected from it).
    const canvas = page.getByTestId('workflow-canvas');
    await canvas.locator('[data-node-id="start"]').click();
    await page
      .getByRole('complementary', { name: 'Selected step' })
      .getByRole('heading', { name: /Manual trigger: start/ })
      .waitFor();
    await page.getByRole('button', { name: 'Add Condition' }).click();
    await canvas.locator('[data-node-id="condition_1"]').waitFor();
    const panel = page.getByRole('complementary', { name: 'Selected step' });
    await panel.getByRole('heading', { name: /Condition: condition_1/ }).waitFor();
    expect(await canvas.locator('.react-flow__edge').count()).toBe(1);
    expect(await panel.getByRole('list', { name: 'Connections from condition_1' }).count()).toBe(0);
    await panel.getByLabel('Name', { exact: true }).fill('Over 100?');
    // An expression that does not parse: the API names the node and the JSON path.
    await panel.getByLabel('Expression').fill('input.amount >');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const onNode = page.getByTestId('issues-condition_1');
    await onNode.waitFor();
    expect(await onNode.innerText()).toMatch(/config\.expression/);
    expect(await page.getByTestId('workflow-problems').innerText()).toMatch(
      /condition_1[\s\S]*nodes\[1\]\.config\.expression/,
    );
    expect(await panel.getByRole('alert').first().innerText()).toMatch(/problem/);
    await screenshot(page, '20-workflow-validation-error');
    await scan('/workflows/:id (validation error)');
    // Nothing was saved.
    const { rows } = await s.deps.db.query<{ version: number; nodes: unknown[] }>(
      'SELECT version, nodes FROM workflows WHERE org_id = $1',
      [s.owner.orgId],
    );
    expect(rows[0]).toMatchObject({ version: 1 });
    expect(rows[0].nodes).toHaveLength(1);

    await panel.getByLabel('Expression').fill('input.amount > 100');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved (version 2)').waitFor();
    await onNode.waitFor({ state: 'detached' });
    const saved = await s.deps.db.query<{
      nodes: { id: string; type: string; name?: string; config: Record<string, unknown> }[];
      edges: unknown[];
    }>('SELECT nodes, edges FROM workflows WHERE org_id = $1', [s.owner.orgId]);
    expect(saved.rows[0].nodes.map((n) => [n.id, n.type, n.name])).toEqual([
      ['start', 'trigger.manual', undefined],
      ['condition_1', 'condition', 'Over 100?'],
    ]);
    expect(saved.rows[0].nodes[1].config).toEqual({ expression: 'input.amount > 100' });
    expect(saved.rows[0].edges).toEqual([{ source: 'start', target: 'condition_1' }]);
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('The graph is valid and can run.').waitFor();
  });

  it('the JSON editor refuses text that is not an object, and the step settings stay as they were', async () => {
    const panel = page.getByRole('complementary', { name: 'Selected step' });
    await panel.getByRole('tab', { name: 'JSON' }).click();
    const json = panel.getByLabel('Config (JSON)');
    expect(JSON.parse(await json.inputValue())).toEqual({ expression: 'input.amount > 100' });
    await json.fill('{"expression": ');
    await panel.getByText(/Not applied/).waitFor();
    await expect.poll(() => page.getByText('unsaved changes').count()).toBe(0);
    await json.fill('{"expression": "input.amount > 100"}');
    await panel.getByRole('tab', { name: 'Form' }).click();
    expect(await panel.getByLabel('Expression').inputValue()).toBe('input.amount > 100');
    // Back to what was saved: no unsaved changes, so it can run.
    expect(await page.getByText('unsaved changes').count()).toBe(0);
  });

  it('the canvas works from the keyboard: Tab to a step, Enter selects it, arrow keys move it', async () => {
    const panel = page.getByRole('complementary', { name: 'Selected step' });
    const start = page.locator('.react-flow__node[data-id="start"]');
    const cond = page.locator('.react-flow__node[data-id="condition_1"]');
    expect(await start.getAttribute('tabindex')).toBe('0');
    expect(await start.getAttribute('aria-label')).toMatch(/Manual trigger step start/);
    await start.focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('heading', { name: /Manual trigger: start/ }).waitFor();
    await cond.focus();
    await page.keyboard.press('Enter');
    await panel.getByRole('heading', { name: /Condition: Over 100\?/ }).waitFor();
    const before = (await cond.boundingBox())!;
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await cond.boundingBox())!.x).toBeGreaterThan(before.x);
    // Moving is a view preference: the graph has no unsaved change.
    expect(await page.getByText('unsaved changes').count()).toBe(0);
  });

  it('dry-runs the workflow with an input and sees each step, then runs it', async () => {
    await page.getByRole('button', { name: 'Dry run…' }).click();
    const dry = page.getByRole('dialog', { name: /Dry run: Big orders/ });
    await dry.getByLabel('Input (JSON)').fill('{"amount": 250}');
    await scan('/workflows/:id (dry-run dialog)');
    await dry.getByRole('button', { name: 'Start dry run' }).click();
    await dry.waitFor({ state: 'detached' });
    const detail = page.getByTestId('run-detail');
    await expect.poll(() => detail.innerText(), { timeout: 30_000 }).toMatch(/Completed[\s\S]*dry run/);
    const steps = detail.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(1).innerText()).toMatch(/Over 100\?[\s\S]*condition[\s\S]*Completed[\s\S]*branch true/);
    // The canvas shows each step's status in this run.
    expect(await page.getByTestId('workflow-canvas').locator('[data-node-id="condition_1"] .badge').innerText()).toBe(
      'Completed',
    );
    await steps.nth(1).locator('summary').click();
    expect(await steps.nth(1).getByLabel('Output of condition_1').innerText()).toMatch(/true/);
    await screenshot(page, '21-workflow-dry-run');
    await scan('/workflows/:id (dry run done)');

    await page.getByRole('button', { name: 'Run…', exact: true }).click();
    const run = page.getByRole('dialog', { name: /Run: Big orders/ });
    await run.getByLabel('Input (JSON)').fill('{"amount": 20}');
    await run.getByRole('button', { name: 'Start run' }).click();
    await run.waitFor({ state: 'detached' });
    await expect.poll(() => detail.innerText(), { timeout: 30_000 }).toMatch(/Completed[\s\S]*execute/);
    expect(await detail.getByRole('list', { name: 'Steps' }).getByRole('listitem').nth(1).innerText()).toMatch(
      /branch false/,
    );
    const { rows } = await s.deps.db.query<{ mode: string; status: string }>(
      'SELECT mode, status FROM workflow_runs ORDER BY queued_at',
    );
    expect(rows).toEqual([
      { mode: 'dry_run', status: 'completed' },
      { mode: 'execute', status: 'completed' },
    ]);

    // Activate it; the runs tab lists both runs; a run's page has every step.
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByText(/Activated \(version/).waitFor();
    await expect.poll(() => page.locator('.page-header h1 .badge').first().innerText()).toBe('Active');
    await page.getByRole('tab', { name: 'Runs' }).click();
    const table = page.getByRole('table', { name: 'Runs' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.innerText()).toMatch(/dry run/);
    await scan('/workflows/:id (runs tab)');
    await table.getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: /Run run_|Run / }).waitFor();
    state.runUrl = new URL(page.url()).pathname;
    await page.getByTestId('run-detail').getByText('Run input').waitFor();
    await screenshot(page, '22-workflow-run');
    await scan('/workflows/runs/:id');
    await go('/workflows/runs');
    await page.getByRole('table', { name: 'Runs' }).getByRole('link', { name: 'Big orders' }).first().waitFor();
    await page.getByLabel('Mode').selectOption('dry_run');
    await expect.poll(() => page.getByRole('table', { name: 'Runs' }).getByRole('row').count()).toBe(2);
    await screenshot(page, '31-workflow-runs');
    await scan('/workflows/runs');
    await go('/workflows');
    await page.getByRole('link', { name: 'Big orders' }).waitFor();
    await page.getByLabel('Status').selectOption('draft');
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('link', { name: 'Big orders' }).waitFor();
    await screenshot(page, '30-workflows-list');
    await page.getByLabel('Status').selectOption('draft');
    await page.getByText('No workflow matches these filters.').waitFor();
    await scan('/workflows');
  });

  it('every step type from the palette opens its form; Check shows what is missing on the steps concerned', async () => {
    await go('/workflows');
    await page.getByRole('button', { name: 'New workflow' }).click();
    const dlg = page.getByRole('dialog', { name: 'New workflow' });
    await dlg.getByLabel('Name').fill('Every step');
    await dlg.getByLabel('Start with').selectOption('empty');
    await dlg.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('button', { name: 'Open the editor' }).click();
    await page.getByRole('heading', { level: 1, name: /Every step/ }).waitFor();
    await page.getByText('No step selected').waitFor();
    const palette = page.getByRole('navigation', { name: 'Add a step' });
    const buttons = palette.getByRole('button');
    const labels = await buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')!.replace(/^Add /, '')));
    expect(labels).toHaveLength(13);
    const panel = page.getByRole('complementary', { name: 'Selected step' });
    for (const label of labels) {
      await palette.getByRole('button', { name: `Add ${label}`, exact: true }).click();
      await panel.getByRole('heading', { name: new RegExp(`^${label.replace(/[?]/g, '\\?')}: `) }).waitFor();
    }
    expect(await page.getByTestId('workflow-canvas').locator('.wf-node').count()).toBe(13);
    // A map field (set_fields) and a config edited as JSON.
    await page.getByText('Steps as a list (13)').click();
    await page
      .getByRole('table', { name: 'Steps of the workflow' })
      .getByRole('button', { name: 'set_fields_1' })
      .click();
    expect(await panel.getByLabel('Expression 1').first().inputValue()).toBe('"checked"');
    await page.getByRole('button', { name: 'Check' }).click();
    const problems = page.getByTestId('workflow-problems');
    await problems.waitFor();
    const text = await problems.innerText();
    expect(text).toMatch(/move_to_project_1[\s\S]*config\.project_id is required/);
    expect(text).toMatch(/export_sheets_1[\s\S]*config\.export_id is required/);
    expect(await page.getByTestId('issues-move_to_project_1').isVisible()).toBe(true);
    await screenshot(page, '35-workflow-every-step');
    await scan('/workflows/:id (every step type)');
    // Missing required config is refused even for a draft: nothing is saved.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The workflow graph is invalid.').waitFor();
    expect(await page.getByText('unsaved changes').count()).toBe(1);
  });

  it('connects steps by dragging from a branch handle, or from the side panel with the keyboard', async () => {
    const panel = page.getByRole('complementary', { name: 'Selected step' });
    const steps = page.getByRole('table', { name: 'Steps of the workflow' });
    const goesTo = (id: string) =>
      steps
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: id, exact: true }) })
        .getByRole('cell')
        .nth(2);
    await steps.getByRole('button', { name: 'condition_1', exact: true }).click();
    await panel.getByRole('heading', { name: /^Condition: condition_1/ }).waitFor();
    const cond = page.locator('.react-flow__node[data-id="condition_1"]');
    const target = page.locator('.react-flow__node[data-id="set_fields_1"]');
    await expect
      .poll(async () => (await target.boundingBox()) !== null && (await cond.boundingBox()) !== null)
      .toBe(true);
    // Drag from the condition's "false" handle onto the input handle of the step below it.
    await page.getByTestId('workflow-canvas').scrollIntoViewIfNeeded();
    const h = (await cond.locator('.react-flow__handle.wf-handle-false').boundingBox())!;
    const t = (await target.locator('.react-flow__handle-top').boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect.poll(() => goesTo('condition_1').innerText()).toBe('set_fields_1 (true), set_fields_1 (false)');
    // The selected connection's branch can be changed in the panel.
    await panel.getByRole('heading', { name: 'Connection' }).waitFor();
    await panel.getByLabel('Follow it').selectOption('error');
    await expect.poll(() => goesTo('condition_1').innerText()).toBe('set_fields_1 (true), set_fields_1 (error)');
    // The condition now has an error output, and the edge leaves from it.
    expect(await cond.locator('.react-flow__handle.wf-handle-error').count()).toBe(1);
    await page.locator('.react-flow__edge.wf-edge-error').waitFor();
    // Without a pointer: pick the step, a target and a branch, then Connect.
    await steps.getByRole('button', { name: 'condition_1', exact: true }).click();
    await panel.getByLabel('Connect to', { exact: true }).selectOption('delay_1');
    await panel.getByLabel('When', { exact: true }).selectOption('false');
    await panel.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect
      .poll(() => goesTo('condition_1').innerText())
      .toBe('set_fields_1 (true), set_fields_1 (error), delay_1 (false)');
    expect(await panel.getByRole('list', { name: 'Connections from condition_1' }).getByRole('listitem').count()).toBe(
      3,
    );
    await screenshot(page, '37-workflow-connected');
  });

  it('creates a report, schedules it (next run in its zone and in UTC), runs it and sees its chart', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    await page.getByText('No reports yet').waitFor();
    await scan('/reports (empty)');
    await page.getByRole('button', { name: 'New report' }).click();
    const dlg = page.getByRole('dialog', { name: 'New report' });
    await dlg.getByLabel('Name').fill('Documents per day');
    await dlg.getByLabel('Type', { exact: true }).selectOption('document_summary');
    await dlg.getByLabel('Category').fill('operations');
    await dlg.getByLabel('Period').selectOption('7d');
    expect(await dlg.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
    // A filter key the type does not read is refused by the API, naming it.
    await dlg.getByLabel('Minimum confidence').fill('7');
    await scan('/reports (new report dialog)');
    await dlg.getByRole('button', { name: 'Create report' }).click();
    await dlg
      .getByText(/filters\.min_confidence/)
      .first()
      .waitFor();
    await screenshot(page, '32-report-dialog-refused');
    await dlg.getByLabel('Minimum confidence').fill('');
    await dlg.getByRole('button', { name: 'Create report' }).click();
    await page.getByRole('heading', { level: 1, name: 'Documents per day' }).waitFor();
    state.reportUrl = new URL(page.url()).pathname;

    const form = page.getByRole('form', { name: 'Schedule' });
    await form.getByLabel('Frequency').selectOption('weekly');
    await form.getByLabel('Day of the week').selectOption('tuesday');
    await form.getByLabel('Time', { exact: true }).fill('07:30');
    await form.getByLabel('Time zone').fill('America/New_York');
    await form.getByRole('button', { name: 'Schedule' }).click();
    const summary = page.getByTestId('schedule-summary');
    await summary.getByText('Every Tuesday at 07:30 (America/New_York)').waitFor();
    const { rows } = await s.deps.db.query<{ next_run_at: Date }>('SELECT next_run_at FROM report_schedules');
    const next = new Date(rows[0].next_run_at);
    // The next run is a Tuesday at 07:30 in New York, shown there and in UTC.
    const ny = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(next);
    expect(ny).toMatch(/^Tue,? 07:30$/);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    // Compared with spaces normalised (ICU versions differ in the space before AM/PM).
    const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
    const shown = (zone: string) =>
      flat(
        next.toLocaleString('en-US', {
          weekday: 'short',
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          timeZone: zone,
          timeZoneName: 'short',
        }),
      );
    expect(flat(await summary.getByTestId('next-run-local').innerText())).toBe(shown('America/New_York'));
    expect(flat(await summary.getByTestId('next-run-utc').innerText())).toBe(shown('UTC'));
    expect(shown('America/New_York')).toMatch(/07:30 AM (EST|EDT)$/);
    await screenshot(page, '23-report-scheduled');

    await page.getByRole('button', { name: 'Run now' }).click();
    const executions = page.getByRole('table', { name: 'Executions' });
    await expect.poll(() => executions.innerText(), { timeout: 60_000, interval: 250 }).toMatch(/Completed/);
    const result = page.getByTestId('execution-result');
    await result.getByRole('img', { name: /Documents per day by status/ }).waitFor({ timeout: 20_000 });
    expect(await result.innerText()).toMatch(/Documents\s+2/);
    // The chart was drawn (a canvas with something on it).
    const painted = await result
      .locator('canvas')
      .first()
      .evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
        return false;
      });
    expect(painted).toBe(true);
    await screenshot(page, '24-report-executed');
    await scan('/reports/:id');
  });

  it('downloads the execution as CSV, JSON and XLSX, and each parses back', async () => {
    const fetchDownload = async (label: string) => {
      const [d] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: label }).first().click(),
      ]);
      return { name: d.suggestedFilename(), data: readFileSync((await d.path())!) };
    };
    const csv = await fetchDownload('Download CSV');
    expect(csv.name).toMatch(/\.csv$/);
    const table = parseCsv(csv.data.toString('utf8'));
    expect(table[0]).toEqual(['day', 'dimension', 'key', 'label', 'documents', 'pages']);
    const statusRows = table.slice(1).filter((r) => r[1] === 'status');
    expect(statusRows.reduce((n, r) => n + Number(r[4]), 0)).toBe(2);

    const json = await fetchDownload('Download JSON');
    const parsed = JSON.parse(json.data.toString('utf8')) as {
      sections: { name: string; rows: { dimension: string; documents: number }[] }[];
    };
    expect(parsed.sections.map((x) => x.name)).toEqual(['daily']);
    expect(parsed.sections[0].rows.filter((r) => r.dimension === 'source').reduce((n, r) => n + r.documents, 0)).toBe(
      2,
    );

    const xlsx = await fetchDownload('Download XLSX');
    expect(xlsx.name).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.data as unknown as ArrayBuffer);
    expect(wb.worksheets.length).toBeGreaterThanOrEqual(1);
    const values = wb.worksheets.flatMap((w) => w.getSheetValues().flat().map(String));
    expect(values).toContain('status');
  });

  it('the list filters reports by type and category', async () => {
    await go('/reports');
    await page.getByRole('link', { name: 'Documents per day' }).waitFor();
    expect(await page.getByRole('row', { name: /Documents per day/ }).innerText()).toMatch(
      /weekly at 07:30[\s\S]*Completed/,
    );
    await page.getByLabel('Type').selectOption('usage');
    await page.getByText('No report matches these filters.').waitFor();
    await page.getByLabel('Type').selectOption('');
    await page.getByLabel('Category').fill('operations');
    await page.getByLabel('Category').press('Enter');
    await page.getByRole('link', { name: 'Documents per day' }).waitFor();
    await screenshot(page, '33-reports-list');
    await scan('/reports');
  });

  it('a report of another type shows its sections as tables (or line charts for series)', async () => {
    await page.getByRole('button', { name: 'New report' }).click();
    const dlg = page.getByRole('dialog', { name: 'New report' });
    await dlg.getByLabel('Name').fill('Usage this month');
    await dlg.getByLabel('Type', { exact: true }).selectOption('usage');
    await dlg.getByText('This type has no filters.').waitFor();
    await dlg.getByRole('button', { name: 'Create report' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage this month' }).waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    const result = page.getByTestId('execution-result');
    await result.getByRole('heading', { name: /Documents and pages per month/ }).waitFor({ timeout: 60_000 });
    await result.getByRole('heading', { name: /API requests per key and day/ }).waitFor();
    await result.getByRole('heading', { name: /Webhook deliveries per day/ }).waitFor();
    const month = result.getByRole('table', { name: 'Documents and pages per month' });
    expect(await month.getByRole('row').nth(1).innerText()).toMatch(/\d{4}-\d{2}\s+2\s/);
    await screenshot(page, '36-report-usage');
    await scan('/reports/:id (usage)');
  });

  it('edits a report (fixed dates, category) and moves its schedule to the month end, then removes it', async () => {
    await go(state.reportUrl!);
    await page.getByRole('button', { name: 'Edit' }).click();
    const dlg = page.getByRole('dialog', { name: 'Edit Documents per day' });
    expect(await dlg.getByLabel('Type', { exact: true }).isDisabled()).toBe(true);
    await dlg.getByLabel('Period').selectOption('range');
    await dlg.getByLabel('From').fill('2026-11-01');
    await dlg.getByLabel('To (inclusive)').fill('2026-11-30');
    await dlg.getByLabel('Category').fill('finance');
    await dlg.getByRole('button', { name: 'Save report' }).click();
    await dlg.waitFor({ state: 'detached' });
    await page.getByText('2026-11-01 to 2026-11-30').waitFor();
    const { rows } = await s.deps.db.query<{ data_source: unknown; category: string }>(
      'SELECT data_source, category FROM reports WHERE name = $1',
      ['Documents per day'],
    );
    expect(rows[0]).toEqual({
      data_source: { period: { from: '2026-11-01', to: '2026-11-30' }, timezone: 'Europe/Berlin' },
      category: 'finance',
    });

    await page.getByRole('button', { name: 'Change' }).click();
    const form = page.getByRole('form', { name: 'Schedule' });
    await form.getByLabel('Frequency').selectOption('monthly');
    await form.getByLabel('Day of the month').fill('31');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    const summary = page.getByTestId('schedule-summary');
    await summary.getByText('Monthly on day 31 (or the last day) at 07:30 (Europe/Berlin)').waitFor();
    const next = (await s.deps.db.query<{ next_run_at: Date }>('SELECT next_run_at FROM report_schedules')).rows[0]
      .next_run_at;
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(next));
    // The last day of its month, at 07:30 Berlin time.
    const [y, m, d] = local.slice(0, 10).split('-').map(Number);
    expect(d).toBe(new Date(Date.UTC(y, m, 0)).getUTCDate());
    expect(local).toMatch(/07:30$/);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Not scheduled: it runs only when someone presses Run now.').waitFor();
    expect((await s.deps.db.query('SELECT 1 FROM report_schedules')).rows).toHaveLength(0);
    await scan('/reports/:id (edited, unscheduled)');
  });

  it('a viewer sees workflows and reports with the actions they may not take disabled, and why', async () => {
    await s.deps.services.members.add(
      { orgId: s.owner.orgId, userId: s.owner.userId, role: 'owner' },
      { email: 'viewer@example.test', role: 'viewer', password: 'viewer password 1' },
    );
    const viewer = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const p = await viewer.newPage();
    try {
      await p.goto(`${s.base}/`);
      await p.getByLabel('E-mail').fill('viewer@example.test');
      await p.getByLabel('Password').fill('viewer password 1');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('navigation', { name: 'Main' }).waitFor();
      await p.goto(`${s.base}${state.workflowUrl}`);
      await p.getByTestId('workflow-canvas').locator('[data-node-id="condition_1"]').waitFor();
      expect(await p.getByRole('button', { name: 'Deactivate' }).isDisabled()).toBe(true);
      expect(await p.getByRole('button', { name: 'Add Condition' }).isDisabled()).toBe(true);
      expect(await p.getByRole('button', { name: 'Run…', exact: true }).isDisabled()).toBe(true);
      expect(await p.getByText('Needs the member role; you are a viewer.').first().isVisible()).toBe(true);
      await p.goto(`${s.base}${state.reportUrl}`);
      await p.getByRole('heading', { level: 1, name: 'Documents per day' }).waitFor();
      expect(await p.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);
      // Reading and downloading stay open to a viewer.
      expect(await p.getByRole('button', { name: 'Download CSV' }).first().isEnabled()).toBe(true);
      await screenshot(p, '34-report-viewer');
    } finally {
      await viewer.close();
    }
  });

  it('fits a phone screen and works in dark mode', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [path, name] of [
      [state.workflowUrl!, '25-workflow-phone-dark'],
      [state.runUrl!, '26-run-phone-dark'],
      [state.reportUrl!, '27-report-phone-dark'],
      ['/workflows', ''],
      ['/reports', ''],
    ] as const) {
      await go(path);
      await page.waitForTimeout(500);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      if (name) await screenshot(page, name);
      await scan(`${path} (phone, dark)`);
    }
    await page.setViewportSize({ width: 1360, height: 900 });
    await go(state.workflowUrl!);
    await page.getByTestId('workflow-canvas').locator('[data-node-id="condition_1"]').waitFor();
    await screenshot(page, '28-workflow-dark');
    await scan('/workflows/:id (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('no page has a serious or critical accessibility violation, and no script errors', () => {
    const bad = scanned.filter((x) => x.violations.length);
    expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
    expect(scanned.length).toBeGreaterThanOrEqual(18);
    expect(problems).toEqual([]);
  });
});
