export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Settles like `promise`, or rejects with {@link TimeoutError} after `ms` and calls `onTimeout`
 * (to cancel or kill whatever is still running). The timer is cleared either way.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  if (!Number.isFinite(ms) || ms <= 0) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        onTimeout?.();
      } finally {
        reject(new TimeoutError(`${what} timed out after ${ms} ms`));
      }
    }, ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
