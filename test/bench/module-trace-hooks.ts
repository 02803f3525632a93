// Resolution hook for module-trace.ts: appends each newly seen package name to `<dir>/<pid>.txt`.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

let file = '';
const seen = new Set<string>();

export function initialize(data: { dir: string }): void {
  file = join(data.dir, `${process.pid}.txt`);
}

/** `…/node_modules/@scope/name/…` → `@scope/name`; the last node_modules wins (nested copies). */
function packageOf(url: string): string | undefined {
  const i = url.lastIndexOf('/node_modules/');
  if (i < 0) return undefined;
  const parts = url.slice(i + '/node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

type Next = (specifier: string, context: unknown) => Promise<{ url: string }>;

export async function resolve(specifier: string, context: unknown, next: Next): Promise<{ url: string }> {
  const r = await next(specifier, context);
  const pkg = packageOf(r.url);
  if (pkg && file && !seen.has(pkg)) {
    seen.add(pkg);
    appendFileSync(file, `${pkg}\n`);
  }
  return r;
}
