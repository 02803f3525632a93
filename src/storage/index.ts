import { join } from 'node:path';
import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { createFsBlobStore } from './fs-blob-store.js';
import { lazy } from '../lib/lazy.js';

// Loaded on first use: the AWS SDK costs ~20 MB that a process storing files on disk never needs.
const loadS3 = lazy(() => import('./s3-blob-store.js'));

export type { BlobStore } from './blob-store.js';

/** The blob store the configuration asks for: files in DATA_DIR/files, or an S3-compatible bucket. */
export function createBlobStore(config: Config): Promise<BlobStore> {
  return createStore(config, 'files', '');
}

/**
 * The store for report results: the same kind of store as documents' (so API and workers on
 * different machines share it), in a place of its own (DATA_DIR/reports, or `reports/` under
 * the bucket's prefix) so that each store's sweep only ever sees its own files.
 */
export function createReportFileStore(config: Config): Promise<BlobStore> {
  return createStore(config, 'reports', 'reports');
}

async function createStore(config: Config, dir: string, subPrefix: string): Promise<BlobStore> {
  if (!config.BLOB_STORE_URL) return createFsBlobStore(join(config.dataDir, dir));
  const { createS3BlobStore, parseS3Url } = await loadS3();
  const parsed = parseS3Url(config.BLOB_STORE_URL);
  const prefix = [parsed.prefix, subPrefix].filter(Boolean).join('/');
  return createS3BlobStore({
    bucket: parsed.bucket,
    prefix,
    client: {
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
      // Many S3-compatible servers refuse the SDK's newer default checksum headers; content is
      // addressed by its sha256 anyway. AWS itself keeps the SDK's defaults.
      ...(config.S3_ENDPOINT
        ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
        : {}),
    },
  });
}
