// The file blob store on a real temporary directory: streamed writes land under their content
// address, oversized or failing uploads leave nothing behind, and directories removed behind the
// store's back are made again.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
    // Held until the intake settles it; released, nothing is left in the temporary folder.
    expect(readdirSync(join(root, 'tmp'))).toHaveLength(1);
    await store.release(blob);
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect((await store.read(blob.key)).equals(all)).toBe(true);
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

  describe('conditional removal and holds', () => {
    const none = async () => new Set<string>();
    const all = (key: string) => async (keys: string[]) => new Set(keys.filter((k) => k === key));
    const pathOf = (key: string) => join(root, key.slice(0, 2), key.slice(2, 4), key);

    it('discard removes an unused file; release keeps it; removeIfUnused respects rows', async () => {
      const a = await store.putBuffer(randomBytes(500));
      expect(await store.discard(a, none)).toBe(true);
      expect(await store.exists(a.key)).toBe(false);
      const b = await store.putBuffer(randomBytes(500));
      await store.release(b);
      expect(await store.removeIfUnused(b.key, all(b.key))).toBe(false);
      expect(await store.exists(b.key)).toBe(true);
      expect(await store.removeIfUnused(b.key, none)).toBe(true);
      expect(await store.exists(b.key)).toBe(false);
      expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    });

    it('a file an intake holds is never removed, even with no row referring to it', async () => {
      const data = randomBytes(800);
      const first = await store.putBuffer(data);
      await store.release(first);
      const inFlight = await store.putBuffer(data); // same bytes, not released yet
      expect(await store.removeIfUnused(first.key, none)).toBe(false);
      expect(await store.discard(first, none)).toBe(false);
      expect((await store.read(first.key)).equals(data)).toBe(true);
      await store.release(inFlight);
      expect(await store.removeIfUnused(first.key, none)).toBe(true);
    });

    it('an upload of the same bytes racing a removal keeps the file (hold taken during the first check)', async () => {
      const data = randomBytes(900);
      const old = await store.putBuffer(data);
      await store.release(old);
      let racing: Awaited<ReturnType<BlobStore['putBuffer']>> | undefined;
      const removed = await store.removeIfUnused(old.key, async () => {
        racing ??= await store.putBuffer(data);
        return new Set();
      });
      expect(removed).toBe(false);
      await store.release(racing!);
      expect((await store.read(old.key)).equals(data)).toBe(true);
    });

    it('an upload that stores, commits and releases while the file is moved aside keeps it', async () => {
      const data = randomBytes(700);
      const old = await store.putBuffer(data);
      await store.release(old);
      let calls = 0;
      let committed = false;
      const removed = await store.removeIfUnused(old.key, async (keys) => {
        calls++;
        if (calls === 2) {
          // The file is out of place now: a new intake stores the bytes, its row commits, it releases.
          const again = await store.putBuffer(data);
          committed = true;
          await store.release(again);
        }
        return new Set(committed ? keys : []);
      });
      expect(calls).toBe(2);
      expect(removed).toBe(false);
      expect((await store.read(old.key)).equals(data)).toBe(true);
      expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    });

    it('a release puts the file back when a removal took it before the row committed', async () => {
      const data = randomBytes(600);
      const held = await store.putBuffer(data);
      // A removal that ran without seeing the hold (a tool, or an older process) took the file.
      await store.delete(held.key);
      expect(await store.exists(held.key)).toBe(false);
      await store.release(held);
      expect((await store.read(held.key)).equals(data)).toBe(true);
    });

    it('the sweep removes old files nothing refers to, keeps referenced, held and young ones, and cleans the temporary folder', async () => {
      const orphan = await store.putBuffer(randomBytes(100));
      await store.release(orphan);
      const used = await store.putBuffer(randomBytes(100));
      await store.release(used);
      const held = await store.putBuffer(randomBytes(100));
      // Leftovers of a crashed process: a partial upload, and a removal interrupted after moving a used file aside.
      writeFileSync(join(root, 'tmp', 'partial-upload'), 'half');
      const victim = await store.putBuffer(randomBytes(100));
      await store.release(victim);
      renameSync(pathOf(victim.key), join(root, 'tmp', `trash-${victim.key}-1-abcd`));
      const inUse = async (keys: string[]) => new Set(keys.filter((k) => k === used.key || k === victim.key));

      // Nothing is old enough yet.
      expect(await store.sweep({ olderThanMs: 3_600_000, inUse })).toEqual({ removed: 0, temporary: 0 });
      expect(await store.exists(orphan.key)).toBe(true);

      await new Promise((r) => setTimeout(r, 20)); // setup wait: let the files' change times pass the cutoff
      const res = await store.sweep({ olderThanMs: 10, inUse });
      expect(await store.exists(orphan.key)).toBe(false);
      expect(await store.exists(used.key)).toBe(true);
      expect(await store.exists(held.key)).toBe(true);
      expect(await store.exists(victim.key)).toBe(true);
      expect(res.removed).toBe(1);
      // The hold on `held` is older than the cutoff as well, so it counts as a crashed process's
      // hold and goes; dropping it touched the file's change time, so the file waits a sweep more.
      expect(readdirSync(join(root, 'tmp'))).toEqual([]);
      expect(res.temporary).toBe(3);
    });
  });
});
