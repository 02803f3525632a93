// How far V8 lets a long-running process's old generation grow past what survived the last full
// collection. Left to itself, V8 picks a factor of up to 4 from how fast the process allocates,
// so a burst of documents leaves tens of MB of heap the process then keeps while it stays busy
// (`docpipe start` against PostgreSQL grew 33–34 MB over 600 documents, with its used heap back
// at the same 65–68 MB). A fixed factor of 1.5 took that growth to 21–24 MB with no CPU per
// document measurable beside the machine's noise (docs/benchmarks.md, memory). With PGlite
// inside the process its memory is mostly PGlite's own, and the fixed factor measured no better
// there (growth 29–37 MB against 21–28 with V8's choice), so it is left to V8.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets the growth factor for a process that uses PostgreSQL, unless its command line already
 * tunes the heap that way (`--heap-growing-percent`, `--optimize-for-size`): an operator's flag
 * wins. Returns whether it set it. Node refuses these flags in NODE_OPTIONS, so this is where the
 * default lives.
 */
export function tuneHeap(opts: {
  postgres: boolean;
  execArgv?: readonly string[];
  /** Tests pass their own, so that the test process's heap is left alone. */
  setFlags?: (flags: string) => void;
}): boolean {
  if (!opts.postgres) return false;
  const argv = opts.execArgv ?? process.execArgv;
  if (argv.some((a) => /^--(heap[-_]growing[-_]percent|optimize[-_]for[-_]size)\b/.test(a))) return false;
  (opts.setFlags ?? setFlagsFromString)(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
