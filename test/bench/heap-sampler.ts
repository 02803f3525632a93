// `node --import <this file>` with DOCPIPE_HEAP_SAMPLES=<dir>: appends this process's
// process.memoryUsage() as one JSON line to `<dir>/<pid>.jsonl` every DOCPIPE_HEAP_EVERY_MS (default
// 10 s), so the soak bench can read the V8 heap of a process it only sees from outside. With
// DOCPIPE_HEAP_SNAPSHOTS=<dir> a SIGUSR2 writes a heap snapshot there (v8.writeHeapSnapshot).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.DOCPIPE_HEAP_SAMPLES;
// Worker threads (OCR's) run --import too, and would report their own isolate's heap.
if (dir && isMainThread) {
  const file = join(dir, `${process.pid}.jsonl`);
  const write = () => appendFileSync(file, JSON.stringify({ t: Date.now(), ...process.memoryUsage() }) + '\n');
  write();
  setInterval(write, Number(process.env.DOCPIPE_HEAP_EVERY_MS ?? 10_000)).unref();
}
const snaps = process.env.DOCPIPE_HEAP_SNAPSHOTS;
if (snaps && isMainThread) {
  let n = 0;
  process.on('SIGUSR2', () => {
    writeHeapSnapshot(join(snaps, `${process.pid}-${++n}.heapsnapshot`));
  });
}
