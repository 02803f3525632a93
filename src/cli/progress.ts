/** The rate is measured over this much recent time, so the ETA follows a change of pace. */
const RATE_WINDOW_MS = 30_000;

/** 75 → "1m15s", 3700 → "1h01m". */
export function formatDuration(secs: number): string {
  const s = Math.max(0, Math.round(secs));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * A one-line progress bar on stderr when it is a terminal; plain periodic lines otherwise. Both
 * show the rate over the last 30 s and, once there is one, the time left at that rate.
 */
export function createProgress(
  label: string,
  total: number,
  out: { isTTY?: boolean; write(s: string): unknown } = process.stderr,
  clock: () => number = Date.now,
) {
  const tty = out.isTTY === true;
  let done = 0;
  let lastPrint = 0;
  let note = '';
  const samples: { t: number; done: number }[] = [{ t: clock(), done: 0 }];
  const sample = () => {
    const t = clock();
    const last = samples[samples.length - 1];
    // At most four samples a second: a tick per document must not grow the list.
    if (samples.length > 1 && t - last.t < 250) last.done = done;
    else samples.push({ t, done });
    // Keep one sample older than the window, so the window is always covered.
    while (samples.length > 2 && samples[1].t <= t - RATE_WINDOW_MS) samples.shift();
  };
  /** Documents per second over the window (0 until something moved). */
  const rateNow = () => {
    const first = samples[0];
    const last = samples[samples.length - 1];
    const secs = (last.t - first.t) / 1000;
    return secs > 0 ? Math.max(0, last.done - first.done) / secs : 0;
  };
  const render = (final = false) => {
    const now = clock();
    if (!final && now - lastPrint < (tty ? 100 : 5000)) return;
    lastPrint = now;
    const pct = total === 0 ? 1 : Math.min(1, done / total);
    const r = rateNow();
    const rate = r.toFixed(1);
    const eta = !final && r > 0 && done < total ? ` ETA ${formatDuration((total - done) / r)}` : '';
    const suffix = note ? ` — ${note}` : '';
    if (tty) {
      const width = 30;
      const fill = Math.round(pct * width);
      // \x1b[K clears what a longer previous line (a note) left behind.
      out.write(
        `\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} ${(pct * 100).toFixed(0)}% ${rate}/s${eta}${suffix}\x1b[K`,
      );
      if (final) out.write('\n');
    } else {
      const pace = r > 0 ? ` ${rate}/s${eta}` : '';
      out.write(`${label}: ${done}/${total} (${(pct * 100).toFixed(0)}%)${pace}${suffix}\n`);
    }
  };
  return {
    tick(n = 1) {
      done += n;
      sample();
      render();
    },
    set(n: number, newTotal = total) {
      done = n;
      total = newTotal;
      sample();
      render();
    },
    /**
     * A passing condition shown after the counts (e.g. a rate-limit wait); '' clears it. A
     * terminal line updates at once; a log gets a line when the note first appears.
     */
    note(text: string) {
      if (text === note) return;
      const appeared = text !== '' && note === '';
      note = text;
      if (tty || appeared) {
        lastPrint = 0;
        render();
      }
    },
    finish() {
      note = '';
      render(true);
    },
  };
}
