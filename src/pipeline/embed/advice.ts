import type { EmbedderStatus } from './loader.js';

/**
 * The start-up warning for a model that cannot be loaded: what happens meanwhile and what to
 * change, so an operator need not find the reason in `/ready` or a document's notes.
 */
export function embeddingUnavailableWarning(
  status: EmbedderStatus,
  where: { modelDir: string; allowDownload: boolean },
): string {
  const folder = `${where.modelDir.replace(/\/+$/, '')}/${status.modelId}`;
  const fix =
    status.code === 'corrupt'
      ? `replace the damaged files in ${folder} (EMBEDDING_MODEL_DIR)`
      : status.code === 'runtime'
        ? 'the ONNX runtime itself failed; check that onnxruntime-node is installed for this platform'
        : where.allowDownload
          ? `the model could not be downloaded: copy it into ${folder} (EMBEDDING_MODEL_DIR) and set ALLOW_MODEL_DOWNLOAD=false, or let this host reach the model hub`
          : `downloads are off (ALLOW_MODEL_DOWNLOAD=false): copy the model into ${folder} (EMBEDDING_MODEL_DIR), or set ALLOW_MODEL_DOWNLOAD=true`;
  return (
    `embedding model "${status.modelId}" cannot be loaded (${status.reason ?? 'unknown reason'}). ` +
    `Documents are processed without embeddings until it can. Fix: ${fix}; then run ` +
    '`docpipe reprocess --project ID --stage embed --missing` to embed the documents that were skipped.'
  );
}
