// `docpipe admin create-user` without --plan must give the new organization the installation's
// DEFAULT_PLAN (self_hosted unless the operator chose another), like first-run setup does: it
// used to hard-code `free`, which rate-limited the self-hosted owner it created.
import { afterEach, describe, expect, it } from 'vitest';
import { executeAdminCommand } from '../../../src/cli/admin-commands.js';
import type { Stamps } from '../../../src/modules/access/stamps.js';
import { createTestDb, dbKinds, type TestDb } from '../../helpers/db.js';

const stamps: Stamps = { read: async () => [], bump: async () => undefined, key: () => '' };

describe.each(dbKinds())('admin create-user plan (%s)', (kind) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function planOf(email: string): Promise<string> {
    const rows = await t!.db.query<{ plan: string }>(
      `SELECT o.plan FROM organizations o JOIN users u ON u.org_id = o.id WHERE u.email = $1`,
      [email],
    );
    return rows.rows[0]!.plan;
  }

  it('uses the default plan it is given when --plan is absent, and --plan when present', async () => {
    t = await createTestDb(kind);
    const base = ['create-user', '--password', 'correct horse battery'];
    const a = await executeAdminCommand({ db: t.db, stamps, defaultPlan: 'self_hosted' }, [
      ...base,
      '--email',
      'a@example.test',
      '--org',
      'A',
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(await planOf('a@example.test')).toBe('self_hosted');

    const b = await executeAdminCommand({ db: t.db, stamps, defaultPlan: 'pro' }, [
      ...base,
      '--email',
      'b@example.test',
      '--org',
      'B',
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(await planOf('b@example.test')).toBe('pro');

    const c = await executeAdminCommand({ db: t.db, stamps, defaultPlan: 'self_hosted' }, [
      ...base,
      '--email',
      'c@example.test',
      '--org',
      'C',
      '--plan',
      'free',
    ]);
    expect(c.code, c.stderr).toBe(0);
    expect(await planOf('c@example.test')).toBe('free');
  });
});
