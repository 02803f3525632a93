// Group commit: calls made while every batch slot is busy are queued and served together by the
// next batch. At low load a call runs alone, right away; under load one statement serves many
// concurrent deliveries, which keeps the database off the critical path (PGlite is one
// connection; PostgreSQL still saves a round trip per delivery).

/** Options of {@link createBatcher}. */
export interface BatcherOptions {
  /** Most items per batch. Default 200. */
  maxBatch?: number;
  /** Batches running at once. Default 1; more only helps when the database has several connections. */
  maxInFlight?: number;
}

export interface Batcher<I, O> {
  submit(item: I): Promise<O>;
}

/** `run` receives the queued items and must return one result per item, in the same order. */
export function createBatcher<I, O>(run: (items: I[]) => Promise<O[]>, opts: BatcherOptions = {}): Batcher<I, O> {
  const maxBatch = opts.maxBatch ?? 200;
  const maxInFlight = opts.maxInFlight ?? 1;
  type Entry = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };
  let queue: Entry[] = [];
  let inFlight = 0;
  let scheduled = false;

  const runBatch = async (batch: Entry[]): Promise<void> => {
    try {
      const out = await run(batch.map((e) => e.item));
      if (out.length !== batch.length)
        throw new Error(`batch returned ${out.length} results for ${batch.length} items`);
      batch.forEach((e, i) => e.resolve(out[i]));
    } catch (err) {
      for (const e of batch) e.reject(err);
    }
  };

  const pump = (): void => {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight++;
      void runBatch(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        // setImmediate gathers the calls made by other I/O callbacks of the same loop turn.
        if (!scheduled && inFlight < maxInFlight) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            pump();
          });
        }
      });
    },
  };
}
