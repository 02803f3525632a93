import type { SheetCell } from '../mapping/cells.js';

/** The scope every credential is used with. */
export const SPREADSHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/** The fields of a service-account JSON key that are used; the rest is ignored. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  [extra: string]: unknown;
}

export type SheetsCredentials =
  | { type: 'service_account'; key: ServiceAccountKey }
  | { type: 'oauth'; clientId: string; clientSecret: string; refreshToken: string };

/** Options for {@link createSheetsClient}. The lead wires these from configuration. */
export interface SheetsClientOptions {
  /** Sheets API root (GOOGLE_API_ROOT_URL), e.g. a proxy or a test fake. Default: Google's. */
  rootUrl?: string;
  /**
   * OAuth token endpoint (GOOGLE_OAUTH_TOKEN_URL). Used for refresh-token credentials and for
   * service accounts in `token_exchange` mode. Default: Google's.
   */
  tokenUrl?: string;
  /** Per-request timeout, token requests included. Default 30,000 ms. */
  timeoutMs?: number;
  /**
   * How a service account authenticates. `self_signed_jwt` (default) signs a short-lived
   * scoped JWT locally and sends it as the Bearer token: no token endpoint round trip.
   * `token_exchange` trades a signed assertion for an access token at `tokenUrl`.
   */
  serviceAccountAuth?: 'self_signed_jwt' | 'token_exchange';
}

/** A cell as callers pass it; null means an empty cell. */
export type CellInput = SheetCell | null;

export interface AppendResult {
  /** As the API reports it, e.g. `'My Sheet'!A12:F14`. */
  updatedRange: string;
  /** Sheet row number of the first appended row. */
  firstRow: number;
  /** Sheet row number of the last appended row. */
  lastRow: number;
}

export interface UpdateResult {
  updatedRange: string;
  updatedRows: number;
}

/** How cells come back from reads. */
export type ValueRender = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';

/**
 * The small surface the export uses. Every write uses `valueInputOption=USER_ENTERED`
 * (see mapping/cells.ts for why strings are quote-prefixed). Errors are thrown as they come
 * from the library; pass them to `classifyGoogleError`.
 */
export interface SheetsApi {
  getSheetTitles(spreadsheetId: string): Promise<string[]>;
  /** Rows of the range; trailing empty rows and cells are absent, as the API returns them. */
  getValues(spreadsheetId: string, range: string, opts?: { render?: ValueRender }): Promise<SheetCell[][]>;
  /** Appends below the sheet's data (INSERT_ROWS) in one API call. */
  appendRows(spreadsheetId: string, sheet: string, rows: readonly (readonly CellInput[])[]): Promise<AppendResult>;
  /** Overwrites `range` starting at its top-left cell; null cells are written as empty. */
  updateRange(spreadsheetId: string, range: string, rows: readonly (readonly CellInput[])[]): Promise<UpdateResult>;
  /** Several range writes in one API call (upsert of many rows), applied atomically. */
  updateRanges(
    spreadsheetId: string,
    data: readonly { range: string; rows: readonly (readonly CellInput[])[] }[],
  ): Promise<{ updatedRows: number }>;
}
