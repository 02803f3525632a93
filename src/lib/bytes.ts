// Sizes in messages: the exact byte count and a human form, so a limit reads both ways.

/** `52428800` → `"50 MiB (52428800 bytes)"`; whole units when exact, else one decimal. */
export function describeBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} bytes`;
  const human = Number.isInteger(v) ? String(v) : v.toFixed(1);
  return `${human} ${units[u]} (${bytes} bytes)`;
}
