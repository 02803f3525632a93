/**
 * `load` run once, on the first call, and its promise shared by every later call: a package
 * loaded on first use (`lazy(() => import('x'))`). A failed load is forgotten, so the next call
 * tries again instead of repeating the first error for the life of the process.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}
