// A cache of expensive test fixtures (a migrated database, …) shared by every test process and
// every checkout on the machine. Entries are named by a hash of what they are built from, so two
// checkouts with different migrations each get their own entry and never replace the other's.
// An entry is built under a temporary name and renamed into place: a reader sees all of it or
// nothing. Entries are only removed after a day without use, so one a test in another checkout
// is copying right now is never pulled away from under it.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_CACHE_DIR = join(tmpdir(), 'docpipe-test-cache');

/** Entries (and abandoned builds) untouched this long are removed. */
const UNUSED_MS = 24 * 60 * 60_000;

/** A short hash of the given parts, for entry names. */
export function contentKey(parts: Iterable<string | Buffer>): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of cache entry `name` (a file or a folder), built by `build(path)` when missing. Each
 * use marks the entry as used, which keeps it from being pruned.
 */
export async function cacheEntry(
  name: string,
  build: (path: string) => Promise<void>,
  cacheDir = TEST_CACHE_DIR,
): Promise<string> {
  const path = join(cacheDir, name);
  if (touch(path)) return path;
  mkdirSync(cacheDir, { recursive: true });
  const building = join(cacheDir, `.building-${name}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await build(building);
    renameSync(building, path);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    // Another process finished the same entry first (a folder cannot be renamed onto it): theirs is as good.
    if (!existsSync(path)) throw err;
  }
  prune(cacheDir);
  return path;
}

function touch(path: string): boolean {
  try {
    const now = new Date();
    utimesSync(path, now, now);
    return true;
  } catch {
    return false;
  }
}

function prune(cacheDir: string): void {
  const cutoff = Date.now() - UNUSED_MS;
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    try {
      if (statSync(path).mtimeMs >= cutoff) continue;
      // Moved aside first: a process that looks for the entry now builds a new one instead of
      // copying a half-removed folder.
      const doomed = join(cacheDir, `.removing-${randomBytes(6).toString('hex')}`);
      renameSync(path, doomed);
      rmSync(doomed, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
