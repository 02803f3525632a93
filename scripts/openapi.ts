// The OpenAPI document the API serves at /api/v1/openapi.json, written from the sources (no
// database or Redis needed). Run with `node --import ./scripts/ts-loader.mjs scripts/openapi.ts`:
//   write [FILE]    the document as JSON to FILE (stdout without one)
//   lint            Redocly CLI's lint of the document with redocly.yaml (npm run openapi:lint)
//   types [--check] src/api/types.ts from the document (npm run openapi:types); --check fails
//                   when the committed file differs from what the document gives
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typesSource } from './openapi-types.ts';
import { openApiDocument } from '../src/http/openapi-document.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TYPES_FILE = join(root, 'src/api/types.ts');
const [command = 'write', arg] = process.argv.slice(2);
const doc = await openApiDocument();

if (command === 'write') {
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  if (arg) writeFileSync(arg, json);
  else process.stdout.write(json);
} else if (command === 'lint') {
  // A fixed path under the ignored .tmp/: .redocly.lint-ignore.yaml names findings by file.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  writeFileSync(join(root, '.tmp/openapi.json'), JSON.stringify(doc, null, 2));
  const res = spawnSync(
    join(root, 'node_modules/.bin/redocly'),
    ['lint', '.tmp/openapi.json', '--config', 'redocly.yaml'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  process.exitCode = res.status ?? 1;
} else if (command === 'types') {
  const source = await typesSource(doc);
  if (arg === '--check') {
    let current = '';
    try {
      current = readFileSync(TYPES_FILE, 'utf8');
    } catch {
      /* missing: differs */
    }
    if (current !== source) {
      console.error(
        'src/api/types.ts is not what the OpenAPI document gives: run `npm run openapi:types` and commit it',
      );
      process.exitCode = 1;
    }
  } else {
    writeFileSync(TYPES_FILE, source);
  }
} else {
  console.error(`unknown command ${command}: write [FILE] | lint | types [--check]`);
  process.exitCode = 2;
}
