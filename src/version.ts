import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './lib/package-root.js';

/**
 * The release, from package.json: one source for /health, the CLI's --version and the OpenAPI
 * document's info.version, so they cannot drift apart.
 */
export const VERSION: string = (
  JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
).version;
