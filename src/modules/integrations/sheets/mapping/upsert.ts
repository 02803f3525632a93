// Upsert mode: find the row that already holds a document so it is updated in place.

/** Where the `values` came from. */
export interface RowLookupOptions {
  /** Sheet row number of `values[0]`. Default 1 (the values were read from row 1). */
  firstRow?: number;
  /** Rows at the top that are headers, never data. Default 1. */
  headerRows?: number;
}

const cellText = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());

/**
 * Document id → sheet row number for every data row. When an id appears in several rows
 * (someone copied a row by hand) the first one wins, so updates keep hitting the same row.
 */
export function indexRowsByDocumentId(
  values: readonly (readonly unknown[])[],
  idColumnIndex: number,
  opts: RowLookupOptions = {},
): Map<string, number> {
  if (!Number.isInteger(idColumnIndex) || idColumnIndex < 0) throw new RangeError(`bad id column: ${idColumnIndex}`);
  const firstRow = opts.firstRow ?? 1;
  const headerRows = opts.headerRows ?? 1;
  const index = new Map<string, number>();
  for (let i = headerRows; i < values.length; i++) {
    const id = cellText(values[i]?.[idColumnIndex]);
    if (id !== '' && !index.has(id)) index.set(id, firstRow + i);
  }
  return index;
}

/** The sheet row number holding `documentId`, or null. */
export function findRowByDocumentId(
  values: readonly (readonly unknown[])[],
  idColumnIndex: number,
  documentId: string,
  opts: RowLookupOptions = {},
): number | null {
  return indexRowsByDocumentId(values, idColumnIndex, opts).get(documentId.trim()) ?? null;
}
