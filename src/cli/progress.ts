/** A one-line progress bar on stderr when it is a terminal; plain periodic lines otherwise. */
export function createProgress(
  label: string,
  total: number,
  out: { isTTY?: boolean; write(s: string): unknown } = process.stderr,
) {
  const tty = out.isTTY === true;
  let done = 0;
  let lastPrint = 0;
  let note = '';
  const started = Date.now();
  const render = (final = false) => {
    const now = Date.now();
    if (!final && now - lastPrint < (tty ? 100 : 5000)) return;
    lastPrint = now;
    const pct = total === 0 ? 1 : done / total;
    const secs = (now - started) / 1000;
    const rate = secs > 0 ? (done / secs).toFixed(1) : '0';
    const suffix = note ? ` — ${note}` : '';
    if (tty) {
      const width = 30;
      const fill = Math.round(pct * width);
      // \x1b[K clears what a longer previous line (a note) left behind.
      out.write(
        `\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} ${(pct * 100).toFixed(0)}% ${rate}/s${suffix}\x1b[K`,
      );
      if (final) out.write('\n');
    } else {
      out.write(`${label}: ${done}/${total} (${(pct * 100).toFixed(0)}%)${suffix}\n`);
    }
  };
  return {
    tick(n = 1) {
      done += n;
      render();
    },
    set(n: number, newTotal = total) {
      done = n;
      total = newTotal;
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
