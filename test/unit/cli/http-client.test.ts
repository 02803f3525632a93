// The CLI's HTTP client against a local server that rate-limits: it waits as long as
// Retry-After says, reports the wait, and retries the same request (bodies included).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, errorText, retryAfterSeconds } from '../../../src/cli/http-client.js';
import { createProgress, formatDuration } from '../../../src/cli/progress.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

async function serve(answers: { status: number; headers?: Record<string, string> }[]) {
  const seen: { method: string; url: string; body: string }[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body });
      const a = answers.shift() ?? { status: 200 };
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(
        JSON.stringify(
          a.status === 429
            ? { success: false, error: { code: 'RATE_LIMITED', message: 'slow down' } }
            : { success: true, data: { n: seen.length } },
        ),
      );
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

describe('CLI HTTP client', () => {
  it('reads Retry-After as seconds or as a date, never less than a second', () => {
    expect(retryAfterSeconds('31')).toBe(31);
    expect(retryAfterSeconds('0')).toBe(1);
    expect(retryAfterSeconds(null)).toBe(1);
    expect(retryAfterSeconds('soon')).toBe(1);
    expect(
      retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 42)).toUTCString(), Date.UTC(2030, 0, 1, 0, 0, 0)),
    ).toBe(42);
  });

  it('honours Retry-After on 429, says how long it waits, and sends the same request again', async () => {
    const { url, seen } = await serve([{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    const waits: number[] = [];
    const api = createApiClient(url, 'svc_test_x', { onRateLimitWait: (s) => waits.push(s) });
    const started = Date.now();
    const res = await api.call('POST', '/documents/reprocess', { body: { mode: 'all' } });
    expect(res).toMatchObject({ status: 200, body: { data: { n: 2 } } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/v1/documents/reprocess', '{"mode":"all"}'],
      ['POST', '/api/v1/documents/reprocess', '{"mode":"all"}'],
    ]);
    expect(waits[0]).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(waits.at(-1)).toBe(0);
  });

  it('gives up after the configured number of 429s and returns the last answer', async () => {
    const { url, seen } = await serve([
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 429, headers: { 'retry-after': '1' } },
    ]);
    const res = await createApiClient(url, 'k', { maxRateLimitRetries: 1 }).call('GET', '/documents');
    expect(res.status).toBe(429);
    expect(errorText(res)).toBe('429 RATE_LIMITED slow down');
    expect(seen).toHaveLength(2);
  });

  it('fills path parameters (encoded) and the query from the typed options', async () => {
    const { url, seen } = await serve([{ status: 200 }, { status: 200 }]);
    const api = createApiClient(`${url}/api/v1/`, 'k');
    await api.call('GET', '/batches/{id}', { path: { id: 'bat 1/2' } });
    await api.call('GET', '/documents', { query: { ids: 'a,b', per_page: 100, q: undefined } });
    expect(seen.map((s) => s.url)).toEqual(['/api/v1/batches/bat%201%2F2', '/api/v1/documents?ids=a%2Cb&per_page=100']);
  });
});

describe('progress line', () => {
  it('shows a note after the counts: at once on a terminal, as one line in a log', () => {
    const term: string[] = [];
    const bar = createProgress('uploading', 4, { isTTY: true, write: (s: string) => term.push(s) });
    bar.tick();
    bar.note('waiting for rate limit (31 s)');
    expect(term.at(-1)).toMatch(/^\ruploading \[#+\.+\] 1\/4 25% .* — waiting for rate limit \(31 s\)\x1b\[K$/);
    bar.note('waiting for rate limit (30 s)');
    expect(term.at(-1)).toContain('(30 s)');
    bar.note('');
    expect(term.at(-1)).not.toContain('waiting');

    const log: string[] = [];
    const plain = createProgress('processing', 2, { isTTY: false, write: (s: string) => log.push(s) });
    plain.note('waiting for rate limit (12 s)');
    plain.note('waiting for rate limit (11 s)');
    expect(log.filter((l) => l.includes('waiting for rate limit'))).toEqual([
      'processing: 0/2 (0%) — waiting for rate limit (12 s)\n',
    ]);
  });

  it('shows the recent rate and the time left at that rate', () => {
    let now = 0;
    const log: string[] = [];
    const bar = createProgress('reprocessing', 1000, { isTTY: false, write: (s: string) => log.push(s) }, () => now);
    now = 10_000;
    bar.set(100);
    expect(log.at(-1)).toBe('reprocessing: 100/1000 (10%) 10.0/s ETA 1m30s\n');
    // 40 s later at twice the pace: the 30 s window sees only the new pace.
    for (let i = 1; i <= 4; i++) {
      now = 10_000 + i * 10_000;
      bar.set(100 + i * 200);
    }
    expect(log.at(-1)).toBe('reprocessing: 900/1000 (90%) 20.0/s ETA 5s\n');
    bar.finish();
    expect(log.at(-1)).toBe('reprocessing: 900/1000 (90%) 20.0/s\n');
    expect([formatDuration(59.6), formatDuration(75), formatDuration(3700)]).toEqual(['1m00s', '1m15s', '1h01m']);
  });
});
