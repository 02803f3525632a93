import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 4_711_0001;

export interface Migration {
  id: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}-.*\.sql$/.test(f))
    .sort()
    .map((f) => ({ id: f.replace(/\.sql$/, ''), sql: readFileSync(`${dir}/${f}`, 'utf8') }));
}

/**
 * Applies pending migrations in order, each in its own transaction. On PostgreSQL an advisory
 * lock makes concurrent `docpipe migrate` / start-ups wait for each other instead of racing.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  return db.tx(async (q) => {
    if (db.kind === 'postgres') await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await q.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await q.query(m.sql);
      await q.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
