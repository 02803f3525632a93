// Idempotency-Key on every authenticated POST (see src/modules/idempotency): the claim is made
// after authentication and body validation (a request refused there never used the key), the
// response is kept in onSend before it leaves, so a retry that follows the answer finds it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../lib/errors.js';
import { IDEMPOTENCY_KEY_MAX, type IdempotencyService } from '../../modules/idempotency/index.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Response headers a replay repeats (the others describe the new request: id, rate limits). */
const KEPT_HEADERS = ['content-type', 'location', 'content-disposition'];

type Claim = Extract<Awaited<ReturnType<IdempotencyService['begin']>>, { kind: 'claimed' }>;

/** The OpenAPI description of the header, for POST operations. */
const headerSchema = {
  type: 'string',
  minLength: 1,
  maxLength: IDEMPOTENCY_KEY_MAX,
  pattern: '^[\\x21-\\x7e](?:[\\x20-\\x7e]*[\\x21-\\x7e])?$',
  description:
    'Makes a retry safe: the first request with a key runs; for 24 hours a repeat with the same key and the same request gets the stored response again (header `Idempotent-Replayed: true`), a different request with the key is a 422 and a repeat while the first still runs a 409. Server errors are not stored. 1–255 printable ASCII characters, per credential and environment. Not accepted on multipart uploads (an upload of the same file to the same project is already recognised as a duplicate).',
};

function headerValue(req: FastifyRequest): string | undefined {
  const v = req.headers[IDEMPOTENCY_HEADER];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function installIdempotency(app: FastifyInstance, service: IdempotencyService): void {
  const claims = new WeakMap<FastifyRequest, Claim>();

  // Every authenticated POST declares the header: validated with the route's other headers and
  // listed among the operation's parameters in the OpenAPI document.
  // The hooks are attached to those routes only (not globally), so every other request — the
  // GETs on the hot path — pays nothing for them.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST') || !route.config?.auth) return;
    const schema = (route.schema ??= {}) as { headers?: { type?: string; properties?: Record<string, unknown> } };
    const headers = schema.headers ?? { type: 'object' };
    schema.headers = {
      ...headers,
      type: 'object',
      properties: { ...headers.properties, 'Idempotency-Key': headerSchema },
    };
    const r = route as unknown as Record<'preHandler' | 'onSend' | 'onResponse', unknown>;
    r.preHandler = [...hookList(r.preHandler), preHandler];
    r.onSend = [...hookList(r.onSend), onSend];
    r.onResponse = [...hookList(r.onResponse), onResponse];
  });

  const preHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = headerValue(req);
    if (key === undefined) return;
    // The upload is hashed while it streams, after this point; the same file in the same project
    // is already answered as a duplicate, so uploads are safe to retry without a key.
    if (req.isMultipart()) {
      throw errors.validation(
        'Idempotency-Key is not accepted on multipart uploads: send the upload without it (the same file uploaded again to the same project is answered with the existing document and data.duplicate = true)',
        [{ field: 'Idempotency-Key', message: 'is not accepted on multipart/form-data requests', in: 'headers' }],
      );
    }
    const p = req.principal;
    const begun = await service.begin({
      scope: req.scope,
      credential: p.apiKey ? `key:${p.apiKey.id}` : `user:${p.userId}`,
      key,
      method: req.method,
      path: req.url.split('?')[0],
      query: req.query,
      body: req.body,
    });
    if (begun.kind === 'claimed') {
      claims.set(req, begun);
      return;
    }
    const { status, headers, body } = begun.response;
    reply.code(status).headers(headers).header('Idempotent-Replayed', 'true');
    return reply.send(body);
  };

  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(req);
    if (!claim) return payload;
    claims.delete(req);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      // A streamed answer cannot be kept; the key is freed rather than replaying something else.
      await claim.release();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const h of KEPT_HEADERS) {
      const v = reply.getHeader(h);
      if (v !== undefined) headers[h] = String(v);
    }
    try {
      await claim.finish({ status: reply.statusCode, headers, body: payload.toString() });
    } catch (err) {
      // The answer still goes out; the claim lapses after its lock time.
      req.log.warn({ err }, 'could not store the Idempotency-Key response');
    }
    return payload;
  };

  // A request that ended without onSend (the client went away first) frees its key.
  const onResponse = async (req: FastifyRequest) => {
    const claim = claims.get(req);
    if (!claim) return;
    claims.delete(req);
    await claim.release().catch((err: unknown) => req.log.warn({ err }, 'could not release an Idempotency-Key'));
  };
}

/** A route's own hooks of one kind as a list (Fastify takes one function or an array). */
function hookList(h: unknown): unknown[] {
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}
