import { randomBytes } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import { link, readdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { KeysInUse, SweepResult } from './blob-store.js';

/**
 * Conditional removal and the orphan sweep of the file blob store.
 *
 * In-flight intakes protect their file with a hold: a second hard link in the temporary folder,
 * so the file's link count is above one from the moment it is in place until the row referring
 * to it is committed (or the intake gives up). A removal therefore needs both "no row refers to
 * it" and "link count is one", and checks them again after moving the file aside: whatever
 * happened in between (an upload of the same bytes linking a hold, a row committed and its
 * release putting the file back) shows up in that second check, and the file is put back.
 */
export interface GcContext {
  root: string;
  tmpDir: string;
  pathOf(key: string): string;
  withDirs<T>(dirs: string[], fn: () => T | Promise<T>): Promise<T>;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Removes one link to a file (a temporary name or a hold: the data stays with its other name);
 * one already gone is fine. One synchronous unlink: `fs.promises.rm` with `force` stats the path
 * twice and unlinks, three thread-pool round trips, each costing the event loop more than the
 * unlink itself (about 0.4 ms per upload in the pipeline bench's profile).
 */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if (code(err) !== 'ENOENT') throw err;
  }
}

/**
 * As {@link removeFile} for a file's last link: freeing a large file's data (or any unlink on a
 * network file system) can take a while, so it happens off the event loop, in one round trip.
 */
export async function removeLastLink(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (err) {
    if (code(err) !== 'ENOENT') throw err;
  }
}
const isKey = (s: string) => /^[0-9a-f]{64}$/.test(s);

async function linkIgnoringExisting(ctx: GcContext, from: string, to: string): Promise<void> {
  try {
    await ctx.withDirs([dirname(to)], () => link(from, to));
  } catch (err) {
    // Someone placed the same bytes there meanwhile: as good as ours.
    if (code(err) !== 'EEXIST') throw err;
  }
}

export async function removeIfUnused(ctx: GcContext, key: string, inUse: KeysInUse): Promise<boolean> {
  const dest = ctx.pathOf(key);
  const used = async () => (await inUse([key])).has(key);
  if (await used()) return false;
  try {
    if ((await stat(dest)).nlink > 1) return false;
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw err;
  }
  // The name says which key it was, so a sweep can put it back if this process dies midway.
  const trash = join(ctx.tmpDir, `trash-${key}-${Date.now()}-${randomBytes(4).toString('hex')}`);
  try {
    await ctx.withDirs([ctx.tmpDir], () => rename(dest, trash));
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw err;
  }
  let keep = true;
  try {
    keep = (await stat(trash)).nlink > 1 || (await used());
  } finally {
    if (keep) {
      await linkIgnoringExisting(ctx, trash, dest);
      removeFile(trash);
    }
  }
  if (keep) return false;
  await removeLastLink(trash);
  return true;
}

/** Puts a held file back in place if a racing removal took it, then drops the hold. */
export async function releaseHold(ctx: GcContext, key: string, hold: string): Promise<void> {
  if (!existsSync(ctx.pathOf(key))) await linkIgnoringExisting(ctx, hold, ctx.pathOf(key));
  removeFile(hold);
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (code(err) === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Ages are taken from the change time: making or dropping a hold changes it, so a file that an
 * intake touched recently is young even when its bytes were first stored long ago.
 */
export async function sweepFiles(
  ctx: GcContext,
  opts: { olderThanMs: number; inUse: KeysInUse; batch?: number },
): Promise<SweepResult> {
  const cutoff = Date.now() - opts.olderThanMs;
  const result: SweepResult = { removed: 0, temporary: 0 };

  for (const name of await listDir(ctx.tmpDir)) {
    const p = join(ctx.tmpDir, name);
    let ctime: number;
    try {
      ctime = (await stat(p)).ctimeMs;
    } catch {
      continue;
    }
    if (ctime > cutoff) continue;
    const trashed = /^trash-([0-9a-f]{64})-/.exec(name);
    if (trashed && (await opts.inUse([trashed[1]])).has(trashed[1]))
      await linkIgnoringExisting(ctx, p, ctx.pathOf(trashed[1]));
    await removeLastLink(p);
    result.temporary++;
  }

  let candidates: string[] = [];
  const flush = async () => {
    const used = candidates.length ? await opts.inUse(candidates) : new Set<string>();
    for (const key of candidates) {
      if (!used.has(key) && (await removeIfUnused(ctx, key, opts.inUse))) result.removed++;
    }
    candidates = [];
  };
  for (const a of await listDir(ctx.root)) {
    if (!/^[0-9a-f]{2}$/.test(a)) continue;
    for (const b of await listDir(join(ctx.root, a))) {
      if (!/^[0-9a-f]{2}$/.test(b)) continue;
      for (const key of await listDir(join(ctx.root, a, b))) {
        if (!isKey(key)) continue;
        try {
          const st = await stat(join(ctx.root, a, b, key));
          if (st.nlink > 1 || st.ctimeMs > cutoff) continue;
        } catch {
          continue;
        }
        candidates.push(key);
        if (candidates.length >= (opts.batch ?? 500)) await flush();
      }
    }
  }
  await flush();
  return result;
}
