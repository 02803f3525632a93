// The test apps' answer check (test/helpers/openapi-check.ts) catches answers the OpenAPI
// document does not describe: a body that does not match, and a status it does not list.
import Fastify from 'fastify';
import { describe as group, expect, it } from 'vitest';
import { ok } from '../../../src/http/envelope.js';
import { describe, t } from '../../../src/http/openapi-shapes.js';
import { installOpenApi } from '../../../src/http/plugins/openapi.js';
import { installResponseCheck } from '../../helpers/openapi-check.js';

async function app() {
  const a = Fastify();
  await installOpenApi(a);
  const schema = { security: [], ...describe({ data: t.obj({ n: t.int, name: t.nstr }) }) };
  a.get('/api/v1/good', { schema }, async () => ok({ n: 1, name: null }));
  a.get('/api/v1/wrong-type', { schema }, async () => ok({ n: '1', name: null }));
  a.get('/api/v1/missing', { schema }, async () => ok({ name: 'x' }));
  a.get('/api/v1/teapot', { schema }, async (_req, reply) => reply.status(418).send({ success: false }));
  installResponseCheck(a);
  await a.ready();
  return a;
}

group('answers checked against the OpenAPI document', () => {
  it('lets a documented answer through unchanged', async () => {
    const a = await app();
    const res = await a.inject('/api/v1/good');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { n: 1, name: null }, message: 'OK' });
  });

  it('turns a body that does not match into a 500 naming the operation and the mismatch', async () => {
    const a = await app();
    const wrong = await a.inject('/api/v1/wrong-type');
    expect(wrong.statusCode).toBe(500);
    expect(wrong.json().error).toMatchObject({
      code: 'RESPONSE_NOT_AS_DOCUMENTED',
      message: expect.stringContaining('GET /api/v1/wrong-type 200: /data/n must be integer'),
    });
    const missing = await a.inject('/api/v1/missing');
    expect(missing.json().error.message).toContain("must have required property 'n'");
  });

  it('refuses a status the operation does not document', async () => {
    const a = await app();
    const res = await a.inject('/api/v1/teapot');
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toContain('status 418 is not documented');
  });
});
