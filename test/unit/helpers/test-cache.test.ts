import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheEntry } from '../../helpers/test-cache.js';

const dirs: string[] = [];
const tempCache = () => {
  const d = mkdtempSync(join(tmpdir(), 'docpipe-cache-test-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const folder = (text: string) => async (path: string) => {
  mkdirSync(path);
  writeFileSync(join(path, 'content'), text);
};

describe('test fixture cache', () => {
  it('keeps entries of other keys (another checkout may be using them) and builds each key once', async () => {
    const cache = tempCache();
    const a = await cacheEntry('pglite-aaaa', folder('a'), cache);
    const b = await cacheEntry('pglite-bbbb', folder('b'), cache);
    let rebuilt = false;
    const again = await cacheEntry(
      'pglite-aaaa',
      async (p) => {
        rebuilt = true;
        await folder('x')(p);
      },
      cache,
    );
    expect(again).toBe(a);
    expect(rebuilt).toBe(false);
    expect(readFileSync(join(a, 'content'), 'utf8')).toBe('a');
    expect(readFileSync(join(b, 'content'), 'utf8')).toBe('b');
  });

  it('prunes only entries unused for over a day', async () => {
    const cache = tempCache();
    const old = await cacheEntry('pglite-old', folder('old'), cache);
    const recent = await cacheEntry('pglite-recent', folder('recent'), cache);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    const twentyHoursAgo = new Date(Date.now() - 20 * 3600_000);
    utimesSync(recent, twentyHoursAgo, twentyHoursAgo);
    await cacheEntry('pglite-new', folder('new'), cache);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it('builds concurrently without anyone seeing a half-built entry', async () => {
    const cache = tempCache();
    const slowBuild = async (path: string) => {
      mkdirSync(path);
      await new Promise((r) => setTimeout(r, 20));
      writeFileSync(join(path, 'content'), 'done');
    };
    const paths = await Promise.all([1, 2, 3].map(() => cacheEntry('pglite-same', slowBuild, cache)));
    for (const p of paths) expect(readFileSync(join(p, 'content'), 'utf8')).toBe('done');
  });

  it('leaves nothing behind when a build fails', async () => {
    const cache = tempCache();
    await expect(
      cacheEntry(
        'pglite-bad',
        async (p) => {
          mkdirSync(p);
          throw new Error('migration failed');
        },
        cache,
      ),
    ).rejects.toThrow('migration failed');
    expect(existsSync(join(cache, 'pglite-bad'))).toBe(false);
    await expect(cacheEntry('pglite-bad', folder('ok'), cache)).resolves.toBe(join(cache, 'pglite-bad'));
  });
});
