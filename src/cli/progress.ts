/** A one-line progress bar on stderr when it is a terminal; plain periodic lines otherwise. */
export function createProgress(label: string, total: number) {
  const tty = process.stderr.isTTY;
  let done = 0;
  let lastPrint = 0;
  const started = Date.now();
  const render = (final = false) => {
    const now = Date.now();
    if (!final && now - lastPrint < (tty ? 100 : 5000)) return;
    lastPrint = now;
    const pct = total === 0 ? 1 : done / total;
    const secs = (now - started) / 1000;
    const rate = secs > 0 ? (done / secs).toFixed(1) : '0';
    if (tty) {
      const width = 30;
      const fill = Math.round(pct * width);
      process.stderr.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} ${(pct * 100).toFixed(0)}% ${rate}/s `);
      if (final) process.stderr.write('\n');
    } else {
      process.stderr.write(`${label}: ${done}/${total} (${(pct * 100).toFixed(0)}%)\n`);
    }
  };
  return {
    tick(n = 1) { done += n; render(); },
    set(n: number, newTotal = total) { done = n; total = newTotal; render(); },
    finish() { render(true); },
  };
}
