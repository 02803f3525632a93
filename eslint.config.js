// ESLint flat config: type-aware typescript-eslint rules, import cycles and the layer boundaries
// of docs/ARCHITECTURE.md. `npm run lint` runs it with `prettier --check`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS = ['**/*.ts', '**/*.tsx', '**/*.mts'];

// Layer boundaries, checked on resolved paths (so `../../http/x.js` and `../src/http/x.js` are
// the same folder). One rule entry per group of files, since a later block replaces the options.
const zone = (from, message, except) => ({ target: '.', from, message, ...(except ? { except } : {}) });
const NO_HTTP = zone('./src/http', 'Only src/http (and the process entry points) may import the HTTP layer.');
const NO_MODULES = zone(
  './src/modules',
  'src/pipeline, src/db, src/lib and src/storage import nothing from src/modules.',
);
// The dashboard calls the service over HTTP only; the one thing it shares with the server is the
// contract, src/api (types generated from the OpenAPI document, nothing that runs).
const WEB_ONLY = zone(
  './src',
  'The dashboard talks to the service through its public HTTP API only (typed by src/api).',
  ['./web', './api'],
);
const API_LEAF = zone('./src', 'src/api is the generated contract: it imports nothing from the service.', ['./api']);
const boundaries = (...zones) => ({ 'import-x/no-restricted-paths': ['error', { zones }] });

export default defineConfig(
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'samples/**', 'test/artifacts/**', '.tmp/**'],
  },
  js.configs.recommended,
  {
    files: TS,
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        // Two programs: the dashboard has its own compiler settings (DOM, bundler resolution).
        project: ['./src/web/tsconfig.json', './tsconfig.eslint.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      // Sources import './x.js' for './x.ts' (NodeNext): map the extension so cycles and
      // boundaries are followed through the real files.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `typeof import('x')` stays allowed: it types a module that is loaded lazily.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // `any` is kept where third-party shapes are untyped (pdf.js, transformers, Fastify
      // internals); the strict compiler settings are the typing policy.
      '@typescript-eslint/no-explicit-any': 'off',
      // A leading underscore marks a parameter or binding left unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Parsers and input guards match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**', 'workers/**'],
    // src/cli/server.ts is a process entry point that composes the app: it starts the HTTP
    // server built in src/http, so it is the one file outside src/http allowed to import it.
    ignores: ['src/http/**', 'src/web/**', 'src/cli/server.ts'],
    rules: boundaries(NO_HTTP),
  },
  { files: ['src/{pipeline,db,lib,storage}/**'], rules: boundaries(NO_HTTP, NO_MODULES) },
  { files: ['src/api/**'], rules: boundaries(NO_HTTP, API_LEAF) },
  {
    files: ['src/web/**'],
    languageOptions: { globals: globals.browser },
    rules: {
      ...boundaries(WEB_ONLY),
      // React ignores what an event handler returns; the dashboard's async handlers catch their
      // own errors (and react-query's refetch never rejects). Promises inside them are still
      // checked by no-floating-promises.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  { files: ['scripts/**', '*.js', '*.mjs', 'test/**/*.mjs'], languageOptions: { globals: globals.node } },
  // Nothing in src or workers imports a test, bench or script, so no cycle of the service runs
  // through them, and the service's own files are checked above: following every test's imports
  // again was a fifth of the lint's rule time.
  { files: ['test/**', 'scripts/**'], rules: { 'import-x/no-cycle': 'off' } },
);
