// The file blob store on a real temporary directory: streamed writes land under their content
// address, oversized or failing uploads leave nothing behind, and directories removed behind the
// store's back are made again.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError, type BlobStore } from '../../../src/storage/blob-store.js';
import { createFsBlobStore } from '../../../src/storage/fs-blob-store.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('file blob store', () => {
  let root: string;
  let store: BlobStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'docpipe-blobs-'));
    store = createFsBlobStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores a multi-chunk stream under its sha256 with size and head, and reads it back', async () => {
    const chunks = Array.from({ length: 5 }, () => randomBytes(30_000));
    const all = Buffer.concat(chunks);
    const blob = await store.put(Readable.from(chunks), { maxBytes: 1_000_000 });
    expect(blob.key).toBe(sha(all));
    expect(blob.sha256).toBe(sha(all));
    expect(blob.size).toBe(all.length);
    expect(blob.head.equals(all.subarray(0, 64 * 1024))).toBe(true);
    expect((await store.read(blob.key)).equals(all)).toBe(true);
    expect(await store.exists(blob.key)).toBe(true);
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
  });

  it('reads a blob larger than the synchronous-read limit', async () => {
    const big = randomBytes(5 * 1024 * 1024);
    const blob = await store.putBuffer(big);
    expect((await store.read(blob.key)).equals(big)).toBe(true);
  });

  it('refuses a stream over the limit and leaves no file', async () => {
    const chunks = Array.from({ length: 4 }, () => randomBytes(1000));
    await expect(store.put(Readable.from(chunks), { maxBytes: 2500 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect(readdirSync(root)).toEqual(['tmp']);
  });

  it('a source that fails midway leaves no file', async () => {
    async function* failing() {
      yield randomBytes(1000);
      throw new Error('connection reset');
    }
    await expect(store.put(Readable.from(failing()), { maxBytes: 1_000_000 })).rejects.toThrow('connection reset');
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
  });

  it('the same bytes twice give one file; delete removes it', async () => {
    const data = randomBytes(2000);
    const [a, b] = await Promise.all([store.putBuffer(data), store.putBuffer(data)]);
    expect(a.key).toBe(b.key);
    await store.delete(a.key);
    expect(await store.exists(a.key)).toBe(false);
    await expect(store.read(a.key)).rejects.toThrow();
  });

  it('makes its directories again when they are removed while it runs', async () => {
    const data = randomBytes(100);
    const first = await store.putBuffer(data);
    // Both directories are known to the store now; take them away and store the same bytes.
    rmSync(join(root, 'tmp'), { recursive: true });
    rmSync(join(root, first.key.slice(0, 2)), { recursive: true });
    const again = await store.putBuffer(data);
    expect(again.key).toBe(first.key);
    expect(existsSync(join(root, first.key.slice(0, 2), first.key.slice(2, 4), first.key))).toBe(true);
    expect((await store.read(again.key)).equals(data)).toBe(true);
  });

  it('refuses keys that are not content addresses', async () => {
    await expect(store.read('../etc/passwd')).rejects.toThrow('invalid blob key');
  });
});
