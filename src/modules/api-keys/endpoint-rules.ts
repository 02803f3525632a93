const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/**
 * `allowed_endpoints` entries: optional METHOD, then a path relative to /api/v1.
 * `*` stands for exactly one path segment; a trailing `/*` stands for the path itself and
 * everything below it (`/projects/*` allows `/projects` and `/projects/prj_1/stats`).
 * A bare `*` allows everything.
 */
export interface EndpointRule {
  method: string | null;
  segments: string[];
  openEnded: boolean;
}

export function parseEndpointRule(raw: string): EndpointRule | string {
  const parts = raw.trim().split(/\s+/);
  let method: string | null = null;
  let path: string;
  if (parts.length === 2) {
    method = parts[0].toUpperCase();
    if (!METHODS.has(method)) return `has an unknown method "${parts[0]}"`;
    path = parts[1];
  } else if (parts.length === 1) {
    path = parts[0];
  } else return 'must be "[METHOD] /path"';
  if (path === '*') return { method, segments: [], openEnded: true };
  if (path.startsWith('/api/v1/')) path = path.slice(7);
  if (!path.startsWith('/')) return 'must start with /';
  const segments = path.split('/').filter(Boolean);
  const openEnded = segments.at(-1) === '*';
  if (openEnded) segments.pop();
  return { method, segments, openEnded };
}

export function endpointAllowed(rules: EndpointRule[], method: string, path: string): boolean {
  if (rules.length === 0) return true;
  const segs = path.split('?')[0].split('/').filter(Boolean);
  const m = method.toUpperCase();
  return rules.some((r) => {
    if (r.method && r.method !== m && !(r.method === 'GET' && m === 'HEAD')) return false;
    if (r.openEnded ? segs.length < r.segments.length : segs.length !== r.segments.length) return false;
    return r.segments.every((s, i) => s === '*' || s === segs[i]);
  });
}
