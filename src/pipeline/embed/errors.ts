/**
 * Why an embedding model could not be loaded.
 * - `not_found`: the files are not in the local folder / cache and downloading is disabled.
 * - `download_failed`: downloading was allowed but did not succeed (no network, unknown model id).
 * - `corrupt`: the files are there but could not be parsed (truncated ONNX, broken JSON).
 * - `runtime`: the inference runtime itself failed (native module missing, unsupported graph).
 */
export type EmbedderUnavailableReason = 'not_found' | 'download_failed' | 'corrupt' | 'runtime';

/**
 * Thrown by embedder construction when the model cannot be used. The pipeline treats it as
 * "embedding unavailable": it records the reason and carries on without vectors, instead of
 * failing the document.
 */
export class EmbedderUnavailableError extends Error {
  override readonly name = 'EmbedderUnavailableError';
  constructor(
    readonly reason: EmbedderUnavailableReason,
    readonly modelId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Maps an error thrown while loading through transformers.js / ONNX Runtime to a reason.
 * The library has no stable error codes, so this matches on classes and message shapes
 * observed with @huggingface/transformers 4.3 and onnxruntime-node 1.30:
 * broken JSON -> SyntaxError; broken ONNX -> "Load model from … failed:Protobuf parsing failed";
 * offline -> TypeError "fetch failed" with a `cause` carrying ENOTFOUND/ECONNREFUSED/…;
 * unknown id or missing file -> ModelFileNotFoundError "Could not locate file …".
 */
export function classifyLoadError(err: unknown, allowDownload: boolean): EmbedderUnavailableReason {
  if (err instanceof SyntaxError) return 'corrupt';
  const e = (err ?? {}) as { name?: string; message?: string; cause?: { message?: string; code?: string } };
  const text = [e.name, e.message ?? String(err), e.cause?.message, e.cause?.code].filter(Boolean).join(' ');
  if (/Protobuf parsing failed|Load model from .* failed/i.test(text)) return 'corrupt';
  if (/fetch failed|ENOTFOUND|ECONNREFUSED|ECONNRESET|EAI_AGAIN|ETIMEDOUT|UND_ERR/.test(text)) return 'download_failed';
  if (/ModelFileNotFound|Could not locate file|not found locally/i.test(text))
    return allowDownload ? 'download_failed' : 'not_found';
  return 'runtime';
}
