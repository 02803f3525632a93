/** Minimal client for the CLI's client commands (ingest, reprocess): base URL + API key. */
export interface ApiClient {
  request<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; data: T; error?: { code: string; message: string } } }>;
  upload(path: string, form: FormData): Promise<{ status: number; body: any }>;
}

export interface ApiClientOptions {
  /**
   * Called when a 429 makes the client wait: with the seconds left, once a second, and with 0
   * when the wait is over (the progress line shows it). Overlapping waits report the longest.
   */
  onRateLimitWait?: (secondsLeft: number) => void;
  /** Gives up after this many 429s in a row for one request (default 20). */
  maxRateLimitRetries?: number;
}

/** Seconds to wait from a Retry-After header: delta-seconds or an HTTP date; at least 1. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (header) {
    const s = Number(header.trim());
    if (Number.isFinite(s)) return Math.max(1, Math.ceil(s));
    const at = Date.parse(header);
    if (Number.isFinite(at)) return Math.max(1, Math.ceil((at - now) / 1000));
  }
  return 1;
}

export function createApiClient(baseUrl: string, apiKey: string, opts: ApiClientOptions = {}): ApiClient {
  const base = baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '') + '/api/v1';
  const headers = { authorization: `Bearer ${apiKey}` };
  const maxRetries = opts.maxRateLimitRetries ?? 20;
  const parse = async (res: Response) => {
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      return { success: false, error: { code: 'BAD_RESPONSE', message: text.slice(0, 200) } };
    }
  };

  // Concurrent requests (parallel uploads) share one visible countdown: until the latest end.
  let waitUntil = 0;
  let ticker: NodeJS.Timeout | undefined;
  const report = () => {
    const left = Math.ceil((waitUntil - Date.now()) / 1000);
    if (left > 0) {
      opts.onRateLimitWait?.(left);
      return;
    }
    clearInterval(ticker);
    ticker = undefined;
    opts.onRateLimitWait?.(0);
  };
  const waitFor = async (seconds: number) => {
    waitUntil = Math.max(waitUntil, Date.now() + seconds * 1000);
    if (!ticker) {
      ticker = setInterval(report, 1000);
      ticker.unref();
    }
    report();
    await new Promise((r) => setTimeout(r, seconds * 1000));
  };

  // The server's rate limit is honoured everywhere, visibly, instead of failing the whole run.
  const send = async (init: () => RequestInit, path: string) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(base + path, init());
      if (res.status === 429 && attempt < maxRetries) {
        await res.body?.cancel();
        await waitFor(retryAfterSeconds(res.headers.get('retry-after')));
        continue;
      }
      return { status: res.status, body: await parse(res) };
    }
  };
  return {
    request(method, path, body) {
      return send(() => ({
        method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }), path);
    },
    upload(path, form) {
      return send(() => ({ method: 'POST', headers, body: form }), path);
    },
  };
}
