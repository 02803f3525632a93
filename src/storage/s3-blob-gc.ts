import { randomBytes } from 'node:crypto';
import type { KeysInUse, SweepResult } from './blob-store.js';
import type { S3Layout, S3Objects } from './s3-objects.js';

/**
 * Conditional removal and the orphan sweep of the S3 blob store: the file store's protocol with
 * hold markers in place of link counts. An intake writes its marker before it checks for (or
 * places) the blob, and removes it only after the row referring to the blob committed. A removal
 * checks rows and markers, moves the blob aside (copy to trash, delete), and checks markers,
 * then rows, again: an intake that arrived in between either finds the blob gone and places its
 * own copy, or is seen by the second check, which puts the blob back. Markers are read before
 * rows in that second check because an intake drops its marker only after its row is visible.
 */
export interface S3GcContext {
  objects: S3Objects;
  layout: S3Layout;
}

const KEY = /^[0-9a-f]{64}$/;

export async function held(ctx: S3GcContext, key: string): Promise<boolean> {
  return ctx.objects.any(ctx.layout.holds(key));
}

export async function removeIfUnused(ctx: S3GcContext, key: string, inUse: KeysInUse): Promise<boolean> {
  const { objects, layout } = ctx;
  const used = async () => (await inUse([key])).has(key);
  if (await used()) return false;
  if (await held(ctx, key)) return false;
  const trash = layout.trash(key, `${Date.now()}-${randomBytes(4).toString('hex')}`);
  if (!(await objects.copy(layout.blob(key), trash))) return false;
  await objects.del(layout.blob(key));
  let keep = true;
  try {
    keep = (await held(ctx, key)) || (await used());
  } finally {
    if (keep) {
      if (!(await objects.exists(layout.blob(key)))) await objects.copy(trash, layout.blob(key));
      await objects.del(trash);
    }
  }
  if (keep) return false;
  await objects.del(trash);
  return true;
}

/** Puts the blob back from the intake's copy if a removal took it, then drops the hold. */
export async function releaseHold(ctx: S3GcContext, key: string, id: string): Promise<void> {
  const { objects, layout } = ctx;
  if (!(await objects.exists(layout.blob(key)))) await objects.copy(layout.tmp(id), layout.blob(key));
  // The blob is in place and its row committed: a marker or copy that fails to go now only
  // lingers until the sweep drops it (after its grace period), so that is not the caller's error.
  await Promise.all([objects.del(layout.hold(key, id)), objects.del(layout.tmp(id))]).catch(() => undefined);
}

export async function dropHold(ctx: S3GcContext, key: string, id: string): Promise<void> {
  await ctx.objects.del(ctx.layout.hold(key, id));
  await ctx.objects.del(ctx.layout.tmp(id));
}

/**
 * Blobs first, leftovers second: a blob whose only hold is stale survives this sweep (the hold
 * still counts while the blobs are examined) and goes in the next one, as in the file store.
 * Object times are S3's LastModified (whole seconds on most servers; only ever earlier).
 */
export async function sweepObjects(
  ctx: S3GcContext,
  opts: { olderThanMs: number; inUse: KeysInUse; batch?: number },
): Promise<SweepResult> {
  const { objects, layout } = ctx;
  const cutoff = Date.now() - opts.olderThanMs;
  const result: SweepResult = { removed: 0, temporary: 0 };

  let candidates: string[] = [];
  const flush = async () => {
    const used = candidates.length ? await opts.inUse(candidates) : new Set<string>();
    for (const key of candidates) {
      if (!used.has(key) && (await removeIfUnused(ctx, key, opts.inUse))) result.removed++;
    }
    candidates = [];
  };
  for await (const o of objects.list(layout.blobPrefix)) {
    const key = o.key.slice(o.key.lastIndexOf('/') + 1);
    if (!KEY.test(key) || o.lastModified > cutoff) continue;
    candidates.push(key);
    if (candidates.length >= (opts.batch ?? 500)) await flush();
  }
  await flush();

  // Holds of intakes that never finished (a crashed process), with their copies.
  const liveHolds = new Set<string>();
  for await (const o of objects.list(layout.holds())) {
    const [key, id] = o.key.slice(layout.holds().length).split('/');
    if (!KEY.test(key ?? '') || !id) continue;
    if (o.lastModified > cutoff) {
      liveHolds.add(id);
      continue;
    }
    await dropHold(ctx, key, id);
    liveHolds.add(id); // its copy is gone with it; not counted twice below
    result.temporary++;
  }
  // Uploads that failed without cleaning up.
  for await (const o of objects.list(layout.tmpPrefix)) {
    const id = o.key.slice(layout.tmpPrefix.length);
    if (liveHolds.has(id) || o.lastModified > cutoff) continue;
    await objects.del(o.key);
    result.temporary++;
  }
  // Blobs a removal moved aside and did not get to finish with: back if a row refers to them.
  for await (const o of objects.list(layout.trash())) {
    if (o.lastModified > cutoff) continue;
    const key = o.key.slice(layout.trash().length).split('/')[0];
    if (KEY.test(key) && (await opts.inUse([key])).has(key) && !(await objects.exists(layout.blob(key)))) {
      await objects.copy(o.key, layout.blob(key));
    }
    await objects.del(o.key);
    result.temporary++;
  }
  return result;
}
