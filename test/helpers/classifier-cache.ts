// The built-in classifier trained once per change of its samples or algorithm, in the cache
// directory every test server uses (CLASSIFIER_CACHE_DIR in testConfig). The global setup primes
// it before any test starts, so test files running side by side never train it concurrently.
// The directory is named after what the model is trained from, so checkouts with different
// samples on one machine do not overwrite each other's model and retrain in turn.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/lib/package-root.js';
import { ALGORITHM_VERSION, loadBuiltinModel, RULES_VERSION } from '../../src/pipeline/classify/index.js';

const SAMPLES = join(packageRoot(), 'samples', 'classifier');

function samplesHash(): string {
  const h = createHash('sha256').update(`${ALGORITHM_VERSION}\0${RULES_VERSION}\0`);
  for (const f of readdirSync(SAMPLES, { recursive: true }).map(String).sort()) {
    const p = join(SAMPLES, f);
    if (statSync(p).isFile()) h.update(`${f}\0`).update(readFileSync(p));
  }
  return h.digest('hex').slice(0, 16);
}

export const TEST_CLASSIFIER_CACHE_DIR = join(tmpdir(), `docpipe-test-classifier-${samplesHash()}`);
export const TEST_CLASSIFIER_FILE = join(TEST_CLASSIFIER_CACHE_DIR, 'classifier-builtin.json');

let primed: Promise<string> | undefined;

/** Path of the cached built-in model, trained first when missing or stale. */
export function primeBuiltinClassifier(): Promise<string> {
  // loadBuiltinModel compares the cache's source key (the samples' bytes, the algorithm and its
  // options) and retrains when stale.
  primed ??= loadBuiltinModel(SAMPLES, { cachePath: TEST_CLASSIFIER_FILE }).then(() => TEST_CLASSIFIER_FILE);
  return primed;
}
