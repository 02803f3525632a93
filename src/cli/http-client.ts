/** Minimal client for the CLI's client commands (ingest, reprocess): base URL + API key. */
export interface ApiClient {
  request<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; data: T; error?: { code: string; message: string } } }>;
  upload(path: string, form: FormData): Promise<{ status: number; body: any }>;
}

export function createApiClient(baseUrl: string, apiKey: string): ApiClient {
  const base = baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '') + '/api/v1';
  const headers = { authorization: `Bearer ${apiKey}` };
  const parse = async (res: Response) => {
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      return { success: false, error: { code: 'BAD_RESPONSE', message: text.slice(0, 200) } };
    }
  };
  return {
    async request(method, path, body) {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(base + path, {
          method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        // Respect the server's rate limit instead of failing the whole run.
        if (res.status === 429 && attempt < 20) {
          await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
          continue;
        }
        return { status: res.status, body: await parse(res) };
      }
    },
    async upload(path, form) {
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(base + path, { method: 'POST', headers, body: form });
        if (res.status === 429 && attempt < 20) {
          await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
          continue;
        }
        return { status: res.status, body: await parse(res) };
      }
    },
  };
}
