import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from './blob-store.js';

const HEAD_BYTES = 64 * 1024;

export function createFsBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error('invalid blob key');
    return join(root, key.slice(0, 2), key.slice(2, 4), key);
  };
  const tmpDir = join(root, 'tmp');

  async function put(source: Readable, opts: { maxBytes: number }): Promise<StoredBlob> {
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${Date.now()}-${randomBytes(6).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const headParts: Buffer[] = [];
    let headLen = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > opts.maxBytes) return cb(new BlobTooLargeError(opts.maxBytes));
        hash.update(chunk);
        if (headLen < HEAD_BYTES) {
          const part = chunk.subarray(0, HEAD_BYTES - headLen);
          headParts.push(part);
          headLen += part.length;
        }
        cb(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(tmp));
      // @fastify/multipart truncates instead of erroring when its own limit is hit.
      if ((source as Readable & { truncated?: boolean }).truncated) throw new BlobTooLargeError(opts.maxBytes);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const sha256 = hash.digest('hex');
    const dest = pathOf(sha256);
    await mkdir(join(dest, '..'), { recursive: true });
    await rename(tmp, dest);
    return { key: sha256, sha256, size, head: Buffer.concat(headParts) };
  }

  return {
    put,
    async putBuffer(data) {
      const { Readable } = await import('node:stream');
      return put(Readable.from([data]), { maxBytes: Number.MAX_SAFE_INTEGER });
    },
    read: (key) => readFile(pathOf(key)),
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
      await rm(pathOf(key), { force: true });
    },
  };
}
