import type { Readable } from 'node:stream';

export interface StoredBlob {
  /** Content address (sha256 hex). */
  key: string;
  sha256: string;
  size: number;
  /** The first bytes (up to 64 KiB), for type sniffing without reading the file again. */
  head: Buffer;
  /**
   * The store's in-flight hold on the file (opaque). Until `release` or `discard`, no
   * `removeIfUnused` or sweep deletes the file, even though no row refers to it yet.
   */
  hold?: string;
}

/** Says which of the given keys a stored row still refers to. */
export type KeysInUse = (keys: string[]) => Promise<Set<string>>;

export interface SweepResult {
  /** Content-addressed files no row referred to, removed. */
  removed: number;
  /** Leftovers in the temporary folder (partial uploads, holds of crashed processes), removed. */
  temporary: number;
}

/**
 * Files by content address. Writes stream to a temporary name while hashing, then move into
 * place, so a crash never leaves a half-written file under a real key.
 *
 * Several documents can share one file, and an upload of bytes already stored lands on the same
 * file, so removal is always conditional: `removeIfUnused` asks whether a row refers to the key
 * and whether an intake holds it (`put` returns a held blob), and re-checks both after taking
 * the file out of place, so a delete racing an upload of the same bytes never loses the file.
 */
export interface BlobStore {
  /** Stores the bytes and returns a held blob: call `release` or `discard` when done with it. */
  put(source: Readable, opts: { maxBytes: number }): Promise<StoredBlob>;
  putBuffer(data: Buffer): Promise<StoredBlob>;
  /** A row referring to the blob is committed: drops the hold, putting the file back if a racing delete took it. */
  release(blob: StoredBlob): Promise<void>;
  /** The blob will not be referred to by this intake: drops the hold and removes the file unless it is in use. */
  discard(blob: StoredBlob, inUse: KeysInUse): Promise<boolean>;
  /** Removes the file unless a row refers to it or an intake holds it; true when removed. */
  removeIfUnused(key: string, inUse: KeysInUse): Promise<boolean>;
  /** Removes files older than `olderThanMs` that nothing refers to or holds, and stale temporary files. */
  sweep(opts: { olderThanMs: number; inUse: KeysInUse }): Promise<SweepResult>;
  read(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  exists(key: string): Promise<boolean>;
  /** Unconditional removal, for tests and tools; services use `removeIfUnused`. */
  delete(key: string): Promise<void>;
  /** Releases connections (the S3 store's client); the file store has none. */
  close?(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  override readonly name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}
