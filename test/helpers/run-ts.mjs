// Child-process entry for multi-process tests: `node run-ts.mjs module.ts '{json}'` imports a
// TypeScript module and calls its `run(options)`. The project's own loader hooks
// (scripts/ts-loader-hooks.mjs: `.js` specifiers to `.ts`, types stripped) are registered first,
// so Node loads the sources itself, lazily imported modules (OCR, PDF engine, embeddings)
// included. A Vite module runner did this before and took 1-2 s longer per child to start, which
// the CLI and crash tests paid dozens of times.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register(new URL('../../scripts/ts-loader-hooks.mjs', import.meta.url));
// Stack traces in the children's captured stderr name the TypeScript source's lines.
process.setSourceMapsEnabled(true);
const [file, json] = process.argv.slice(2);
const mod = await import(pathToFileURL(file).href);
await mod.run(JSON.parse(json));
