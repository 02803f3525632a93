import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { link, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from './blob-store.js';
import { releaseHold, removeFile, removeIfUnused, removeLastLink, sweepFiles, type GcContext } from './fs-blob-gc.js';

const HEAD_BYTES = 64 * 1024;

/** Blobs up to this size are read with one synchronous call; larger ones asynchronously. */
const SYNC_READ_MAX = 4 * 1024 * 1024;

/**
 * Writes each chunk with a synchronous call as it arrives (the upload still streams: memory
 * holds one chunk at a time). Why not fs.createWriteStream: every asynchronous file call is a
 * round trip through libuv's thread pool, and on a small virtual machine that wake-up costs far
 * more than the write itself. Measured on the 2-core machine this service is benchmarked on,
 * for a 6 KB file: open/write/close/rename through the thread pool 390 µs of CPU, synchronous
 * 76 µs; reading it back 199 µs against 18 µs. (The final rename is the exception, see put.) A chunk is what the source yields (64 KB pieces
 * from the upload parser).
 */
class SyncFileSink extends Writable {
  /** `fd`: a file opened for writing, owned (and closed) by the sink from now on. */
  constructor(
    private fd: number | null,
    private readonly onChunk: (chunk: Buffer) => void,
  ) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    try {
      this.onChunk(chunk);
      let off = 0;
      while (off < chunk.length) off += writeSync(this.fd as number, chunk, off);
      cb();
    } catch (err) {
      cb(err as Error);
    }
  }

  override _final(cb: (err?: Error | null) => void): void {
    try {
      const fd = this.fd as number;
      this.fd = null; // never closed twice, even if this close fails
      closeSync(fd);
      cb();
    } catch (err) {
      cb(err as Error);
    }
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        /* already failing */
      }
      this.fd = null;
    }
    cb(err);
  }
}

export function createFsBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error('invalid blob key');
    return join(root, key.slice(0, 2), key.slice(2, 4), key);
  };
  const tmpDir = join(root, 'tmp');
  // Directories known to exist: a mkdir per upload is another system call for nothing. If one
  // is removed behind our back, the failing call below forgets it and the retry makes it again.
  const made = new Set<string>();
  const ensureDir = (dir: string) => {
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  };
  const withDirs = async <T>(dirs: string[], fn: () => T | Promise<T>): Promise<T> => {
    for (const d of dirs) ensureDir(d);
    try {
      return await fn();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      for (const d of dirs) made.delete(d);
      for (const d of dirs) ensureDir(d);
      return await fn();
    }
  };

  async function put(source: Readable, opts: { maxBytes: number }): Promise<StoredBlob> {
    const tmp = join(tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const headParts: Buffer[] = [];
    let headLen = 0;
    const sink = new SyncFileSink(await withDirs([tmpDir], () => openSync(tmp, 'wx')), (chunk) => {
      size += chunk.length;
      if (size > opts.maxBytes) throw new BlobTooLargeError(opts.maxBytes);
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
      if ((source as Readable & { truncated?: boolean }).truncated) throw new BlobTooLargeError(opts.maxBytes);
    } catch (err) {
      await removeLastLink(tmp);
      throw err;
    }
    const sha256 = hash.digest('hex');
    const dest = pathOf(sha256);
    // Linking (not renaming) leaves the temporary name as this intake's hold on the new file;
    // when the bytes are already stored, a fresh link to the existing file is the hold instead.
    // Link calls stay asynchronous for the reason the rename used to: under a busy database on
    // the same file system they can wait on the journal.
    let hold: string | undefined;
    try {
      for (let attempt = 0; hold === undefined && attempt < 5; attempt++) {
        try {
          await withDirs([join(dest, '..')], () => link(tmp, dest));
          hold = tmp;
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        const extra = join(tmpDir, `hold-${Date.now()}-${randomBytes(6).toString('hex')}`);
        try {
          await link(dest, extra);
          hold = extra;
        } catch (err) {
          // The existing file was removed in between: place ours on the next pass.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      if (hold === undefined) throw new Error('could not place the blob (it kept disappearing)');
    } catch (err) {
      await removeLastLink(tmp);
      throw err;
    }
    // The bytes were stored already: this copy's temporary name is its only link.
    if (hold !== tmp) await removeLastLink(tmp);
    return { key: sha256, sha256, size, head: Buffer.concat(headParts), hold };
  }

  const gc: GcContext = { root, tmpDir, pathOf, withDirs };

  return {
    put,
    async putBuffer(data) {
      const { Readable } = await import('node:stream');
      return put(Readable.from([data]), { maxBytes: Number.MAX_SAFE_INTEGER });
    },
    async read(key) {
      const path = pathOf(key);
      return statSync(path).size <= SYNC_READ_MAX ? readFileSync(path) : readFile(path);
    },
    stream: (key) => createReadStream(pathOf(key)),
    async exists(key) {
      try {
        await stat(pathOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      await removeLastLink(pathOf(key));
    },
    async release(blob) {
      if (!blob.hold) return;
      const hold = blob.hold;
      blob.hold = undefined;
      await releaseHold(gc, blob.key, hold);
    },
    async discard(blob, inUse) {
      if (blob.hold) {
        const hold = blob.hold;
        blob.hold = undefined;
        removeFile(hold);
      }
      return removeIfUnused(gc, blob.key, inUse);
    },
    removeIfUnused: (key, inUse) => removeIfUnused(gc, key, inUse),
    sweep: (opts) => sweepFiles(gc, opts),
  };
}
