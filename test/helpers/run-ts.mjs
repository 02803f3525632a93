// Child-process entry for crash tests: loads a TypeScript module through a Vite module runner
// (a forked child has no TypeScript loader of its own) and calls its `run(options)`. Unlike
// vite's `runnerImport`, the runner stays open for the life of the process, so modules the
// code imports lazily later (OCR, PDF engine, embeddings) still load.
import { createRunnableDevEnvironment, mergeConfig, resolveConfig } from 'vite';

const [file, json] = process.argv.slice(2);
const config = await resolveConfig(
  mergeConfig(
    {},
    {
      configFile: false,
      envDir: false,
      cacheDir: process.cwd(),
      logLevel: 'error',
      environments: {
        inline: {
          consumer: 'server',
          dev: { moduleRunnerTransform: true },
          // Packages load natively; only the project's own TypeScript goes through the runner.
          resolve: {
            external: true,
            mainFields: [],
            conditions: ['node', ...(process.features?.require_module ? ['module-sync'] : [])],
          },
        },
      },
    },
  ),
  'serve',
);
const environment = createRunnableDevEnvironment('inline', config, {
  runnerOptions: { hmr: { logger: false } },
  hot: false,
});
await environment.init();
const mod = await environment.runner.import(file);
await mod.run(JSON.parse(json));
