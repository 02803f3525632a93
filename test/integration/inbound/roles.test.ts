// The smtp and watch worker roles: off in the default set unless configured, and asked for by
// name without their configuration they refuse to start, naming what is missing.
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../../workers/index.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

describe('smtp and watch worker roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('named without SMTP_PORT / WATCH_DIR they refuse to start', async () => {
    expect(t.deps.inbound.enabled).toBe(false);
    expect(t.deps.watch.enabled).toBe(false);
    await expect(startWorkers(t.deps, { queues: ['smtp'], concurrency: 1 })).rejects.toThrow(
      /SMTP_PORT and INBOUND_DOMAIN/,
    );
    await expect(startWorkers(t.deps, { queues: ['watch'], concurrency: 1 })).rejects.toThrow(/WATCH_DIR/);
  });

  it('the watch role started through the worker table makes a folder per active project', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-watch-role-'));
    const p = await t.deps.services.projects.create(
      {
        orgId: (
          await t.deps.services.orgs.createUser({
            email: 'r@example.test',
            password: 'correct horse battery',
            orgName: 'R',
            role: 'owner',
            plan: 'free',
          })
        ).orgId,
        environment: 'live',
      },
      { name: 'Role' },
    );
    const h = await startWorkers(t.deps, { queues: ['watch'], concurrency: 1, watch: { dir, pollMs: 100 } });
    try {
      expect(await readdir(dir)).toContain(p.id);
    } finally {
      await h.close();
    }
  });
});
