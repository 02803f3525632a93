// The S3 blob store against s3rver started in this process, through the real AWS SDK: the
// shared blob store contract (each test under its own key prefix), plus what only S3 has:
// multipart uploads for large blobs, the size limit stopping one midway, and the key layout.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError } from '../../../src/storage/blob-store.js';
import { createS3BlobStore, parseS3Url } from '../../../src/storage/s3-blob-store.js';
import { startLocalS3, type LocalS3 } from '../../helpers/s3.js';
import { blobStoreContract, sha } from './blob-store-contract.js';

let s3: LocalS3;
let client: S3Client;
beforeAll(async () => {
  s3 = await startLocalS3();
  client = s3.client();
});
afterAll(async () => {
  await s3?.close();
});

let n = 0;
async function keysUnder(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
    );
    out.push(...(page.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1)));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out.sort();
}

blobStoreContract('S3 store', async () => {
  const prefix = `contract-${++n}-${randomBytes(3).toString('hex')}`;
  return {
    store: createS3BlobStore({ bucket: s3.bucket, prefix, s3: client }),
    leftovers: async () => (await keysUnder(prefix)).filter((k) => !k.startsWith('blobs/')),
    async leavePartialUpload() {
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/tmp/partial-upload`, Body: 'half' }));
    },
    async interruptRemoval(key) {
      const from = `${prefix}/blobs/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
      await client.send(
        new CopyObjectCommand({
          Bucket: s3.bucket,
          Key: `${prefix}/trash/${key}/1-abcd`,
          CopySource: `${s3.bucket}/${from}`,
        }),
      );
      await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: from }));
    },
    async close() {
      /* the prefix is left in the server's directory, removed with it */
    },
  };
});

describe('S3 blob store', () => {
  it('parses s3://bucket/prefix', () => {
    expect(parseS3Url('s3://docs-bucket/a/b/')).toEqual({ bucket: 'docs-bucket', prefix: 'a/b' });
    expect(parseS3Url('s3://docs-bucket')).toEqual({ bucket: 'docs-bucket', prefix: '' });
    expect(() => parseS3Url('s3://Bad_Bucket/x')).toThrow('not an s3://bucket/prefix URL');
    expect(() => parseS3Url('https://docs-bucket/x')).toThrow();
  });

  it('streams a large blob up in parts and keeps it under blobs/aa/bb/<sha256>', async () => {
    const prefix = `multipart-${randomBytes(3).toString('hex')}`;
    const store = createS3BlobStore({ bucket: s3.bucket, prefix, s3: client, partBytes: 5 * 1024 * 1024 });
    const chunks = Array.from({ length: 12 }, () => randomBytes(1024 * 1024));
    const all = Buffer.concat(chunks);
    const blob = await store.put(Readable.from(chunks), { maxBytes: 20 * 1024 * 1024 });
    expect(blob.key).toBe(sha(all));
    await store.release(blob);
    expect(await keysUnder(prefix)).toEqual([`blobs/${blob.key.slice(0, 2)}/${blob.key.slice(2, 4)}/${blob.key}`]);
    expect((await store.read(blob.key)).equals(all)).toBe(true);
  });

  it('stops a multipart upload that passes the limit and leaves nothing', async () => {
    const prefix = `toolarge-${randomBytes(3).toString('hex')}`;
    const store = createS3BlobStore({ bucket: s3.bucket, prefix, s3: client, partBytes: 5 * 1024 * 1024 });
    const chunks = Array.from({ length: 8 }, () => randomBytes(1024 * 1024));
    await expect(store.put(Readable.from(chunks), { maxBytes: 7 * 1024 * 1024 })).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
    expect(await keysUnder(prefix)).toEqual([]);
  });

  it('a wrong credential is an error, not an empty store', async () => {
    const { S3Client } = await import('@aws-sdk/client-s3');
    const bad = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'nope', secretAccessKey: 'nope' },
    });
    const store = createS3BlobStore({ bucket: s3.bucket, prefix: 'x', s3: bad });
    await expect(store.exists(sha(Buffer.from('x')))).rejects.toThrow();
    bad.destroy();
  });
});
