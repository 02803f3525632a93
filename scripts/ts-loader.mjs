// `node --import ./scripts/ts-loader.mjs file.ts`: runs the project's TypeScript sources in a
// plain Node process. Only used when the service itself runs from sources (the test suite):
// the parser process it starts must run the same code as the caller, and compiled output may be
// stale or absent. Production runs the compiled dist/ and never loads this.
import { register } from 'node:module';

register(new URL('./ts-loader-hooks.mjs', import.meta.url));
