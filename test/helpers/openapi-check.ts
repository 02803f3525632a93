// Checks every JSON answer of a test app against the OpenAPI document the app serves: the status
// must be one the operation documents and the body must match that answer's schema. The schemas
// only describe (they are not serializers), so this is what keeps the document true. An answer
// that does not match is replaced by a 500 naming the operation, the status and the mismatch, so
// the test that provoked it fails where it happened.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

type Response = { $ref?: string; content?: Record<string, { schema?: unknown }> };
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, Response> };
};

export function installResponseCheck(app: FastifyInstance): void {
  let checkers: Map<string, ValidateFunction | null> | undefined;
  let doc: Doc | undefined;
  let ajv: Ajv2020 | undefined;
  const checker = (method: string, url: string, status: number): ValidateFunction | null | 'undocumented' => {
    if (!doc || !ajv) {
      doc = app.swagger() as unknown as Doc;
      ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
      ajv.addSchema({ $id: 'openapi', components: { schemas: doc.components.schemas } });
      checkers = new Map();
    }
    const path = url.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) return null; // not in the document (hidden routes, the dashboard, /metrics)
    const key = `${method} ${path} ${status}`;
    if (checkers!.has(key)) return checkers!.get(key)!;
    let r = op.responses[String(status)];
    if (!r) return 'undocumented';
    if (r.$ref) r = doc.components.responses[r.$ref.split('/').pop()!];
    const schema = r.content?.['application/json']?.schema;
    const fn = schema
      ? ajv.compile(
          JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi#/components/schemas/')),
        )
      : null;
    checkers!.set(key, fn);
    return fn;
  };

  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.routeOptions.url;
    if (!url || reply.statusCode >= 500) return payload;
    const fn = checker(req.method, url, reply.statusCode);
    let problem: string | undefined;
    if (fn === 'undocumented') problem = `status ${reply.statusCode} is not documented`;
    else if (
      fn &&
      typeof payload === 'string' &&
      String(reply.getHeader('content-type') ?? '').startsWith('application/json')
    ) {
      if (!fn(JSON.parse(payload)))
        problem = (fn.errors ?? [])
          .slice(0, 5)
          .map((e) => `${e.instancePath || '/'} ${e.message}`)
          .join('; ');
    }
    if (!problem) return payload;
    const status = reply.statusCode;
    reply.status(500);
    return JSON.stringify({
      success: false,
      error: {
        code: 'RESPONSE_NOT_AS_DOCUMENTED',
        message: `${req.method} ${url} ${status}: ${problem}`,
        request_id: req.id,
        details: { body: String(payload).slice(0, 2000) },
      },
    });
  });
}
