// Module hooks for ts-loader.mjs: `./x.js` imported from a .ts file resolves to `./x.ts` when
// that exists (the NodeNext convention the sources follow), and .ts files have their types
// stripped by the TypeScript transform vite's bundler ships (a dev dependency of the tests).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

let transformSync;

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL?.endsWith('.ts') && /^\.\.?\//.test(specifier) && specifier.endsWith('.js')) {
    const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(fileURLToPath(ts))) return { url: ts.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const file = fileURLToPath(url);
  if (!transformSync) {
    const utils = createRequire(file).resolve('rolldown/utils');
    ({ transformSync } = await import(pathToFileURL(utils).href));
  }
  const out = transformSync(file, await readFile(file, 'utf8'), { lang: 'ts', sourcemap: true });
  if (out.errors?.length) throw new Error(`${file}: ${out.errors.map((e) => e.message).join('\n')}`);
  // Stripping types moves lines: the inline map lets a process that enabled source maps
  // (test/helpers/run-ts.mjs) print stack traces with the source's own line numbers.
  const map = Buffer.from(JSON.stringify({ ...out.map, sourcesContent: undefined })).toString('base64');
  return {
    format: 'module',
    source: `${out.code}\n//# sourceMappingURL=data:application/json;base64,${map}`,
    shortCircuit: true,
  };
}
