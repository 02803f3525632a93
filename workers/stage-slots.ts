// The stages this process serves and how many of each are running here. A stage worker that
// committed a document's stage runs the next stage itself instead of queueing it, but only when
// this process serves that stage too and one of its slots is free. Queueing costs a BullMQ job:
// an add, a fetch, a lock and a completion, each a Redis script. With a free slot, the job would
// most likely come back to this same process anyway, after waiting in the queue.
// Jobs that BullMQ starts always count against a stage's slots (BullMQ limits them itself).
// A continuation takes a slot only when one is free.
import type { Stage } from '../src/pipeline/stages.js';

export class StageSlots {
  private readonly limits = new Map<Stage, number>();
  private readonly active = new Map<Stage, number>();

  /** This process serves `stage`, at most `limit` at once. */
  serve(stage: Stage, limit: number): void {
    this.limits.set(stage, limit);
  }

  /** No more continuations into `stage` (its worker is closing). */
  stop(stage: Stage): void {
    this.limits.delete(stage);
  }

  /** A job BullMQ started. */
  enter(stage: Stage): void {
    this.active.set(stage, (this.active.get(stage) ?? 0) + 1);
  }

  /** A continuation: takes a slot if the stage is served here and one is free. */
  tryEnter(stage: Stage): boolean {
    const limit = this.limits.get(stage);
    if (limit === undefined || (this.active.get(stage) ?? 0) >= limit) return false;
    this.enter(stage);
    return true;
  }

  leave(stage: Stage): void {
    this.active.set(stage, Math.max(0, (this.active.get(stage) ?? 0) - 1));
  }
}

const perProcess = new WeakMap<object, StageSlots>();

/** One table per set of stage dependencies (one per process; tests with several apps get one each). */
export function stageSlotsFor(key: object): StageSlots {
  let slots = perProcess.get(key);
  if (!slots) perProcess.set(key, (slots = new StageSlots()));
  return slots;
}
