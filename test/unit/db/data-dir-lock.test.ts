// The embedded database's exclusive lock: one process per data directory, live holders refused
// with a message naming them, locks of dead processes taken over, never someone else's removed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client.js';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../../src/db/data-dir-lock.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'docpipe-lock-'));
  dirs.push(d);
  return d;
};
const startOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
const holder = (pid: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    pid,
    host: hostname(),
    started: null,
    command: 'start',
    since: '2026-01-01T00:00:00.000Z',
    token: 'theirs',
    ...extra,
  });

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A live process that is not this one. */
async function liveChild(): Promise<number> {
  const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c.pid!;
}

describe('data directory lock', () => {
  it('refuses a second opener in the same process and frees the directory on release', async () => {
    const dir = newDir();
    const lock = await lockDataDir(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    (await lockDataDir(dir)).release();
  });

  it('refuses while another live process holds it, naming the process', async () => {
    const dir = newDir();
    const pid = await liveChild();
    writeFileSync(join(dir, LOCK_FILE), holder(pid, { started: startOf(pid) }));
    const err = await lockDataDir(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect((err as Error).message).toContain(`pid ${pid}: docpipe start`);
    // The holder's lock is untouched.
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).token).toBe('theirs');
  });

  it('takes over the lock of a killed process, of a reused pid and of its own earlier life', async () => {
    const dir = newDir();
    const c = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => c.once('exit', r));
    writeFileSync(join(dir, LOCK_FILE), holder(c.pid!));
    (await lockDataDir(dir)).release();

    const pid = await liveChild();
    writeFileSync(join(dir, LOCK_FILE), holder(pid, { started: '1' })); // same pid, another process
    (await lockDataDir(dir)).release();

    writeFileSync(join(dir, LOCK_FILE), holder(process.pid)); // a container restarted with our pid
    (await lockDataDir(dir)).release();

    writeFileSync(join(dir, LOCK_FILE), '{"pid":'); // crashed while writing, long ago
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, LOCK_FILE), old, old);
    (await lockDataDir(dir)).release();
  });

  it('refuses a holder on another host while it refreshes its lock, and takes over one a minute old', async () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), holder(1, { host: 'elsewhere' }));
    await expect(lockDataDir(dir)).rejects.toThrow(/on host elsewhere/);
    const old = new Date(Date.now() - 61_000);
    utimesSync(join(dir, LOCK_FILE), old, old);
    (await lockDataDir(dir)).release();
  });

  it('waits for a holder that lets go within waitMs', async () => {
    const dir = newDir();
    const pid = await liveChild();
    writeFileSync(join(dir, LOCK_FILE), holder(pid, { started: startOf(pid) }));
    setTimeout(() => rmSync(join(dir, LOCK_FILE)), 300);
    (await lockDataDir(dir, { waitMs: 5_000 })).release();
  });

  it('never removes a lock that is no longer its own', async () => {
    const dir = newDir();
    const lock = await lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), holder(process.pid, { token: 'someone-else' }));
    lock.release();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).token).toBe('someone-else');
  });

  it('PGlite: a second open of the same directory is refused; close frees it', async () => {
    const dir = newDir();
    const db = await createDb({ pgliteDir: dir });
    await expect(createDb({ pgliteDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
    await db.query('CREATE TABLE t (x int)');
    await db.close();
    const again = await createDb({ pgliteDir: dir });
    expect((await again.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 0 }]);
    await again.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 60_000);
});
