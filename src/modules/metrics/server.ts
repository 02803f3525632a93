// The separate metrics listener (METRICS_PORT): GET /metrics and nothing else, so a worker
// process, which serves no HTTP otherwise, can be scraped, and an API process's metrics can be
// kept off the public port. With METRICS_TOKEN set the token is required here too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../lib/logger.js';
import { bearerMatches } from './access.js';
import type { Metrics } from './registry.js';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(o: {
  metrics: Pick<Metrics, 'scrape' | 'contentType'>;
  port: number;
  host: string;
  token?: string;
  logger: Logger;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (o.token && !bearerMatches(req.headers.authorization, o.token)) {
      res
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('metrics need the METRICS_TOKEN bearer token\n');
      return;
    }
    o.metrics.scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': o.metrics.contentType }).end(text);
      },
      (err: unknown) => {
        o.logger.warn({ err }, 'could not collect metrics');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('could not collect metrics\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const port = (server.address() as AddressInfo).port;
  o.logger.info(`metrics on http://${o.host}:${port}/metrics`);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
