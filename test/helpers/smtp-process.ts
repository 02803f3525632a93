// An SMTP receiver in its own OS process, for the crash test: it joins the test's PostgreSQL
// schema and Redis prefix, reports its port, and with `holdAfterData` stops at the moment a
// message is in hand but nothing is written yet (and says so), so the parent can SIGKILL it
// exactly between DATA and the commit. The child side is `run()`.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/container.js';
import { createDb } from '../../src/db/client.js';
import { createLogger } from '../../src/lib/logger.js';

export interface SmtpProcessOptions {
  env: Record<string, string>;
  db: { url: string; schema: string };
  redisUrl: string;
  holdAfterData: boolean;
}

type Message = { type: 'ready'; port: number } | { type: 'received' };

export async function run(o: SmtpProcessOptions): Promise<void> {
  const config = loadConfig(o.env, { persistSecrets: false });
  const db = await createDb({ url: o.db.url, schema: o.db.schema, poolSize: 3 });
  const deps = await createDeps(config, {
    db,
    redisUrl: o.redisUrl,
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
  });
  const receiver = await deps.inbound.startReceiver({
    port: 0,
    onReceived: o.holdAfterData
      ? () => {
          process.send?.({ type: 'received' } satisfies Message);
          // Never returns: the parent kills the process here.
          return new Promise<void>(() => undefined);
        }
      : undefined,
  });
  process.send?.({ type: 'ready', port: receiver.port } satisfies Message);
}

const ENTRY = fileURLToPath(new URL('./run-ts.mjs', import.meta.url));
const MODULE = fileURLToPath(new URL('./smtp-process.ts', import.meta.url));

export interface SmtpProcess {
  child: ChildProcess;
  port: number;
  /** Resolves when the child has a message in hand (holdAfterData). */
  received: Promise<void>;
  kill(): Promise<void>;
}

export async function forkSmtpProcess(o: SmtpProcessOptions): Promise<SmtpProcess> {
  const child = fork(ENTRY, [MODULE, JSON.stringify(o)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-10_000)));
  let onReceived!: () => void;
  const received = new Promise<void>((r) => (onReceived = r));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`smtp process did not start: ${err}`)), 60_000);
    child.on('message', (m: Message) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m.port);
      } else if (m.type === 'received') onReceived();
    });
    child.once('exit', (code) => reject(new Error(`smtp process exited (${code}): ${err}`)));
  });
  return {
    child,
    port,
    received,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
