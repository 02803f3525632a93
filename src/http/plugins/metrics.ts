// HTTP metrics: every response is observed into one histogram by method, route pattern (never the
// raw URL, so ids do not explode the series) and status. The histogram child for each combination
// is looked up by the route's own config object, so a request allocates nothing here. With a
// METRICS_TOKEN, GET /metrics on this server answers a bearer of that token (401 otherwise).
import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';
import { errors } from '../../lib/errors.js';
import { bearerMatches, type Metrics } from '../../modules/metrics/index.js';

type Child = ReturnType<Histogram<'method' | 'route' | 'status_code'>['labels']>;

export interface HttpMetricsOptions {
  metrics: Pick<Metrics, 'httpDuration' | 'scrape' | 'contentType'>;
  /** METRICS_TOKEN: serve GET /metrics here to this bearer token. Absent: not served on this server. */
  token?: string;
}

/** The config object of unmatched requests' handler may be shared; they all count as one route. */
const UNMATCHED = {};

export function installHttpMetrics(app: FastifyInstance, o: HttpMetricsOptions): void {
  const children = new WeakMap<object, Map<string, Map<number, Child>>>();
  const childFor = (key: object, method: string, route: string, status: number): Child => {
    let byMethod = children.get(key);
    if (!byMethod) children.set(key, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = o.metrics.httpDuration.labels(method, route, String(status))));
    return child;
  };
  app.addHook('onResponse', (req, reply, done) => {
    const url = req.routeOptions.url;
    const key = url ? ((req.routeOptions.config as object | undefined) ?? UNMATCHED) : UNMATCHED;
    childFor(key, req.method, url ?? 'unmatched', reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });

  const token = o.token;
  if (!token) return;
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!bearerMatches(req.headers.authorization, token)) {
      reply.header('WWW-Authenticate', 'Bearer');
      throw errors.unauthorized('GET /metrics needs the METRICS_TOKEN bearer token');
    }
    const text = await o.metrics.scrape();
    return reply.type(o.metrics.contentType).send(text);
  });
}
