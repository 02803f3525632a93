/**
 * The path a request was routed to, rebuilt from the matched route pattern and its decoded
 * parameters, e.g. `/projects/:id/stats` + {id: 'prj_1'} → `/projects/prj_1/stats`.
 *
 * Why not the raw URL: the router and a string check disagree about where a path ends and what
 * a segment is (`#`, `%2F`, `;`, dot segments, trailing slashes), and every disagreement is a way
 * around a rule. Checking what the router actually chose leaves nothing to disagree about.
 * Each parameter value is percent-encoded, so a value holding `/` stays one segment.
 */
export function routedPath(pattern: string, params: Record<string, unknown> | undefined, prefix = ''): string {
  const rel = prefix && pattern.startsWith(prefix) ? pattern.slice(prefix.length) || '/' : pattern;
  return rel.replace(/:([A-Za-z0-9_]+)|\*/g, (_m, name: string | undefined) => {
    const v = params?.[name ?? '*'];
    return encodeURIComponent(typeof v === 'string' ? v : '');
  });
}
