// Exclusive use of an embedded (PGlite) data directory. PGlite is one process's database: a
// second process opening the same directory works on its own copy in memory, and whichever closes
// last overwrites the other's writes. So the first opener writes a lock file (pid, host, process
// start time, a random token) with O_EXCL, and everyone else is refused while that process lives.
// A lock left by a killed process is taken over: its pid is gone, or now belongs to a process
// that started at a different time (pid reuse), or is our own pid from an earlier life (a
// container restarted as pid 1). A holder on another host (a recreated container has a new
// host name; a shared volume) cannot be checked by pid, so holders refresh the file's time
// every 10 s and such a lock is taken over once it has not been refreshed for a minute.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'docpipe.lock';

/** What the lock file says about the process holding the directory. */
export interface LockHolder {
  pid: number;
  host: string;
  /** Process start time in clock ticks since boot (Linux /proc), to detect pid reuse. */
  started: string | null;
  /** The command line of the holder, e.g. `start`. */
  command: string;
  /** When it took the lock (ISO). */
  since: string;
  token: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly lockFile: string,
    readonly holder: LockHolder | null,
    readonly sameProcess = false,
  ) {
    super(
      sameProcess
        ? `The embedded database in ${dir} is already open in this process.`
        : `The embedded database in ${dir} is in use by another process${describeHolder(holder)}. ` +
            'An embedded database can only be open in one process at a time (a second one would lose writes).',
    );
    this.name = 'DataDirLockedError';
  }
}

function describeHolder(h: LockHolder | null): string {
  if (!h) return '';
  const cmd = h.command ? `docpipe ${h.command}, ` : '';
  const host =
    h.host === hostname() ? '' : ` on host ${h.host}, refreshed within the last ${OTHER_HOST_STALE_MS / 1000} s`;
  return ` (pid ${h.pid}${host}: ${cmd}since ${h.since})`;
}

/** How often a holder refreshes its lock file's time. */
const HEARTBEAT_MS = 10_000;
/** A lock from another host not refreshed for this long belongs to a process that is gone. */
const OTHER_HOST_STALE_MS = 60_000;

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** Directories this process holds, by real path, with their release functions. */
const held = new Map<string, () => void>();
let exitHookInstalled = false;

function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readHolder(file: string): { raw: string; holder: LockHolder | null } | null {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const h = JSON.parse(raw) as LockHolder;
    return { raw, holder: Number.isInteger(h.pid) && h.pid > 0 && typeof h.host === 'string' ? h : null };
  } catch {
    return { raw, holder: null };
  }
}

/** True when the holder may still be running (in doubt — another host — it is). */
function holderAlive(h: LockHolder, key: string, file: string): boolean {
  if (h.host !== hostname()) return ageMs(file) < OTHER_HOST_STALE_MS;
  if (h.pid === process.pid) return held.has(key);
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = processStart(h.pid);
  return !(h.started && started && started !== h.started);
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lock file that is unreadable this long after its creation was left by a crash mid-write. */
const HALF_WRITTEN_MS = 5_000;

/**
 * Removes a stale lock file under a short takeover lock, so that two processes finding the same
 * stale file cannot both remove it (the second would delete the first one's fresh lock).
 */
async function removeStale(file: string, staleRaw: string): Promise<void> {
  const takeover = `${file}.takeover`;
  for (;;) {
    try {
      closeSync(openSync(takeover, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (ageMs(takeover) > HALF_WRITTEN_MS) {
        try {
          unlinkSync(takeover);
        } catch {
          /* someone else cleared it */
        }
      } else await sleep(20);
    }
  }
  try {
    const now = readHolder(file);
    if (now && now.raw === staleRaw) unlinkSync(file);
  } finally {
    try {
      unlinkSync(takeover);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Takes the directory (creating it if needed) or throws {@link DataDirLockedError}. With
 * `waitMs`, a live holder is waited for that long (a short admin command finishing).
 */
export async function lockDataDir(dir: string, opts: { waitMs?: number; command?: string } = {}): Promise<DataDirLock> {
  mkdirSync(dir, { recursive: true });
  const key = realpathSync(dir);
  const file = join(dir, LOCK_FILE);
  if (held.has(key)) throw new DataDirLockedError(dir, file, null, true);
  const deadline = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    const me: LockHolder = {
      pid: process.pid,
      host: hostname(),
      started: processStart(process.pid),
      command: opts.command ?? process.argv.slice(2).join(' '),
      since: new Date().toISOString(),
      token: randomBytes(12).toString('hex'),
    };
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return register(key, file, me.token);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const found = readHolder(file);
    if (!found) continue; // released meanwhile
    const { raw, holder } = found;
    const stale = holder ? !holderAlive(holder, key, file) : ageMs(file) > HALF_WRITTEN_MS;
    if (stale) {
      await removeStale(file, raw);
      continue;
    }
    if (Date.now() >= deadline) throw new DataDirLockedError(dir, file, holder);
    await sleep(100);
  }
}

function register(key: string, file: string, token: string): DataDirLock {
  let released = false;
  const heartbeat = setInterval(() => {
    try {
      const t = new Date();
      utimesSync(file, t, t);
    } catch {
      // Gone (the directory was removed); release() finds nothing either.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const release = (): void => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    held.delete(key);
    try {
      const now = readHolder(file);
      if (now?.holder?.token === token) unlinkSync(file);
    } catch {
      // The directory was removed with the lock in it: nothing to release.
    }
  };
  held.set(key, release);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A process that exits without closing its database (a second SIGTERM, process.exit in a
    // command) still frees the directory; a SIGKILL leaves a lock the next opener takes over.
    process.on('exit', () => {
      for (const r of [...held.values()]) r();
    });
  }
  return { file, release };
}
