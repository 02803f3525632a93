// A local S3-compatible server (s3rver, in this process) that the real AWS SDK talks to: the
// S3 blob store's tests and the end-to-end test with BLOB_STORE_URL=s3://… use it.
import { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The settings a docpipe process needs (credentials are s3rver's fixed pair). */
  env(prefix: string): Record<string, string>;
  client(): S3Client;
  close(): Promise<void>;
}

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startLocalS3(bucket = 'docpipe-test'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'docpipe-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  // s3rver keeps objects as files and, after a delete, removes the key's parent folders once empty.
  // A put under the same prefix can make its folder just before that and then fail to open its
  // file (ENOENT on a write stream nobody listens to: an uncaught exception in this process, seen
  // in the scale-out test, whose blob store writes and deletes temporary objects side by side).
  // Real S3 has no folders: deletes here remove the files only.
  const store = server.store;
  store.deleteObject = async (b, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        unlink(store.getResourcePath(b, key, resource)).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        }),
      ),
    );
  };
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    bucket,
    env: (prefix) => ({
      BLOB_STORE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    }),
    client() {
      const c = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) c.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
