// Group commit for buffering extracted documents (the `document` job): calls that arrive while one statement is running
// are buffered together by the next statement. Nothing waits on a timer, so a lone call costs
// what it did before, and under load one INSERT carries many documents (PGlite runs one
// statement at a time, so statements per document is what limits throughput there).

/** Runs `run` over batches of items; each caller gets its own item's result. */
export function createCoalescer<T, R>(run: (items: T[]) => Promise<R[]>, maxBatch = 500) {
  let queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        try {
          const results = await run(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(results[i]));
        } catch (err) {
          batch.forEach((b) => b.reject(err));
        }
      }
    } finally {
      running = false;
    }
  }

  return (item: T): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
