// The built-in classifier trained once per change of its samples or algorithm, in the cache
// directory every test server uses (CLASSIFIER_CACHE_DIR in testConfig). The global setup primes
// it before any test starts, so test files running side by side never train it concurrently.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/lib/package-root.js';
import { loadBuiltinModel } from '../../src/pipeline/classify/index.js';

export const TEST_CLASSIFIER_CACHE_DIR = join(tmpdir(), 'docpipe-test-classifier');
export const TEST_CLASSIFIER_FILE = join(TEST_CLASSIFIER_CACHE_DIR, 'classifier-builtin.json');

let primed: Promise<string> | undefined;

/** Path of the cached built-in model, trained first when missing or stale. */
export function primeBuiltinClassifier(): Promise<string> {
  // loadBuiltinModel compares the cached model's version with the samples and retrains when stale.
  primed ??= loadBuiltinModel(join(packageRoot(), 'samples', 'classifier'), { cachePath: TEST_CLASSIFIER_FILE }).then(() => TEST_CLASSIFIER_FILE);
  return primed;
}
