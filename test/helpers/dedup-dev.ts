// Near-duplicate detection measured on the dev corpus receipts (../shared/corpora/dev/sroie):
// every receipt gets an OCR-noisy copy that must be matched to it, and every receipt is also
// checked against all the others (receipts of one merchant are the hard negatives). The
// candidate lookup is an in-memory band-key index, as the GIN index answers it, and candidates
// are compared only when one shares MIN_SHARED_SLOTS signature slots, as at intake.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareCandidates,
  fingerprint,
  MIN_SHARED_SLOTS,
  NEAR_DUPLICATE_THRESHOLD,
  signatureSimilarity,
  SLOTS,
  type Fingerprint,
} from '../../src/pipeline/dedup/index.js';
import { DEV_CORPUS } from './classify-dev.js';

export interface DedupDevResult {
  receipts: number;
  merchantsWithSeveral: number;
  copiesFound: number;
  /** Distinct receipts called a near-duplicate of another (pairs, each direction counted). */
  falsePositives: { a: string; b: string; merchant: string; similarity: number }[];
  /** Fingerprint + lookup + comparison CPU per checked document, ms. */
  cpuMsPerDoc: number;
}

/** Misreads OCR makes: letters for digits and back, dropped characters, moved line breaks. */
export function ocrNoisy(text: string, seed = 1, rate = 0.03): string {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const swaps: Record<string, string> = {
    O: '0',
    '0': 'O',
    I: '1',
    '1': 'I',
    S: '5',
    '5': 'S',
    B: '8',
    '8': 'B',
    E: 'F',
  };
  return text
    .split('')
    .map((c) => {
      const r = rnd();
      if (r < rate) return swaps[c] ?? (r < rate / 3 ? '' : c);
      return c === '\n' && rnd() < 0.3 ? ' ' : c;
    })
    .join('');
}

export function measureDedupOnDevReceipts(dir = join(DEV_CORPUS, 'sroie')): DedupDevResult | null {
  if (!existsSync(dir)) return null;
  const docs = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => ({
      id: f,
      text: readFileSync(join(dir, f), 'utf8'),
      merchant: (
        JSON.parse(readFileSync(join(dir, f.replace(/\.txt$/, '.json')), 'utf8')) as { company: string }
      ).company
        .toUpperCase()
        .replace(/[^A-Z]/g, '')
        .slice(0, 12),
    }));
  const salt = 'org/live';
  const prints = new Map<string, Fingerprint>();
  const index = new Map<number, string[]>();
  for (const d of docs) {
    const fp = fingerprint(d.text, salt);
    if (!fp) continue;
    prints.set(d.id, fp);
    for (const k of fp.bandKeys) index.set(k, [...(index.get(k) ?? []), d.id]);
  }
  let cpu = 0n;
  let checks = 0;
  const check = (text: string, exclude?: string) => {
    const started = process.cpuUsage();
    const fp = fingerprint(text, salt);
    if (!fp) return [];
    const ids = new Set<string>();
    for (const k of fp.bandKeys) for (const id of index.get(k) ?? []) if (id !== exclude) ids.add(id);
    const near = [...ids].some(
      (id) => Math.round(signatureSimilarity(fp.signature, prints.get(id)!.signature) * SLOTS) >= MIN_SHARED_SLOTS,
    );
    if (!near) {
      const used = process.cpuUsage(started);
      cpu += BigInt(used.user + used.system);
      checks++;
      return [];
    }
    const ranked = compareCandidates(
      fp,
      [...ids].map((id) => ({ id, sample: prints.get(id)!.sample, level: prints.get(id)!.level, flagged: false })),
    );
    const used = process.cpuUsage(started);
    cpu += BigInt(used.user + used.system);
    checks++;
    return ranked.filter((r) => r.similarity >= NEAR_DUPLICATE_THRESHOLD);
  };
  let copiesFound = 0;
  docs.forEach((d, i) => {
    if (check(ocrNoisy(d.text, i + 1))[0]?.id === d.id) copiesFound++;
  });
  const merchant = new Map(docs.map((d) => [d.id, d.merchant]));
  const falsePositives: DedupDevResult['falsePositives'] = [];
  for (const d of docs)
    for (const r of check(d.text, d.id))
      falsePositives.push({ a: d.id, b: r.id, merchant: merchant.get(r.id) ?? '', similarity: r.similarity });
  const counts = new Map<string, number>();
  for (const d of docs) counts.set(d.merchant, (counts.get(d.merchant) ?? 0) + 1);
  return {
    receipts: docs.length,
    merchantsWithSeveral: [...counts.values()].filter((n) => n > 1).length,
    copiesFound,
    falsePositives,
    cpuMsPerDoc: Number(cpu) / 1000 / Math.max(1, checks),
  };
}
