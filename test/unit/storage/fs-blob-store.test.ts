// The file blob store on a real temporary directory: the shared blob store contract, plus what
// only a file system has (directories removed behind the store's back are made again).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../../src/storage/blob-store.js';
import { removeFile } from '../../../src/storage/fs-blob-gc.js';
import { createFsBlobStore } from '../../../src/storage/fs-blob-store.js';
import { blobStoreContract } from './blob-store-contract.js';

const pathOf = (root: string, key: string) => join(root, key.slice(0, 2), key.slice(2, 4), key);
const listTmp = (root: string) => (existsSync(join(root, 'tmp')) ? readdirSync(join(root, 'tmp')) : []);

blobStoreContract('file store', async () => {
  const root = mkdtempSync(join(tmpdir(), 'docpipe-blobs-'));
  return {
    store: createFsBlobStore(root),
    leftovers: async () => listTmp(root),
    async leavePartialUpload() {
      mkdirSync(join(root, 'tmp'), { recursive: true });
      writeFileSync(join(root, 'tmp', 'partial-upload'), 'half');
    },
    async interruptRemoval(key) {
      renameSync(pathOf(root, key), join(root, 'tmp', `trash-${key}-1-abcd`));
    },
    async close() {
      rmSync(root, { recursive: true, force: true });
    },
  };
});

describe('file blob store', () => {
  let root: string;
  let store: BlobStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'docpipe-blobs-'));
    store = createFsBlobStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps one hold link per intake in its temporary folder, and leaves only that folder after a refused upload', async () => {
    const blob = await store.putBuffer(randomBytes(100));
    expect(listTmp(root)).toHaveLength(1);
    await store.release(blob);
    expect(listTmp(root)).toEqual([]);
    await expect(
      store.put((await import('node:stream')).Readable.from([randomBytes(3000)]), { maxBytes: 10 }),
    ).rejects.toThrow();
    expect(readdirSync(root).sort()).toEqual([blob.key.slice(0, 2), 'tmp'].sort());
  });

  it('makes its directories again when they are removed while it runs', async () => {
    const data = randomBytes(100);
    const first = await store.putBuffer(data);
    // Both directories are known to the store now; take them away and store the same bytes.
    rmSync(join(root, 'tmp'), { recursive: true });
    rmSync(join(root, first.key.slice(0, 2)), { recursive: true });
    const again = await store.putBuffer(data);
    expect(again.key).toBe(first.key);
    expect(existsSync(pathOf(root, first.key))).toBe(true);
    expect((await store.read(again.key)).equals(data)).toBe(true);
  });
});

describe('removeFile', () => {
  it('removes a file, accepts one already gone, and refuses a directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-rm-'));
    try {
      const f = join(dir, 'f');
      writeFileSync(f, 'x');
      removeFile(f);
      expect(existsSync(f)).toBe(false);
      expect(() => removeFile(f)).not.toThrow();
      mkdirSync(join(dir, 'd'));
      expect(() => removeFile(join(dir, 'd'))).toThrow();
      expect(existsSync(join(dir, 'd'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
