/**
 * Runs at most `limit` calls of `fn` at once; later calls wait their turn in order. For work
 * that starts a process per call (image previews), so a burst of requests cannot start dozens.
 */
export function gate<A extends unknown[], R>(
  limit: number,
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (...args: A) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await fn(...args);
    } finally {
      // The slot passes straight to the next caller, so `running` only drops when none waits.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
