import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from './blob-store.js';
import { dropHold, releaseHold, removeIfUnused, sweepObjects, type S3GcContext } from './s3-blob-gc.js';
import { isMissing, s3Layout, s3Objects } from './s3-objects.js';
import { MIN_PART_BYTES, S3UploadSink } from './s3-upload.js';

const HEAD_BYTES = 64 * 1024;

/** The largest object one CopyObject can place: the most this store accepts. */
export const S3_MAX_BLOB_BYTES = 5 * 1024 * 1024 * 1024;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket ('' for the bucket's root). */
  prefix?: string;
  /** A client of your own; otherwise one is made from `client` settings. */
  s3?: S3Client;
  client?: S3ClientConfig;
  /** Bytes per part of a multipart upload (and the size up to which one PutObject is used). Default 8 MiB. */
  partBytes?: number;
}

/** Parses `s3://bucket/prefix` (the prefix may be empty). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new Error(`not an s3://bucket/prefix URL: ${url}`);
  return { bucket: m[1], prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

const invalid = () => new Error('invalid blob key');
const checkKey = (key: string) => {
  if (!/^[0-9a-f]{64}$/.test(key)) throw invalid();
  return key;
};

/** "Not found" as the file store reports it, so callers need not know which store they have. */
function notFound(key: string, cause: unknown): Error {
  return Object.assign(new Error(`blob ${key} not found`, { cause }), { code: 'ENOENT' });
}

/**
 * Blobs in an S3-compatible bucket, with the file store's contract: streamed in while hashed
 * (sha256, content addressed, size limit enforced as the bytes arrive), streamed out, held while
 * an intake is in flight, removed only when unused (see s3-blob-gc.ts). Uploads go to a
 * temporary object first because the content address is known only at the end; a server-side
 * copy then places it. That copy limits a blob to 5 GiB.
 */
export function createS3BlobStore(opts: S3BlobStoreOptions): BlobStore & { client: S3Client } {
  const client = opts.s3 ?? new S3Client(opts.client ?? {});
  const Bucket = opts.bucket;
  const layout = s3Layout(opts.prefix ?? '');
  const objects = s3Objects(client, Bucket);
  const partBytes = Math.max(MIN_PART_BYTES, opts.partBytes ?? 8 * 1024 * 1024);
  const gc: S3GcContext = { objects, layout };

  async function put(source: Readable, o: { maxBytes: number }): Promise<StoredBlob> {
    const maxBytes = Math.min(o.maxBytes, S3_MAX_BLOB_BYTES);
    const id = `${Date.now()}-${randomBytes(6).toString('hex')}`;
    const hash = createHash('sha256');
    let size = 0;
    const headParts: Buffer[] = [];
    let headLen = 0;
    const sink = new S3UploadSink(client, { Bucket, Key: layout.tmp(id) }, partBytes, (chunk) => {
      size += chunk.length;
      if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
      hash.update(chunk);
      if (headLen < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headLen);
        headParts.push(part);
        headLen += part.length;
      }
    });
    try {
      await pipeline(source, sink);
      // @fastify/multipart truncates instead of erroring when its own limit is hit.
      if ((source as Readable & { truncated?: boolean }).truncated) throw new BlobTooLargeError(maxBytes);
    } catch (err) {
      await sink.abort();
      await objects.del(layout.tmp(id)).catch(() => undefined);
      throw err;
    }
    const key = hash.digest('hex');
    // The hold goes first: a removal that has not looked for holds yet will see it, and one
    // that already moved the blob aside makes the check below place this copy.
    try {
      await objects.putEmpty(layout.hold(key, id));
      if (!(await objects.exists(layout.blob(key)))) await objects.copy(layout.tmp(id), layout.blob(key));
    } catch (err) {
      await dropHold(gc, key, id).catch(() => undefined);
      throw err;
    }
    return { key, sha256: key, size, head: Buffer.concat(headParts), hold: id };
  }

  return {
    client,
    put,
    putBuffer: (data) => put(Readable.from([data]), { maxBytes: S3_MAX_BLOB_BYTES }),
    async read(key) {
      let body: Readable;
      try {
        body = await objects.get(layout.blob(checkKey(key)));
      } catch (err) {
        throw isMissing(err) ? notFound(key, err) : err;
      }
      const parts: Buffer[] = [];
      for await (const chunk of body) parts.push(chunk as Buffer);
      return Buffer.concat(parts);
    },
    stream(key) {
      const out = new PassThrough();
      const path = layout.blob(checkKey(key));
      objects.get(path).then(
        (body) => {
          pipeline(body, out).catch((err: unknown) => out.destroy(err as Error));
        },
        (err: unknown) => out.destroy(isMissing(err) ? notFound(key, err) : (err as Error)),
      );
      return out;
    },
    exists: async (key) => objects.exists(layout.blob(checkKey(key))),
    async delete(key) {
      await objects.del(layout.blob(checkKey(key)));
    },
    async release(blob) {
      if (!blob.hold) return;
      const id = blob.hold;
      blob.hold = undefined;
      await releaseHold(gc, blob.key, id);
    },
    async discard(blob, inUse) {
      if (blob.hold) {
        const id = blob.hold;
        blob.hold = undefined;
        await dropHold(gc, blob.key, id);
      }
      return removeIfUnused(gc, blob.key, inUse);
    },
    removeIfUnused: async (key, inUse) => removeIfUnused(gc, checkKey(key), inUse),
    sweep: (o) => sweepObjects(gc, o),
    async close() {
      if (!opts.s3) client.destroy();
    },
  };
}
