// Test databases: PGlite in memory (always) and a private schema on PostgreSQL when
// TEST_DATABASE_URL is set. Both get the real migrations.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/client.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type DbKind = 'pglite' | 'postgres';

let template: Promise<Blob> | undefined;

/**
 * A migrated PGlite data dir, cached on disk across test files and processes (initdb plus the
 * migrations cost ~5 s of CPU per file otherwise). Keyed by the PGlite version and the
 * migrations' text; written under a temporary name and renamed, so parallel test processes
 * never read a half-written file.
 */
async function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const hash = createHash('sha256')
      .update(pkg.version)
      .update(JSON.stringify(loadMigrations()))
      .digest('hex')
      .slice(0, 16);
    const file = join(tmpdir(), `docpipe-pglite-template-${hash}.tar`);
    try {
      return new Blob([await readFile(file)], { type: 'application/x-tar' });
    } catch {
      // not cached yet
    }
    const db = await createDb({});
    await migrate(db);
    const dump = await db.dumpDataDir?.();
    await db.close();
    if (!dump) throw new Error('PGlite dump is not available');
    const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, Buffer.from(await dump.arrayBuffer()));
    await rename(tmp, file);
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
