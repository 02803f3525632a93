// A local admin socket: a process that holds the embedded database serves `docpipe admin …`
// over a Unix socket in DATA_DIR/run (directory 0700, socket 0600 — only the account running the
// server can use it), so the CLI's commands take effect in the server instead of in a second
// copy of the database. One JSON line in (the command's arguments), one JSON line out (exit
// code and output); nothing is logged, since the arguments may carry a password.
import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import type { Logger } from '../lib/logger.js';
import type { AdminResult } from './admin-commands.js';

/** Longest Unix socket path the kernel accepts (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 103;
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_RESPONSE_BYTES = 1024 * 1024;

export function adminSocketPath(dataDir: string): string {
  return join(resolve(dataDir), 'run', 'admin.sock');
}

export interface AdminSocket {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Serves admin commands on `path` until closed. Resolves undefined (with a warning) where a
 * socket cannot be made — the CLI then refuses with a message instead of writing beside us.
 */
export async function serveAdminSocket(
  path: string,
  handle: (args: string[]) => Promise<AdminResult>,
  logger: Logger,
): Promise<AdminSocket | undefined> {
  if (process.platform === 'win32' || Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    logger.warn(
      { path },
      'no admin socket (unsupported platform or DATA_DIR path too long): `docpipe admin` will refuse while this process runs',
    );
    return undefined;
  }
  const dir = join(path, '..');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    // We hold the database lock, so a socket file here is a leftover of a killed server.
    try {
      unlinkSync(path);
    } catch {
      /* none */
    }
  } catch (err) {
    logger.warn(
      { err, path },
      'could not prepare the admin socket directory: `docpipe admin` will refuse while this process runs',
    );
    return undefined;
  }
  const server: Server = createServer((sock) => {
    let buf = '';
    let done = false;
    sock.setEncoding('utf8');
    sock.setTimeout(30_000, () => sock.destroy());
    sock.on('error', () => undefined);
    sock.on('data', (chunk: string) => {
      if (done) return;
      buf += chunk;
      if (buf.length > MAX_REQUEST_BYTES) {
        done = true;
        sock.end(`${JSON.stringify({ code: 2, stdout: '', stderr: 'request too large' } satisfies AdminResult)}\n`);
        return;
      }
      const nl = buf.indexOf('\n');
      if (nl === -1) return;
      done = true;
      void (async () => {
        let result: AdminResult;
        try {
          const req = JSON.parse(buf.slice(0, nl)) as { args?: unknown };
          if (!Array.isArray(req.args) || !req.args.every((a) => typeof a === 'string'))
            throw new SyntaxError('args must be a list of strings');
          result = await handle(req.args as string[]);
        } catch (err) {
          if (!(err instanceof SyntaxError)) logger.error({ err }, 'admin command failed');
          result = {
            code: 1,
            stdout: '',
            stderr: err instanceof SyntaxError ? `bad request: ${err.message}` : `failed: ${(err as Error).message}`,
          };
        }
        sock.end(`${JSON.stringify(result)}\n`);
      })();
    });
  });
  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(path, () => {
        server.off('error', fail);
        ok();
      });
    });
    chmodSync(path, 0o600);
  } catch (err) {
    server.close();
    logger.warn({ err, path }, 'could not open the admin socket: `docpipe admin` will refuse while this process runs');
    return undefined;
  }
  return {
    path,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      try {
        unlinkSync(path);
      } catch {
        /* already gone */
      }
    },
  };
}

/** Thrown when no server answers on the socket (nothing was sent, so nothing was done). */
export class AdminSocketUnavailableError extends Error {
  override readonly name = 'AdminSocketUnavailableError';
}

/**
 * Sends one admin command to the server on `path`. Throws AdminSocketUnavailableError when no
 * server listens; any other error means the command may or may not have run.
 */
export function callAdminSocket(path: string, args: readonly string[], timeoutMs = 60_000): Promise<AdminResult> {
  return new Promise((resolveResult, reject) => {
    let connected = false;
    let buf = '';
    const sock = createConnection(path);
    sock.setEncoding('utf8');
    sock.setTimeout(timeoutMs, () => sock.destroy(new Error(`the server did not answer within ${timeoutMs / 1000} s`)));
    sock.on('connect', () => {
      connected = true;
      sock.write(`${JSON.stringify({ args })}\n`);
    });
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_RESPONSE_BYTES) sock.destroy(new Error('answer too large'));
    });
    sock.on('error', (err: NodeJS.ErrnoException) => {
      reject(connected ? err : new AdminSocketUnavailableError(`${err.code ?? 'error'}: ${err.message}`));
    });
    sock.on('close', () => {
      const line = buf.split('\n')[0];
      if (!line)
        return reject(
          connected
            ? new Error('the server closed the connection without an answer')
            : new AdminSocketUnavailableError('closed'),
        );
      try {
        resolveResult(JSON.parse(line) as AdminResult);
      } catch {
        reject(new Error('the server sent an unreadable answer'));
      }
    });
  });
}
