import type { Readable } from 'node:stream';

export interface StoredBlob {
  /** Content address (sha256 hex). */
  key: string;
  sha256: string;
  size: number;
  /** The first bytes (up to 64 KiB), for type sniffing without reading the file again. */
  head: Buffer;
}

/**
 * Files by content address. Writes stream to a temporary name while hashing, then move into
 * place, so a crash never leaves a half-written file under a real key.
 */
export interface BlobStore {
  put(source: Readable, opts: { maxBytes: number }): Promise<StoredBlob>;
  putBuffer(data: Buffer): Promise<StoredBlob>;
  read(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}
