// Copies non-TypeScript assets (SQL migrations) next to the compiled JavaScript.
import { cpSync, mkdirSync } from 'node:fs';

mkdirSync('dist/src/db/migrations', { recursive: true });
cpSync('src/db/migrations', 'dist/src/db/migrations', { recursive: true });
