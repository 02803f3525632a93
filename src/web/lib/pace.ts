import { useRef } from 'react';

/** The pace is measured over this much recent time, so the estimate follows a change of speed. */
const WINDOW_MS = 30_000;

export interface Pace {
  /** Documents per second over the window (0 until something moved). */
  perSecond: number;
  /** Seconds left at that pace; null until something moved, or once done. */
  left: number | null;
}

/**
 * Adds the count seen at `now` to `samples` (kept to the window plus one older sample) and
 * answers the pace over the window.
 */
export function advancePace(samples: { t: number; done: number }[], done: number, total: number, now: number): Pace {
  const last = samples[samples.length - 1];
  if (!last || last.done !== done || now - last.t > 1000) samples.push({ t: now, done });
  while (samples.length > 2 && samples[1].t <= now - WINDOW_MS) samples.shift();
  const first = samples[0];
  const secs = (samples[samples.length - 1].t - first.t) / 1000;
  const perSecond = secs > 0 ? Math.max(0, done - first.done) / secs : 0;
  return { perSecond, left: perSecond > 0 && done < total ? (total - done) / perSecond : null };
}

/** The pace of a count growing towards `total`, from the counts seen on each render. */
export function usePace(done: number | undefined, total: number | undefined): Pace {
  const samples = useRef<{ t: number; done: number }[]>([]);
  if (done === undefined || total === undefined) return { perSecond: 0, left: null };
  return advancePace(samples.current, done, total, Date.now());
}
