// Seeded pseudo-random helpers. Everything in the generator draws from one of these so that
// `node generate.mjs` reproduces the committed files byte for byte.

/** mulberry32: tiny, fast, good enough for picking templates and words. */
export function createRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    /** integer in [lo, hi] inclusive */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    float: (lo, hi) => lo + next() * (hi - lo),
    chance: (p) => next() < p,
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    /** pick by weight: entries are [weight, value] */
    weighted: (entries) => {
      const total = entries.reduce((s, [w]) => s + w, 0);
      let r = next() * total;
      for (const [w, v] of entries) {
        r -= w;
        if (r < 0) return v;
      }
      return entries[entries.length - 1][1];
    },
    shuffle: (arr) => {
      const out = arr.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    /** n distinct items (or fewer if the array is short) */
    sample: (arr, n) => rng.shuffle(arr).slice(0, Math.min(n, arr.length)),
    digits: (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += String(Math.floor(next() * 10));
      return s;
    },
    letters: (n) => {
      const A = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
      let s = '';
      for (let i = 0; i < n; i++) s += A[Math.floor(next() * A.length)];
      return s;
    },
  };
  return rng;
}
