import { describe, expect, it } from 'vitest';
import { embeddingUnavailableWarning } from '../../../src/pipeline/embed/index.js';

const status = (code: string | undefined) => ({
  state: 'unavailable' as const,
  modelId: 'Xenova/all-MiniLM-L6-v2',
  reason: 'why',
  ...(code ? { code } : {}),
});

describe('embeddingUnavailableWarning', () => {
  it('names the folder, the variables to change and the catch-up command', () => {
    const off = embeddingUnavailableWarning(status('not_found'), { modelDir: '/srv/models/', allowDownload: false });
    expect(off).toContain('"Xenova/all-MiniLM-L6-v2" cannot be loaded (why)');
    expect(off).toContain('/srv/models/Xenova/all-MiniLM-L6-v2 (EMBEDDING_MODEL_DIR)');
    expect(off).toContain('set ALLOW_MODEL_DOWNLOAD=true');
    expect(off).toContain('docpipe reprocess --project ID --stage embed --missing');

    const failed = embeddingUnavailableWarning(status('download_failed'), {
      modelDir: '/srv/models',
      allowDownload: true,
    });
    expect(failed).toContain('could not be downloaded');
    expect(failed).toContain(
      '/srv/models/Xenova/all-MiniLM-L6-v2 (EMBEDDING_MODEL_DIR) and set ALLOW_MODEL_DOWNLOAD=false',
    );
  });

  it('points at the files or the runtime when those are the cause', () => {
    expect(embeddingUnavailableWarning(status('corrupt'), { modelDir: '/m', allowDownload: true })).toContain(
      'replace the damaged files in /m/Xenova/all-MiniLM-L6-v2',
    );
    expect(embeddingUnavailableWarning(status('runtime'), { modelDir: '/m', allowDownload: true })).toContain(
      'onnxruntime-node',
    );
  });
});
