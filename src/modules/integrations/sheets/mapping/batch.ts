// Packing many documents' rows into few `values:append` calls. Sheets' write quota counts
// requests, not rows, so one call per chunk is what keeps a backlog export inside the quota.
import type { SheetCell } from './cells.js';

/** One document's row waiting to be appended; `key` identifies it (document id + version). */
export interface PendingRow {
  key: string;
  cells: readonly SheetCell[];
}

/** Rows for one append call, with the keys in the same order. */
export interface AppendChunk {
  keys: string[];
  rows: SheetCell[][];
}

/** Limits for {@link planAppendBatch}. */
export interface AppendBatchOptions {
  /** Rows per append call. Default 1000. */
  maxRows?: number;
  /** Approximate JSON body size per call; Google advises staying near 2 MB. Default 2,000,000. */
  maxBytes?: number;
}

/**
 * Splits pending rows into append-sized chunks, keeping order. A key that appears twice is kept
 * once (first occurrence) so a document re-queued in the same batch is not written twice. A
 * single row bigger than `maxBytes` still gets a chunk of its own.
 */
export function planAppendBatch(pending: readonly PendingRow[], opts: AppendBatchOptions = {}): AppendChunk[] {
  const maxRows = opts.maxRows ?? 1000;
  const maxBytes = opts.maxBytes ?? 2_000_000;
  if (!Number.isInteger(maxRows) || maxRows < 1) throw new RangeError(`maxRows must be a positive integer: ${maxRows}`);
  const chunks: AppendChunk[] = [];
  const seen = new Set<string>();
  let current: AppendChunk = { keys: [], rows: [] };
  let bytes = 0;
  for (const p of pending) {
    if (seen.has(p.key)) continue;
    seen.add(p.key);
    const size = Buffer.byteLength(JSON.stringify(p.cells)) + 1;
    if (current.rows.length > 0 && (current.rows.length >= maxRows || bytes + size > maxBytes)) {
      chunks.push(current);
      current = { keys: [], rows: [] };
      bytes = 0;
    }
    current.keys.push(p.key);
    current.rows.push([...p.cells]);
    bytes += size;
  }
  if (current.rows.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Sheet row numbers for a chunk after its append returned `firstRow..lastRow`. Throws when the
 * span does not match the chunk (the sheet changed shape under us; do not guess row numbers).
 */
export function rowNumbersFor(chunk: AppendChunk, result: { firstRow: number; lastRow: number }): Map<string, number> {
  const span = result.lastRow - result.firstRow + 1;
  if (span !== chunk.rows.length) {
    throw new Error(`append wrote ${span} rows for a chunk of ${chunk.rows.length}`);
  }
  return new Map(chunk.keys.map((k, i) => [k, result.firstRow + i]));
}
