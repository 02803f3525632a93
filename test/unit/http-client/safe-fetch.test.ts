// Network rule: every connection made here goes to 127.0.0.1. Hostnames other than `localhost`
// are resolved by an injected resolver, and any non-loopback answer is refused before connecting.
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgents } from '../../../src/lib/http-client/agents.js';
import { createAllowList } from '../../../src/lib/http-client/allow-list.js';
import { createSafeHttpClient, safePost, type SafeHttpClient } from '../../../src/lib/http-client/safe-fetch.js';
import { freePort } from '../../helpers/net.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';

const loopbackOnly = createAllowList(['127.0.0.1']);
const body = JSON.stringify({ id: 'evt_1', type: 'document.processed' });

/** A fake DNS that only ever answers from the given table. */
function fakeResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

let sink: WebhookSink;
let target: WebhookSink;
let client: SafeHttpClient;

beforeAll(async () => {
  sink = await startWebhookSink();
  target = await startWebhookSink();
  client = createSafeHttpClient({ allow: loopbackOnly, timeoutMs: 2000 });
});
afterAll(async () => {
  client.close();
  await sink.close();
  await target.close();
});
afterEach(() => {
  sink.setStatus(200);
  sink.setDelay(0);
  sink.setRedirect(null);
  sink.setResponseBody('ok');
  sink.setResponseHeaders({});
  sink.requests.length = 0;
  target.requests.length = 0;
});

describe('safePost against a local sink', () => {
  it('delivers the exact body and headers and reports 200', async () => {
    const res = await client.post(sink.url, { body, headers: { 'Content-Type': 'application/json', 'X-Test': 'a' } });
    expect(res).toMatchObject({ status: 200, body: 'ok', truncated: false });
    expect(res.error).toBeUndefined();
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0].method).toBe('POST');
    expect(sink.requests[0].body).toBe(body);
    expect(sink.requests[0].headers['x-test']).toBe('a');
    expect(sink.requests[0].headers['content-type']).toBe('application/json');
  });

  it('reports a 500 with its body and headers, without an error', async () => {
    sink.setStatus(500);
    sink.setResponseBody('boom');
    sink.setResponseHeaders({ 'Retry-After': '120' });
    const res = await client.post(sink.url, { body });
    expect(res.status).toBe(500);
    expect(res.body).toBe('boom');
    expect(res.headers['retry-after']).toBe('120');
    expect(res.error).toBeUndefined();
  });

  it('returns a 308 as-is and never visits the Location target', async () => {
    sink.setRedirect(target.url);
    const res = await client.post(sink.url, { body });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(target.url);
    expect(sink.requests).toHaveLength(1);
    // Give a (wrongly) followed redirect a moment to land before asserting it never did.
    await new Promise((r) => setTimeout(r, 100));
    expect(target.requests).toHaveLength(0);
  });

  it('times out a slow receiver with TIMEOUT', async () => {
    sink.setDelay(5000);
    const res = await client.post(sink.url, { body, timeoutMs: 200 });
    expect(res.status).toBe(0);
    expect(res.error?.code).toBe('TIMEOUT');
    expect(sink.requests).toHaveLength(1);
  });

  it('gives up connecting after connectTimeoutMs, long before the whole deadline', async () => {
    // A name that never resolves stands for an unreachable host: both hold the connect phase.
    const hang = () => new Promise<never>(() => undefined);
    const before = sink.connectionCount();
    const res = await safePost(`http://blackhole.test:${sink.port}/`, {
      body,
      resolver: hang,
      allow: loopbackOnly,
      timeoutMs: 20_000,
      connectTimeoutMs: 150,
    });
    expect(res.status).toBe(0);
    expect(res.error).toEqual({ code: 'TIMEOUT', message: 'could not connect within 150 ms' });
    expect(res.durationMs).toBeLessThan(20_000);
    expect(sink.connectionCount()).toBe(before);
  });

  it('a connect deadline does not cut a connected receiver that is slow to answer', async () => {
    sink.setDelay(300);
    const res = await client.post(sink.url, { body, timeoutMs: 2000, connectTimeoutMs: 100 });
    expect(res.status).toBe(200);
    expect(res.error).toBeUndefined();
  });

  it('times out a body that never finishes, keeping the status and the partial body', async () => {
    const stalled = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    await new Promise<void>((r) => stalled.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = stalled.address() as AddressInfo;
      const res = await client.post(`http://127.0.0.1:${port}/`, { body, timeoutMs: 300 });
      expect(res.status).toBe(200);
      expect(res.body).toBe('partial');
      expect(res.error?.code).toBe('TIMEOUT');
    } finally {
      stalled.closeAllConnections();
      await new Promise((r) => stalled.close(r));
    }
  });

  it('reports a connection cut mid-body as NETWORK', async () => {
    const cut = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part', () => res.socket?.destroy());
    });
    await new Promise<void>((r) => cut.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = cut.address() as AddressInfo;
      const res = await client.post(`http://127.0.0.1:${port}/`, { body });
      expect(res.status).toBe(200);
      expect(res.error?.code).toBe('NETWORK');
    } finally {
      cut.closeAllConnections();
      await new Promise((r) => cut.close(r));
    }
  });

  it('reports a refused connection as status 0 NETWORK', async () => {
    const port = await freePort();
    const res = await client.post(`http://127.0.0.1:${port}/hook`, { body });
    expect(res.status).toBe(0);
    expect(res.error?.code).toBe('NETWORK');
    expect(res.error?.message).toMatch(/ECONNREFUSED/);
  });

  it('keeps at most 20 KB of the response body, cut on a character boundary', async () => {
    sink.setResponseBody('é'.repeat(15_000)); // 30 000 bytes, two bytes per character
    const res = await client.post(sink.url, { body });
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(true);
    expect(Buffer.byteLength(res.body)).toBe(20 * 1024);
    expect(res.body).toBe('é'.repeat(10 * 1024));
    // An odd cap would split a character: the partial byte is dropped, not turned into U+FFFD.
    const odd = await client.post(sink.url, { body, maxResponseBytes: 5 });
    expect(odd.body).toBe('éé');
  });

  it('drops the connection instead of reading an endless body past the drain limit', async () => {
    sink.setResponseBody(Buffer.alloc(2 * 1024 * 1024, 'x'));
    const res = await client.post(sink.url, { body, drainBytes: 1024 });
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(true);
    expect(res.body).toHaveLength(20 * 1024);
    expect(res.error).toBeUndefined();
  });

  it('rejects non-http schemes and garbage URLs as INVALID_URL', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'gopher://127.0.0.1:70/', 'not a url']) {
      const res = await client.post(url, { body });
      expect(res.error?.code, url).toBe('INVALID_URL');
      expect(res.status).toBe(0);
    }
  });
});

describe('SSRF refusal (no request ever reaches the sink)', () => {
  it('refuses 127.0.0.1 and localhost without an allow-list, before connecting', async () => {
    const before = sink.connectionCount();
    const urls = [
      sink.url,
      `http://localhost:${sink.port}/hook`,
      `http://[::ffff:127.0.0.1]:${sink.port}/`,
      `http://0x7f.1:${sink.port}/`,
      `http://2130706433:${sink.port}/`,
    ];
    for (const url of urls) {
      const res = await safePost(url, { body, timeoutMs: 2000 });
      expect(res.error?.code, url).toBe('FORBIDDEN_ADDRESS');
      expect(res.status).toBe(0);
    }
    expect(sink.requests).toHaveLength(0);
    expect(sink.connectionCount()).toBe(before);
  });

  it('checks every address a name resolves to, inside the connector (rebinding)', async () => {
    const dns = fakeResolver({
      'rebind.test': ['10.0.0.7', '169.254.169.254'],
      'metadata.test': ['::ffff:169.254.169.254'],
    });
    const before = sink.connectionCount();
    for (const host of ['rebind.test', 'metadata.test']) {
      const res = await safePost(`http://${host}:${sink.port}/`, { body, resolver: dns.resolve, allow: loopbackOnly });
      expect(res.error?.code).toBe('FORBIDDEN_ADDRESS');
      expect(res.error?.message).toMatch(/forbidden addresses/);
    }
    expect(dns.calls).toEqual(['rebind.test', 'metadata.test']);
    expect(sink.requests).toHaveLength(0);
    expect(sink.connectionCount()).toBe(before);
  });

  it('connects only to the permitted answers of a mixed DNS reply', async () => {
    const dns = fakeResolver({ 'mixed.test': ['10.0.0.7', '127.0.0.1'] });
    const res = await safePost(`http://mixed.test:${sink.port}/hook`, {
      body,
      resolver: dns.resolve,
      allow: loopbackOnly,
    });
    expect(res.status).toBe(200);
    expect(sink.requests).toHaveLength(1);
  });

  it('opens a name through a hostname allow-list entry', async () => {
    const dns = fakeResolver({ 'sink.internal': ['127.0.0.1'] });
    const strict = await safePost(`http://sink.internal:${sink.port}/`, { body, resolver: dns.resolve });
    expect(strict.error?.code).toBe('FORBIDDEN_ADDRESS');
    const opened = await safePost(`http://sink.internal:${sink.port}/`, {
      body,
      resolver: dns.resolve,
      allow: createAllowList(['sink.internal']),
    });
    expect(opened.status).toBe(200);
    expect(sink.requests).toHaveLength(1);
  });

  it('reports resolver failures as DNS', async () => {
    const dns = fakeResolver({});
    const res = await safePost(`http://nowhere.test:${sink.port}/`, { body, resolver: dns.resolve });
    expect(res.status).toBe(0);
    expect(res.error?.code).toBe('DNS');
    expect(res.error?.message).toMatch(/ENOTFOUND/);
  });

  it('never hands a pooled socket opened under one allow-list to a request under another', async () => {
    const dns = fakeResolver({ 'pool.test': ['127.0.0.1'] });
    const shared = createSafeHttpClient({ resolver: dns.resolve, timeoutMs: 2000 });
    try {
      const url = `http://pool.test:${sink.port}/hook`;
      const first = await shared.post(url, { body, allow: createAllowList(['pool.test']) });
      expect(first.status).toBe(200);
      const second = await shared.post(url, { body });
      expect(second.error?.code).toBe('FORBIDDEN_ADDRESS');
      expect(sink.requests).toHaveLength(1);
    } finally {
      shared.close();
    }
  });

  it('partitions agent pools by policy key', () => {
    const agents = createAgents();
    const name = (key: string) => agents.http.getName({ host: 'h.test', port: 80, docpipePolicyKey: key } as never);
    expect(name('a')).not.toBe(name('b'));
    expect(name('a')).toBe(name('a'));
    agents.http.destroy();
    agents.https.destroy();
  });

  it('reuses keep-alive connections within one policy', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await client.post(sink.url, { body });
      expect(res.status).toBe(200);
    }
    expect(sink.requests).toHaveLength(5);
    expect(new Set(sink.requests.map((r) => r.remotePort)).size).toBe(1);
    // Without agents every request gets its own connection.
    for (let i = 0; i < 2; i++) await safePost(sink.url, { body, allow: loopbackOnly });
    expect(new Set(sink.requests.slice(5).map((r) => r.remotePort)).size).toBe(2);
  });
});
