// Reads Prometheus text exposition for tests: metric families (from # TYPE lines) and samples.

export interface Scrape {
  /** Family name → type (counter, gauge, histogram, …). */
  families: Map<string, string>;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseScrape(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Scrape['samples'] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      families.set(name, type);
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { families, samples };
}

/** Samples of `name` whose labels include every pair in `labels`. */
export function find(s: Scrape, name: string, labels: Record<string, string> = {}): Scrape['samples'] {
  return s.samples.filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
}

/** Sum of the matching samples' values. */
export function total(s: Scrape, name: string, labels: Record<string, string> = {}): number {
  return find(s, name, labels).reduce((a, x) => a + x.value, 0);
}

/** True when `name` is a family or a histogram/summary series of one (`_bucket`, `_count`, `_sum`). */
export function isExposed(s: Scrape, name: string): boolean {
  if (s.families.has(name)) return true;
  const base = name.replace(/_(bucket|count|sum)$/, '');
  return base !== name && (s.families.get(base) === 'histogram' || s.families.get(base) === 'summary');
}
