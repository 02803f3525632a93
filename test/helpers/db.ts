// Test databases: PGlite in memory (always) and a private schema on PostgreSQL when
// TEST_DATABASE_URL is set. Both get the real migrations.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

export type DbKind = 'pglite' | 'postgres';

let template: Promise<Blob> | undefined;

/** A migrated PGlite data dir, made once per test process; loading it is ~5x faster than initdb. */
async function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const db = await createDb({});
    await migrate(db);
    const dump = await db.dumpDataDir?.();
    await db.close();
    if (!dump) throw new Error('PGlite dump is not available');
    return dump;
  })();
  return template;
}

export interface TestDb {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

export function databaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

/** Which database kinds this run covers: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function dbKinds(): DbKind[] {
  return databaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

export async function createTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = await createDb({ pgliteLoad: await pgliteTemplate() });
    return { db, kind, close: () => db.close() };
  }
  const url = databaseUrl();
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await createDb({ url, schema, poolSize: 5 });
  await migrate(db);
  return {
    db,
    kind,
    async close() {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
