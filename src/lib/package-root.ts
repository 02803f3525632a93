import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding docpipe's package.json, from sources (tests) and from dist/ alike. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj) && JSON.parse(readFileSync(pj, 'utf8')).name === 'docpipe') return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('docpipe package root not found');
    dir = up;
  }
}
