import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Writable } from 'node:stream';

/** S3's smallest part (every part but the last of a multipart upload). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * Streams bytes to one S3 object: a single PutObject when everything fits in one part (most
 * documents), a multipart upload otherwise. Memory holds at most one part; the next chunk is
 * accepted only once the previous part is stored, so a slow bucket slows the upload down
 * instead of filling memory. `onChunk` sees every chunk first and may throw to stop the upload
 * (the size limit); `abort()` then drops an unfinished multipart upload.
 */
export class S3UploadSink extends Writable {
  private parts: Buffer[] = [];
  private buffered = 0;
  private uploadId: string | undefined;
  private readonly done: { ETag: string; PartNumber: number }[] = [];

  constructor(
    private readonly client: S3Client,
    private readonly target: { Bucket: string; Key: string },
    private readonly partBytes: number,
    private readonly onChunk: (chunk: Buffer) => void,
  ) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    try {
      this.onChunk(chunk);
    } catch (err) {
      cb(err as Error);
      return;
    }
    this.parts.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.partBytes) {
      cb();
      return;
    }
    this.flushPart().then(
      () => cb(),
      (err: Error) => cb(err),
    );
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.finish().then(
      () => cb(),
      (err: Error) => cb(err),
    );
  }

  /** Drops a multipart upload that did not complete (safe to call more than once). */
  async abort(): Promise<void> {
    const uploadId = this.uploadId;
    this.uploadId = undefined;
    this.parts = [];
    if (!uploadId) return;
    await this.client
      .send(new AbortMultipartUploadCommand({ ...this.target, UploadId: uploadId }))
      .catch(() => undefined);
  }

  private take(): Buffer {
    const body = Buffer.concat(this.parts, this.buffered);
    this.parts = [];
    this.buffered = 0;
    return body;
  }

  private async flushPart(): Promise<void> {
    if (!this.uploadId) {
      const res = await this.client.send(new CreateMultipartUploadCommand(this.target));
      this.uploadId = res.UploadId;
    }
    const PartNumber = this.done.length + 1;
    const res = await this.client.send(
      new UploadPartCommand({ ...this.target, UploadId: this.uploadId, PartNumber, Body: this.take() }),
    );
    this.done.push({ ETag: res.ETag!, PartNumber });
  }

  private async finish(): Promise<void> {
    if (!this.uploadId) {
      await this.client.send(new PutObjectCommand({ ...this.target, Body: this.take() }));
      return;
    }
    if (this.buffered > 0) await this.flushPart();
    await this.client.send(
      new CompleteMultipartUploadCommand({
        ...this.target,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.done },
      }),
    );
    this.uploadId = undefined;
  }
}
