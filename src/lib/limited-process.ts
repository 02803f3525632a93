import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** How to start a memory-limited Node process. */
export interface LimitedProcessOptions {
  /** The module to run (a sibling of this file; `.ts` when running from sources). */
  entry: URL;
  args: string[];
  /** V8 heap limit (`--max-old-space-size`). */
  maxHeapMb: number;
  /**
   * Hard limit on the process's writable memory (RLIMIT_DATA): V8's heap, ArrayBuffers, wasm
   * memories, malloc. An allocation past it fails instead of growing the machine's memory.
   */
  maxMemoryMb: number;
}

/** A started process and what can be learned about it from outside. */
export interface LimitedProcess {
  child: ChildProcess;
  /**
   * Resident memory and writable memory (what RLIMIT_DATA counts, reservations included) in
   * MB from /proc, or null where the platform does not tell.
   */
  memory(): { rssMb: number; dataMb: number } | null;
  /** Whether RLIMIT_DATA was set (the process was started through the shell). */
  dataLimited: boolean;
  /** The last few KB the process wrote to stderr (V8 prints its out-of-memory reason there). */
  stderrTail(): string;
}

const STDERR_KEEP = 4096;
const SHELL = '/bin/sh';

// When the caller runs from TypeScript sources (the test suite), the child must too.
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * Starts `node entry args…` with a heap limit and, on Unix with /bin/sh, RLIMIT_DATA set to
 * `maxMemoryMb` by the shell's `ulimit -d` before it execs Node (Node has no setrlimit).
 * V8 reserves address space without write access, so RLIMIT_DATA counts what is actually
 * committed, unlike RLIMIT_AS. Core dumps are off: a process killed at its limit is expected.
 */
export function spawnLimited(o: LimitedProcessOptions): LimitedProcess {
  const loader = FROM_SOURCE ? ['--import', new URL('../../scripts/ts-loader.mjs', import.meta.url).href] : [];
  const nodeArgs = [
    `--max-old-space-size=${Math.max(16, Math.floor(o.maxHeapMb))}`,
    ...loader,
    fileURLToPath(o.entry),
    ...o.args,
  ];
  // NODE_OPTIONS could carry the caller's own heap size or loaders; the child sets its own.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  // pdf.js's canvas binding allocates with mimalloc, which by default reserves a 1 GiB arena
  // readable and writable up front: that reservation alone would count against RLIMIT_DATA.
  // Reserving in 16 MiB steps keeps the limit about memory actually used.
  env.MIMALLOC_ARENA_RESERVE ??= '16MiB';
  // glibc gives each thread that allocates its own malloc arena (up to 8 per core) and rarely
  // returns their free pages: two arenas cost nothing measurable here and keep RSS down.
  env.MALLOC_ARENA_MAX ??= '2';
  const options = {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
    serialization: 'advanced' as const,
    env,
  };
  const dataLimited = process.platform !== 'win32' && existsSync(SHELL);
  const child = dataLimited
    ? spawn(
        SHELL,
        [
          '-c',
          'ulimit -d "$1" 2>/dev/null; ulimit -c 0 2>/dev/null; shift; exec "$@"',
          'sh',
          String(Math.floor(o.maxMemoryMb * 1024)),
          process.execPath,
          ...nodeArgs,
        ],
        options,
      )
    : spawn(process.execPath, nodeArgs, options);
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    tail = (tail + s).slice(-STDERR_KEEP);
  });
  const statusFile = `/proc/${child.pid}/status`;
  return {
    child,
    memory() {
      try {
        const status = readFileSync(statusFile, 'utf8');
        const rss = /VmRSS:\s+(\d+) kB/.exec(status);
        const data = /VmData:\s+(\d+) kB/.exec(status);
        return rss && data ? { rssMb: Number(rss[1]) / 1024, dataMb: Number(data[1]) / 1024 } : null;
      } catch {
        return null;
      }
    },
    dataLimited,
    stderrTail: () => tail,
  };
}

/** Whether a dead process's last words say it ran out of memory. */
export function diedOfMemory(stderrTail: string): boolean {
  return /out of memory|heap limit|allocation failed|Cannot allocate/i.test(stderrTail);
}
