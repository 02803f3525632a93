import { createServer, connect } from 'node:net';

/** Asks the kernel for a free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 10_000, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ port, host });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listening on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
