// The watched-folder loop, shared by the `watch` worker role (uploads through document intake)
// and `docpipe watch` (uploads through the API). A project folder's life cycle:
//
//   <folder>/invoice.pdf                 dropped; taken once its size and mtime stay unchanged
//   <folder>/.claim/<token>/invoice.pdf  claimed by an atomic rename: two watchers never take one file
//   <folder>/.done/invoice.pdf           uploaded (or already there: a duplicate, noted beside it)
//   <folder>/.failed/invoice.pdf         refused, with invoice.pdf.error.txt naming the reason
//
// Each watcher keeps `.claim/<token>/.alive` fresh; a claim folder whose heartbeat is older than
// `staleClaimMs` belongs to a watcher that died, and its files go back to the folder to be taken
// again (an upload that had finished is then recognised as a duplicate): nothing is lost and no
// file becomes two documents across restarts.
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { extname, join } from 'node:path';
import type { Logger } from '../../../lib/logger.js';

export type UploadResult =
  | { kind: 'created' | 'duplicate'; documentId: string }
  /** The file itself is the problem (type, size, empty, project gone): it goes to .failed. */
  | { kind: 'refused'; reason: string };

export interface FolderSource {
  /** The project folders to watch now (created if missing), with the project each one feeds. */
  folders(): Promise<{ dir: string; projectId: string }[]>;
}

export interface FolderWatcherOptions {
  source: FolderSource;
  /** Uploads one claimed file; throws for trouble worth retrying (server down): the file goes back. */
  upload(path: string, filename: string, projectId: string): Promise<UploadResult>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Size and mtime unchanged this long before a file is taken, ms. Default 2000. */
  stableMs?: number;
  /** Rescan period (the fallback when file-system events do not arrive, as on network shares), ms. Default 1000. */
  pollMs?: number;
  /** A claim folder whose heartbeat is older than this belongs to a dead watcher, ms. Default 30000. */
  staleClaimMs?: number;
  /**
   * Files uploaded at the same time. Default 1: intake's duplicate check is check-then-insert, so
   * two copies of one file uploaded at the same moment could both be stored (as with two
   * simultaneous POST /documents); one at a time keeps a watcher's own copies deduplicated.
   */
  concurrency?: number;
  /** Called after each file is settled (tests, benchmarks). */
  onSettled?(e: {
    filename: string;
    projectId: string;
    result: UploadResult | { kind: 'retry'; reason: string };
  }): void;
}

export interface FolderWatcher {
  readonly token: string;
  /** Scans now (also run on every file-system event and every pollMs). */
  scan(): Promise<void>;
  close(): Promise<void>;
}

const CLAIM = '.claim';
const ALIVE = '.alive';

/** A name not yet used in `dir`: `name`, else `stem-<time><ext>`. */
async function freeName(dir: string, name: string): Promise<string> {
  const taken = await stat(join(dir, name)).then(
    () => true,
    () => false,
  );
  if (!taken) return name;
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)}-${Date.now()}-${randomBytes(2).toString('hex')}${ext}`;
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export async function startFolderWatcher(o: FolderWatcherOptions): Promise<FolderWatcher> {
  const token = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`.replace(/[^A-Za-z0-9._-]/g, '_');
  const stableMs = o.stableMs ?? 2_000;
  const staleMs = o.staleClaimMs ?? 30_000;
  const concurrency = Math.max(1, o.concurrency ?? 1);
  /** name in folder → what it looked like and since when. */
  const seen = new Map<string, { key: string; since: number }>();
  const busy = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  const ownClaims = new Set<string>();
  let inFlight = 0;
  let closed = false;
  let scanning: Promise<void> | undefined;
  let rescan = false;
  const running = new Set<Promise<void>>();

  const heartbeat = async () => {
    const now = new Date();
    for (const dir of ownClaims) await utimes(join(dir, ALIVE), now, now).catch(() => undefined);
  };

  /** Puts the files of dead watchers' claims back into the folder. */
  const recover = async (folder: string) => {
    const claims = await readdir(join(folder, CLAIM)).catch(() => [] as string[]);
    for (const t of claims) {
      if (t === token) continue;
      const dir = join(folder, CLAIM, t);
      const alive = await stat(join(dir, ALIVE)).catch(() => null);
      if (alive && Date.now() - alive.mtimeMs < staleMs) continue;
      for (const f of await readdir(dir).catch(() => [] as string[])) {
        if (f === ALIVE) continue;
        await rename(join(dir, f), join(folder, await freeName(folder, f))).catch(() => undefined);
        o.logger.info({ folder, file: f, claim: t }, 'watch: recovered a file claimed by a stopped watcher');
      }
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  const settle = async (folder: string, claimed: string, name: string, projectId: string) => {
    let result: UploadResult;
    try {
      result = await o.upload(claimed, name, projectId);
    } catch (err) {
      // Worth another try: back into the folder, taken again on a later scan.
      o.logger.warn({ err, folder, file: name }, 'watch: upload failed; the file stays to be retried');
      await rename(claimed, join(folder, await freeName(folder, name))).catch(() => undefined);
      o.onSettled?.({ filename: name, projectId, result: { kind: 'retry', reason: (err as Error).message } });
      return;
    }
    const target = join(folder, result.kind === 'refused' ? '.failed' : '.done');
    await mkdir(target, { recursive: true });
    const final = await freeName(target, name);
    await rename(claimed, join(target, final));
    if (result.kind === 'refused') await writeFile(join(target, `${final}.error.txt`), `${result.reason}\n`);
    else if (result.kind === 'duplicate')
      await writeFile(
        join(target, `${final}.duplicate.txt`),
        `The same file is already in the project as document ${result.documentId}; nothing new was stored.\n`,
      );
    o.onSettled?.({ filename: name, projectId, result });
  };

  const take = async (folder: string, name: string, projectId: string) => {
    const claimDir = join(folder, CLAIM, token);
    if (!ownClaims.has(claimDir)) {
      await mkdir(claimDir, { recursive: true });
      await writeFile(join(claimDir, ALIVE), token);
      ownClaims.add(claimDir);
    }
    const claimed = join(claimDir, name);
    try {
      await rename(join(folder, name), claimed);
    } catch (err) {
      // Taken by another watcher, or deleted: either way not ours.
      if (isMissing(err)) return;
      throw err;
    }
    await settle(folder, claimed, name, projectId);
  };

  const ensureWatched = (dir: string) => {
    if (watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, () => kick());
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
    } catch {
      // No events here (some network file systems): the periodic scan covers it.
    }
  };

  const scanOnce = async () => {
    const folders = await o.source.folders();
    const now = Date.now();
    const present = new Set<string>();
    for (const { dir, projectId } of folders) {
      if (closed) return;
      ensureWatched(dir);
      await recover(dir);
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (!e.isFile() || e.name.startsWith('.')) continue;
        const path = join(dir, e.name);
        present.add(path);
        if (busy.has(path)) continue;
        const s = await stat(path).catch(() => null);
        if (!s) continue;
        const key = `${s.size}:${s.mtimeMs}`;
        const prev = seen.get(path);
        if (!prev || prev.key !== key) {
          seen.set(path, { key, since: now });
          if (stableMs > 0) {
            wakeAt(now + stableMs);
            continue;
          }
        } else if (now - prev.since < stableMs) {
          wakeAt(prev.since + stableMs);
          continue;
        }
        if (inFlight >= concurrency) continue;
        // Stable: take it (in the background, so one slow upload does not hold the scan).
        seen.delete(path);
        busy.add(path);
        inFlight++;
        const job = take(dir, e.name, projectId)
          .catch((err: unknown) => o.logger.warn({ err, file: path }, 'watch: could not take a file'))
          .finally(() => {
            busy.delete(path);
            inFlight--;
            running.delete(job);
            kick();
          });
        running.add(job);
      }
    }
    // Deleted (or renamed away) before they settled: forgotten.
    for (const path of seen.keys()) if (!present.has(path)) seen.delete(path);
  };

  const scan = (): Promise<void> => {
    if (scanning) {
      rescan = true;
      return scanning;
    }
    scanning = (async () => {
      do {
        rescan = false;
        try {
          await scanOnce();
        } catch (err) {
          o.logger.warn({ err }, 'watch: scan failed');
        }
      } while (rescan && !closed);
    })().finally(() => {
      scanning = undefined;
    });
    return scanning;
  };

  // A scan right when the next waiting file becomes stable, not up to a poll period later.
  let wakeTimer: NodeJS.Timeout | undefined;
  let wakeDue = Infinity;
  function wakeAt(at: number) {
    if (closed || at >= wakeDue) return;
    clearTimeout(wakeTimer);
    wakeDue = at;
    wakeTimer = setTimeout(
      () => {
        wakeDue = Infinity;
        wakeTimer = undefined;
        void scan();
      },
      Math.max(0, at - Date.now()) + 5,
    );
  }

  let kickTimer: NodeJS.Timeout | undefined;
  /** A file-system event: scan soon (events come in bursts while a file is written). */
  function kick() {
    if (closed || kickTimer) return;
    kickTimer = setTimeout(() => {
      kickTimer = undefined;
      void scan();
    }, 50);
  }

  const pollTimer = setInterval(() => void scan(), o.pollMs ?? 1_000);
  const aliveTimer = setInterval(() => void heartbeat(), Math.max(100, Math.floor(staleMs / 3)));
  await scan();

  return {
    token,
    scan,
    async close() {
      closed = true;
      clearInterval(pollTimer);
      clearInterval(aliveTimer);
      clearTimeout(kickTimer);
      clearTimeout(wakeTimer);
      for (const w of watchers.values()) w.close();
      await scanning;
      await Promise.all([...running]);
      // Our claim folders are empty now (every file settled or went back): nothing to recover.
      for (const dir of ownClaims) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
