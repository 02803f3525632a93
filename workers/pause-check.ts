// Whether a stage's queue is paused, as a continuation asks before it runs that stage here. The
// flag lives in Redis (BullMQ's queue meta); reading it for every continued stage was three of
// the five Redis round trips a document cost the pipeline, each a socket write and a read on
// both sides. An operator's pause is rare and this only decides whether a document already in
// this process goes on at once or waits in the queue, so the answer is kept for a second.
import type { Queues } from '../src/jobs/queues.js';
import type { Stage } from '../src/pipeline/stages.js';

/** How long a stage's paused flag is trusted before it is read again. */
export const PAUSE_CHECK_MS = 1_000;

/**
 * A cached reader of the stages' paused flags. A failed read counts as paused (the document then
 * waits in its queue, as it would without continuation) and is not kept.
 */
export function createPauseCheck(
  queues: Pick<Queues, 'get'>,
  opts: { ttlMs?: number; now?: () => number } = {},
): (stage: Stage) => Promise<boolean> {
  const ttl = opts.ttlMs ?? PAUSE_CHECK_MS;
  const now = opts.now ?? Date.now;
  const known = new Map<Stage, { at: number; paused: Promise<boolean> }>();
  return (stage) => {
    const hit = known.get(stage);
    if (hit && now() - hit.at < ttl) return hit.paused;
    const paused: Promise<boolean> = queues
      .get(stage)
      .isPaused()
      .catch(() => {
        // Forget this read only: a newer one may have replaced it meanwhile.
        if (known.get(stage)?.paused === paused) known.delete(stage);
        return true;
      });
    known.set(stage, { at: now(), paused });
    return paused;
  };
}
