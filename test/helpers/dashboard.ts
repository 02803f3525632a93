// The dashboard in a real browser: the built app (built here when missing or older than its
// sources), served by a real service with workers, one browser for the whole file, screenshots
// kept as artifacts and an axe-core scan per page.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import type { Config } from '../../src/config.js';
import { createDeps, type CreateDepsOptions, type Deps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import { packageRoot } from '../../src/lib/package-root.js';
import type { Plan } from '../../src/lib/plans.js';
import { noJitter } from '../../src/modules/webhooks/schedule.js';
import { startWorkers } from '../../workers/index.js';
import { docsConfig, openTestDb } from './docs-app.js';
import { dovecotAvailable, startDovecot, type PrivateDovecot } from './dovecot.js';
import { startFakeGoogle, type FakeGoogle } from './fake-google.js';
import { TEST_POLLER_OPTIONS } from './mail-harness.js';
import { FAST_SHEETS } from './sheets-harness.js';

/** Screenshots of the browser tests (gitignored). */
export const ARTIFACTS = join(packageRoot(), 'test', 'artifacts', 'dashboard');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Builds dist/web unless it is newer than every source of the app. A lock folder keeps two test
 * processes from building at once (the second waits and then finds the build fresh).
 */
export function ensureDashboardBuilt(): void {
  const root = packageRoot();
  const index = join(root, 'dist', 'web', 'index.html');
  const fresh = () =>
    existsSync(index) &&
    statSync(index).mtimeMs >= Math.max(newest(join(root, 'src', 'web')), statSync(join(root, 'package.json')).mtimeMs);
  if (fresh()) return;
  const lock = join(root, 'dist', '.web-build.lock');
  mkdirSync(join(root, 'dist'), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - started > 180_000) rmSync(lock, { recursive: true, force: true });
      execFileSync('sleep', ['1']);
    }
  }
  try {
    if (!fresh()) execFileSync('npm', ['run', 'build:web', '--silent'], { cwd: root, stdio: 'inherit' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Serious and critical accessibility violations on the page as it is now (WCAG 2.1 A/AA rules). */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

export interface DashboardStack {
  base: string;
  deps: Deps;
  config: Config;
  google: FakeGoogle;
  /** Null where Dovecot is not installed (the mailbox flow then skips with a message). */
  dovecot: PrivateDovecot | null;
  owner: { email: string; password: string; orgId: string; userId: string };
  close(): Promise<void>;
}

/**
 * One real service for the browser tests: database, Redis, every worker role (pipeline, export,
 * mail, webhooks) with test timings, the fake Google API and a private Dovecot, listening on
 * 127.0.0.1. The owner of a new organization signs in; its plan is `free` (30 requests a minute)
 * unless the test asks for another.
 */
export async function startDashboardStack(
  opts: {
    /** More configuration (SMTP_PORT and INBOUND_DOMAIN for the receiver, WATCH_DIR, …). */
    env?: Record<string, string>;
    /** The SMTP receiver's DNS (SPF/DKIM/DMARC look-ups) instead of the network. */
    inbound?: CreateDepsOptions['inbound'];
    /** The organization's plan; `self_hosted` (what first-run setup gives) has no per-minute cap. */
    plan?: Plan;
  } = {},
): Promise<DashboardStack> {
  ensureDashboardBuilt();
  const google = await startFakeGoogle();
  const dovecot = dovecotAvailable() ? await startDovecot({ users: [{ user: 'inbox', pass: 'pw-inbox' }] }) : null;
  const config = await docsConfig({
    MAIL_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_DELAYS: '0.2,0.2',
    GOOGLE_API_ROOT_URL: google.rootUrl,
    GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
    ...opts.env,
  });
  const testDb = await openTestDb('pglite');
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
    mail: { poller: TEST_POLLER_OPTIONS },
    sheets: FAST_SHEETS,
    events: { relayIntervalMs: 200 },
    webhooks: { jitter: noJitter, sweepIntervalMs: 200 },
    ...(opts.inbound ? { inbound: opts.inbound } : {}),
  });
  const app = await buildApp(appDepsFrom(deps));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  // Every role, as `docpipe start` runs them.
  const workers = await startWorkers(deps, {
    concurrency: 2,
    schedulers: false,
    mail: TEST_POLLER_OPTIONS,
    webhooks: { concurrency: 10 },
  });
  const email = `owner-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  const { user, orgId } = await deps.services.orgs.createUser({
    email,
    password,
    orgName: 'Acme Dashboard Ltd',
    role: 'owner',
    plan: opts.plan ?? 'free',
  });
  return {
    // localhost, not 127.0.0.1: the name people type (both count as secure for cookies in Chromium).
    base: `http://localhost:${typeof addr === 'object' && addr ? addr.port : 0}`,
    deps,
    config,
    google,
    dovecot,
    owner: { email, password, orgId, userId: user.id },
    async close() {
      await workers.close(3_000);
      await app.close();
      await deps.close();
      await testDb.close();
      await google.close();
      await dovecot?.stop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
