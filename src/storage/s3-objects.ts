import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';

/**
 * Where the S3 blob store keeps what, under the configured prefix:
 * - `blobs/aa/bb/<sha256>`: the files, by content address (as the file store's folders);
 * - `tmp/<id>`: an upload while it streams in (its key is known only at the end), then kept as
 *   the intake's copy until the row referring to the blob commits;
 * - `holds/<sha256>/<id>`: an empty marker per in-flight intake of that content (`id` names its
 *   `tmp/` copy): what link counts are in the file store;
 * - `trash/<sha256>/<stamp>`: a blob moved aside by a removal until it has re-checked.
 */
export interface S3Layout {
  blob(key: string): string;
  tmp(id: string): string;
  hold(key: string, id: string): string;
  holds(key?: string): string;
  trash(key?: string, stamp?: string): string;
  tmpPrefix: string;
  blobPrefix: string;
}

export function s3Layout(prefix: string): S3Layout {
  const p = prefix.replace(/^\/+|\/+$/g, '');
  const base = p ? `${p}/` : '';
  return {
    blob: (key) => `${base}blobs/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`,
    tmp: (id) => `${base}tmp/${id}`,
    hold: (key, id) => `${base}holds/${key}/${id}`,
    holds: (key) => `${base}holds/${key ? `${key}/` : ''}`,
    trash: (key, stamp) => `${base}trash/${key ? `${key}/${stamp ?? ''}` : ''}`,
    tmpPrefix: `${base}tmp/`,
    blobPrefix: `${base}blobs/`,
  };
}

export interface Listed {
  key: string;
  lastModified: number;
}

const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
/** True for "no such object" in the shapes S3 and compatible servers answer it. */
export const isMissing = (err: unknown) =>
  status(err) === 404 || ['NoSuchKey', 'NotFound'].includes((err as Error).name);

/** The handful of object operations the store and its collector use, bound to one bucket. */
export function s3Objects(client: S3Client, Bucket: string) {
  return {
    async exists(Key: string): Promise<boolean> {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    /** Server-side copy (no bytes through this process); false when the source is gone. */
    async copy(from: string, to: string): Promise<boolean> {
      try {
        // The copy source is `bucket/key` with the key URL-encoded segment by segment.
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: to,
            CopySource: `${Bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
          }),
        );
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async putEmpty(Key: string): Promise<void> {
      await client.send(new PutObjectCommand({ Bucket, Key, Body: Buffer.alloc(0) }));
    },
    /** Deleting what is not there succeeds (S3 semantics). */
    async del(Key: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
    async get(Key: string): Promise<Readable> {
      const res = await client.send(new GetObjectCommand({ Bucket, Key }));
      return res.Body as Readable;
    },
    async *list(Prefix: string): AsyncGenerator<Listed> {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        for (const o of page.Contents ?? []) yield { key: o.Key!, lastModified: o.LastModified?.getTime() ?? 0 };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async any(Prefix: string): Promise<boolean> {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, MaxKeys: 1 }));
      return (page.KeyCount ?? page.Contents?.length ?? 0) > 0;
    },
  };
}

export type S3Objects = ReturnType<typeof s3Objects>;
