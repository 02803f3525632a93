// `npm start` builds first when dist/ is missing or older than any source file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const built = existsSync('dist/src/cli.js') ? statSync('dist/src/cli.js').mtimeMs : 0;
const sources = Math.max(
  newest('src'),
  newest('workers'),
  newest('test/helpers'),
  newest('test/bench'),
  statSync('package.json').mtimeMs,
);
if (built === 0 || sources > built) {
  console.error('building docpipe (dist/ is missing or stale)…');
  execSync('npm run build --silent', { stdio: 'inherit' });
}
