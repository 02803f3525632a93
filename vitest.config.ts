import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll's own default is 1 s: a browser step (a key, its request, the re-render) can take
    // longer than that on a loaded two-core machine with two test files and their browsers running.
    expect: { poll: { timeout: 5_000 } },
    pool: 'forks',
    maxWorkers: 2,
    // Test files share their fork's module cache instead of importing the service again each
    // (import time 493 s with a fresh cache per file, 38 s shared; the whole suite 1,759 s then
    // 1,103 s on one machine, the second run also with run-ts.mjs's faster children). Every file builds its own app, database and Redis prefix and closes them; no test
    // mocks a module or leaves process.env changed, which is what sharing would break.
    isolate: false,
    reporters: ['default'],
  },
});
