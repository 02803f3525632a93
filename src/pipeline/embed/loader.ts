import { createTransformersEmbedder, type Embedder, type TransformersEmbedderOptions } from './embedder.js';
import { EmbedderUnavailableError } from './errors.js';

/** Options for {@link createEmbedderLoader}. */
export interface EmbedderLoaderOptions extends TransformersEmbedderOptions {
  /** After a failed load, further `get()` calls return `null` without retrying for this long. Default 60 000 ms. */
  retryAfterMs?: number;
  /** Builds the embedder; default {@link createTransformersEmbedder}. Tests pass fakes. */
  create?: (opts: TransformersEmbedderOptions) => Promise<Embedder>;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

export interface EmbedderStatus {
  /** `loading` until the first load attempt finishes; a retry after a failure stays `unavailable` until it succeeds. */
  state: 'loading' | 'ready' | 'unavailable';
  modelId: string;
  /** Why the model is unavailable; set only in the `unavailable` state. */
  reason?: string;
  /** Machine-readable cause when the failure was an {@link EmbedderUnavailableError}. */
  code?: string;
}

export interface EmbedderLoader {
  /** The embedder, loading it on first use; `null` while unavailable (see `status()` for why). Never rejects. */
  get(): Promise<Embedder | null>;
  /**
   * Current state without waiting. Starts the first load (and a due retry) in the background, so
   * a readiness probe warms the model and notices a model folder copied in later.
   */
  status(): EmbedderStatus;
  /** Disposes a loaded embedder. */
  close(): Promise<void>;
}

/**
 * Loads the embedding model lazily, once, and remembers a failure so that every document does
 * not pay a load attempt: the pipeline records "embedding unavailable: <reason>" and carries on,
 * and `/ready` reports the same reason. A failed load is retried at most every `retryAfterMs`
 * (someone may copy the model folder in while the service runs).
 */
export function createEmbedderLoader(opts: EmbedderLoaderOptions): EmbedderLoader {
  const retryAfterMs = opts.retryAfterMs ?? 60_000;
  const create = opts.create ?? createTransformersEmbedder;
  const now = opts.now ?? Date.now;
  const { retryAfterMs: _r, create: _c, now: _n, ...embedderOpts } = opts;

  let embedder: Embedder | null = null;
  let inflight: Promise<Embedder | null> | null = null;
  let failure: { at: number; reason: string; code?: string } | null = null;

  const load = (): Promise<Embedder | null> => {
    inflight ??= create(embedderOpts)
      .then(
        (e) => {
          embedder = e;
          failure = null;
          return e;
        },
        (err: unknown) => {
          failure = {
            at: now(),
            reason: err instanceof Error ? err.message : String(err),
            code: err instanceof EmbedderUnavailableError ? err.reason : undefined,
          };
          return null;
        },
      )
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };

  return {
    async get() {
      if (embedder) return embedder;
      if (inflight) return inflight;
      if (failure && now() - failure.at < retryAfterMs) return null;
      return load();
    },
    status() {
      if (embedder) return { state: 'ready', modelId: opts.modelId };
      if (!inflight && (!failure || now() - failure.at >= retryAfterMs)) void load();
      // A retry keeps reporting the last failure, so /ready does not flap between states.
      if (!failure) return { state: 'loading', modelId: opts.modelId };
      return {
        state: 'unavailable',
        modelId: opts.modelId,
        reason: failure.reason,
        ...(failure.code ? { code: failure.code } : {}),
      };
    },
    async close() {
      if (inflight) await inflight;
      const e = embedder;
      embedder = null;
      await e?.dispose?.();
    },
  };
}
