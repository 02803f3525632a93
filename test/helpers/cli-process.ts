// A `docpipe` server process (api, worker, start) started the way an operator starts one, for
// multi-process tests and benchmarks: from TypeScript through run-ts.mjs and the project loader (tests; no
// build needed) or from the compiled CLI in dist/ (benchmarks). Readiness is an answering HTTP
// port: the API's /api/v1/health, or a worker's METRICS_PORT listener (opened once its workers run).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUN_TS = fileURLToPath(new URL('./run-ts.mjs', import.meta.url));
const CLI_MAIN_TS = fileURLToPath(new URL('../integration/cli/fixtures/cli-main.ts', import.meta.url));

export interface CliProcess {
  name: string;
  child: ChildProcess;
  readonly pid: number;
  /** Resolves once `url` answers 2xx (rejects if the process exits first or after `timeoutMs`). */
  ready(url: string, init?: RequestInit, timeoutMs?: number): Promise<void>;
  /** SIGKILL, resolving once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (the graceful shutdown), SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  gone(): boolean;
  /** The last 20 kB of its log and stderr. */
  stderr(): string;
}

export interface StartCliOptions {
  name: string;
  env: Record<string, string>;
  /** `ts`: src/ through run-ts.mjs; `dist`: the compiled dist/src/cli.js (built by `npm run build`). */
  from: 'ts' | 'dist';
  /** Where `dist` lives (the package root). */
  root?: string;
}

export function startCli(argv: string[], o: StartCliOptions): CliProcess {
  const child =
    o.from === 'ts'
      ? fork(RUN_TS, [CLI_MAIN_TS, JSON.stringify({ argv })], {
          env: o.env,
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        })
      : spawn(
          process.execPath,
          [fileURLToPath(new URL('dist/src/cli.js', `file://${o.root ?? process.cwd()}/`)), ...argv],
          { env: o.env, stdio: ['ignore', 'pipe', 'pipe'] },
        );
  // The log (stdout) and stderr, last 20 kB, for failure messages.
  let err = '';
  const keep = (c: Buffer) => {
    err = (err + c.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name: o.name,
    child,
    pid: child.pid ?? -1,
    gone,
    stderr: () => err,
    async ready(url, init, timeoutMs = 300_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (gone())
          throw new Error(`${o.name} exited (${child.exitCode ?? child.signalCode}) before it was ready: ${err}`);
        const ok = await fetch(url, init).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`${o.name} not ready after ${timeoutMs} ms: ${err}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 15_000) {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** DATABASE_URL for a process that must use one schema of the database (tests isolate themselves per schema). */
export function databaseUrlWithSchema(url: string, schema: string): string {
  const sep = url.includes('?') ? '&' : '?';
  return `${url}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}
