// What every blob store must do, run against each implementation (the file store on a temporary
// directory, the S3 store on an s3rver bucket): streamed, hashed, content-addressed writes with a
// size limit; reads; holds for in-flight intakes; removal only when unused, safe against an
// upload of the same bytes racing it; and the sweep of orphans and leftovers.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLargeError, type BlobStore, type StoredBlob } from '../../../src/storage/blob-store.js';

export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface BlobStoreHarness {
  store: BlobStore;
  /** Everything the store keeps besides placed blobs (uploads, holds, moved-aside blobs), by name. */
  leftovers(): Promise<string[]>;
  /** Leaves what a process that crashed during an upload would leave. */
  leavePartialUpload(): Promise<void>;
  /** Leaves what a removal interrupted after moving `key`'s blob aside would leave. */
  interruptRemoval(key: string): Promise<void>;
  close(): Promise<void>;
}

export function blobStoreContract(name: string, open: () => Promise<BlobStoreHarness>): void {
  describe(`${name}: blob store contract`, () => {
    let h: BlobStoreHarness;
    let store: BlobStore;
    beforeEach(async () => {
      h = await open();
      store = h.store;
    });
    afterEach(async () => {
      await h.close();
    });

    it('stores a multi-chunk stream under its sha256 with size and head, and reads it back', async () => {
      const chunks = Array.from({ length: 5 }, () => randomBytes(30_000));
      const all = Buffer.concat(chunks);
      const blob = await store.put(Readable.from(chunks), { maxBytes: 1_000_000 });
      expect(blob).toMatchObject({ key: sha(all), sha256: sha(all), size: all.length });
      expect(blob.head.equals(all.subarray(0, 64 * 1024))).toBe(true);
      expect((await store.read(blob.key)).equals(all)).toBe(true);
      expect(await store.exists(blob.key)).toBe(true);
      // Held until the intake settles it; released, nothing is left beside the blob.
      expect((await h.leftovers()).length).toBeGreaterThan(0);
      await store.release(blob);
      expect(await h.leftovers()).toEqual([]);
      const streamed: Buffer[] = [];
      for await (const c of store.stream(blob.key)) streamed.push(c as Buffer);
      expect(Buffer.concat(streamed).equals(all)).toBe(true);
    });

    it('reads back a 5 MiB blob', async () => {
      const big = randomBytes(5 * 1024 * 1024);
      const blob = await store.putBuffer(big);
      expect((await store.read(blob.key)).equals(big)).toBe(true);
    });

    it('refuses a stream over the limit and leaves nothing', async () => {
      const chunks = Array.from({ length: 4 }, () => randomBytes(1000));
      await expect(store.put(Readable.from(chunks), { maxBytes: 2500 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await h.leftovers()).toEqual([]);
      expect(await store.exists(sha(Buffer.concat(chunks)))).toBe(false);
    });

    it('a source that fails midway leaves nothing', async () => {
      async function* failing() {
        yield randomBytes(1000);
        throw new Error('connection reset');
      }
      await expect(store.put(Readable.from(failing()), { maxBytes: 1_000_000 })).rejects.toThrow('connection reset');
      expect(await h.leftovers()).toEqual([]);
    });

    it('the same bytes twice give one blob; delete removes it; a missing blob reads and streams as ENOENT', async () => {
      const data = randomBytes(2000);
      const [a, b] = await Promise.all([store.putBuffer(data), store.putBuffer(data)]);
      expect(a.key).toBe(b.key);
      await store.delete(a.key);
      expect(await store.exists(a.key)).toBe(false);
      await expect(store.read(a.key)).rejects.toMatchObject({ code: 'ENOENT' });
      const s = store.stream(a.key);
      await expect(
        new Promise((resolve, reject) => {
          s.on('error', reject);
          s.on('end', resolve);
          s.resume();
        }),
      ).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses keys that are not content addresses', async () => {
      await expect(store.read('../etc/passwd')).rejects.toThrow('invalid blob key');
      await expect(store.removeIfUnused('../x', async () => new Set())).rejects.toThrow('invalid blob key');
    });

    describe('conditional removal and holds', () => {
      const none = async () => new Set<string>();
      const all = (key: string) => async (keys: string[]) => new Set(keys.filter((k) => k === key));

      it('discard removes an unused blob; release keeps it; removeIfUnused respects rows', async () => {
        const a = await store.putBuffer(randomBytes(500));
        expect(await store.discard(a, none)).toBe(true);
        expect(await store.exists(a.key)).toBe(false);
        const b = await store.putBuffer(randomBytes(500));
        await store.release(b);
        expect(await store.removeIfUnused(b.key, all(b.key))).toBe(false);
        expect(await store.exists(b.key)).toBe(true);
        expect(await store.removeIfUnused(b.key, none)).toBe(true);
        expect(await store.exists(b.key)).toBe(false);
        expect(await h.leftovers()).toEqual([]);
      });

      it('a blob an intake holds is never removed, even with no row referring to it', async () => {
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

      it('an upload of the same bytes racing a removal keeps the blob (hold taken during the first check)', async () => {
        const data = randomBytes(900);
        const old = await store.putBuffer(data);
        await store.release(old);
        let racing: StoredBlob | undefined;
        const removed = await store.removeIfUnused(old.key, async () => {
          racing ??= await store.putBuffer(data);
          return new Set();
        });
        expect(removed).toBe(false);
        await store.release(racing!);
        expect((await store.read(old.key)).equals(data)).toBe(true);
      });

      it('an upload that stores, commits and releases while the blob is moved aside keeps it', async () => {
        const data = randomBytes(700);
        const old = await store.putBuffer(data);
        await store.release(old);
        let calls = 0;
        let committed = false;
        const removed = await store.removeIfUnused(old.key, async (keys) => {
          calls++;
          if (calls === 2) {
            // The blob is out of place now: a new intake stores the bytes, its row commits, it releases.
            const again = await store.putBuffer(data);
            committed = true;
            await store.release(again);
          }
          return new Set(committed ? keys : []);
        });
        expect(calls).toBe(2);
        expect(removed).toBe(false);
        expect((await store.read(old.key)).equals(data)).toBe(true);
        expect(await h.leftovers()).toEqual([]);
      });

      it('a release puts the blob back when a removal took it before the row committed', async () => {
        const data = randomBytes(600);
        const held = await store.putBuffer(data);
        // A removal that ran without seeing the hold (a tool, or an older process) took the blob.
        await store.delete(held.key);
        expect(await store.exists(held.key)).toBe(false);
        await store.release(held);
        expect((await store.read(held.key)).equals(data)).toBe(true);
      });

      it('the sweep removes old blobs nothing refers to, keeps referenced, held and young ones, and cleans up leftovers', async () => {
        const orphan = await store.putBuffer(randomBytes(100));
        await store.release(orphan);
        const used = await store.putBuffer(randomBytes(100));
        await store.release(used);
        const held = await store.putBuffer(randomBytes(100));
        // Leftovers of crashed processes: a partial upload, and a removal interrupted after moving a used blob aside.
        await h.leavePartialUpload();
        const victim = await store.putBuffer(randomBytes(100));
        await store.release(victim);
        await h.interruptRemoval(victim.key);
        const inUse = async (keys: string[]) => new Set(keys.filter((k) => k === used.key || k === victim.key));

        // Nothing is old enough yet.
        expect(await store.sweep({ olderThanMs: 3_600_000, inUse })).toEqual({ removed: 0, temporary: 0 });
        expect(await store.exists(orphan.key)).toBe(true);

        await new Promise((r) => setTimeout(r, 20)); // setup wait: let everything's age pass the cutoff
        const res = await store.sweep({ olderThanMs: 10, inUse });
        expect(await store.exists(orphan.key)).toBe(false);
        expect(await store.exists(used.key)).toBe(true);
        expect(await store.exists(held.key)).toBe(true);
        expect(await store.exists(victim.key)).toBe(true);
        expect(res.removed).toBe(1);
        // The hold on `held` is older than the cutoff as well, so it counts as a crashed process's
        // hold and goes; the blob itself waits for the next sweep.
        expect(await h.leftovers()).toEqual([]);
        expect(res.temporary).toBe(3);
      });
    });
  });
}
