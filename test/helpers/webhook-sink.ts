// A webhook receiver for tests: listens on 127.0.0.1 port 0, records every request with its raw
// body, and answers however the test says at that moment (status, delay, redirect, body).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SinkRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw body exactly as received (UTF-8), for signature checks. */
  body: string;
  receivedAt: number;
  /** Client port of the connection; equal ports mean a reused keep-alive connection. */
  remotePort: number;
}

export interface WebhookSink {
  url: string;
  port: number;
  /** Status for following requests; a function decides per request. Default 200. */
  setStatus(code: number | ((req: SinkRequest) => number)): void;
  /** Delay before the response headers are sent, ms. Default 0. */
  setDelay(ms: number): void;
  /** Answer with a redirect (`status`, default 308) to `location`; `null` turns it off. */
  setRedirect(location: string | null, status?: number): void;
  /** Response body for following requests. Default `ok`. */
  setResponseBody(body: string | Buffer): void;
  /** Extra response headers for following requests (e.g. Retry-After). */
  setResponseHeaders(headers: Record<string, string>): void;
  requests: SinkRequest[];
  /** TCP connections accepted so far (a refused destination must leave this untouched). */
  connectionCount(): number;
  /** TCP connections open right now. */
  openConnections(): number;
  /** Resolves once at least `n` requests arrived; rejects after `timeoutMs` (default 5000). */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookSink(): Promise<WebhookSink> {
  let status: number | ((req: SinkRequest) => number) = 200;
  let delayMs = 0;
  let redirect: { location: string; status: number } | null = null;
  let responseBody: string | Buffer = 'ok';
  let extraHeaders: Record<string, string> = {};
  const requests: SinkRequest[] = [];
  const waiters = new Set<() => void>();
  const pendingTimers = new Set<{ timer: NodeJS.Timeout; res: ServerResponse }>();

  const respond = (res: ServerResponse, rec: SinkRequest): void => {
    if (res.destroyed) return;
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', ...extraHeaders };
    if (redirect) {
      res.writeHead(redirect.status, { ...headers, location: redirect.location });
    } else {
      res.writeHead(typeof status === 'function' ? status(rec) : status, headers);
    }
    res.end(responseBody);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: SinkRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        remotePort: req.socket.remotePort ?? 0,
      };
      requests.push(rec);
      for (const w of [...waiters]) w();
      if (delayMs <= 0) return respond(res, rec);
      const entry = {
        res,
        timer: setTimeout(() => {
          pendingTimers.delete(entry);
          respond(res, rec);
        }, delayMs),
      };
      pendingTimers.add(entry);
    });
  });

  let connections = 0;
  let open = 0;
  server.on('connection', (socket) => {
    connections++;
    open++;
    socket.once('close', () => {
      open--;
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    connectionCount: () => connections,
    openConnections: () => open,
    setStatus: (code) => {
      status = code;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    setRedirect: (location, code = 308) => {
      redirect = location === null ? null : { location, status: code };
    },
    setResponseBody: (body) => {
      responseBody = body;
    },
    setResponseHeaders: (headers) => {
      extraHeaders = { ...headers };
    },
    waitFor(n, timeoutMs = 5000) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (requests.length < n) return;
          waiters.delete(check);
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`webhook sink: expected ${n} requests within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async close() {
      for (const p of pendingTimers) {
        clearTimeout(p.timer);
        p.res.destroy();
      }
      pendingTimers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
