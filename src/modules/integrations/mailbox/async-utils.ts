// Small concurrency helpers for the mailbox runner.

/**
 * A coalescing wake-up: any number of `set()` calls while nobody waits become one wake-up.
 * `wait(ms)` resolves on the next set (or at once if one is pending), or after `ms`.
 */
export class Signal {
  private pending = false;
  private waiter: (() => void) | undefined;

  set(): void {
    this.pending = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  wait(ms?: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.waiter = () => {
        clearTimeout(timer);
        this.pending = false;
        resolve();
      };
      if (ms !== undefined && Number.isFinite(ms)) {
        timer = setTimeout(
          () => {
            this.waiter = undefined;
            resolve();
          },
          Math.max(0, ms),
        );
      }
    });
  }
}

/**
 * Runs `fn` over `items` with at most `limit` at a time, in order of start. After the first
 * error no new item starts; the error is rethrown once the running ones have settled.
 */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<unknown>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  let failed = false;
  let failure: unknown;
  const lane = async (): Promise<void> => {
    while (next < items.length && !failed && !stop()) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (err) {
        if (!failed) failure = err;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failed) throw failure;
}
