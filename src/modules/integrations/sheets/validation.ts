// Checks that happen when configuration is saved, so a bad key or a bad field path fails with a
// 400 naming the field instead of failing later inside a worker.
import { createPrivateKey } from 'node:crypto';
import { errors, type FieldIssue } from '../../../lib/errors.js';
import type { SheetsCredentials } from './client/types.js';
import { parseFieldPath } from './mapping/resolve.js';
import type { ColumnMapping } from './mapping/row.js';
import type { CreateConnectionInput, ExportMode } from './sheets.types.js';

/** Header text of the row-key column that append mode writes after the mapped columns. */
export const ROW_KEY_HEADER = 'docpipe_row_key';

export interface ParsedCredentials {
  credentials: SheetsCredentials;
  /** Non-secret identity shown by the API. */
  principal: string;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function parseConnectionCredentials(input: CreateConnectionInput): ParsedCredentials {
  const hasKey = input.service_account_key !== undefined;
  const hasOAuth = input.oauth !== undefined;
  if (hasKey === hasOAuth) {
    throw errors.validation('Give either service_account_key or oauth', [
      { field: 'service_account_key', message: 'exactly one of service_account_key and oauth is required' },
    ]);
  }
  if (input.oauth) {
    const { client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken } = input.oauth;
    return { credentials: { type: 'oauth', clientId, clientSecret, refreshToken }, principal: clientId };
  }
  const key = input.service_account_key as Record<string, unknown>;
  const issues: FieldIssue[] = [];
  if (key.type !== undefined && key.type !== 'service_account')
    issues.push({ field: 'service_account_key.type', message: 'must be "service_account"' });
  if (!nonEmpty(key.client_email) || !key.client_email.includes('@'))
    issues.push({ field: 'service_account_key.client_email', message: 'must be the service account e-mail' });
  if (!nonEmpty(key.private_key)) {
    issues.push({ field: 'service_account_key.private_key', message: 'is required' });
  } else {
    try {
      createPrivateKey(key.private_key);
    } catch {
      issues.push({ field: 'service_account_key.private_key', message: 'is not a PEM private key' });
    }
  }
  if (key.private_key_id !== undefined && typeof key.private_key_id !== 'string')
    issues.push({ field: 'service_account_key.private_key_id', message: 'must be a string' });
  if (issues.length) throw errors.validation(`${issues[0].field}: ${issues[0].message}`, issues);
  const email = key.client_email as string;
  return {
    credentials: {
      type: 'service_account',
      key: {
        client_email: email,
        private_key: key.private_key as string,
        ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
      },
    },
    principal: email,
  };
}

/** Column list checks shared by create and update; returns the index of the document.id column. */
export function validateColumns(columns: readonly ColumnMapping[], mode: ExportMode): number {
  const issues: FieldIssue[] = [];
  columns.forEach((c, i) => {
    if (c.header.trim() === '') issues.push({ field: `columns[${i}].header`, message: 'must not be blank' });
    const parsed = parseFieldPath(c.field);
    if (!parsed.ok) issues.push({ field: `columns[${i}].field`, message: `column "${c.header}": ${parsed.error}` });
    if (c.header.trim().toLowerCase() === ROW_KEY_HEADER)
      issues.push({ field: `columns[${i}].header`, message: `"${ROW_KEY_HEADER}" is reserved` });
  });
  if (issues.length) throw errors.validation(`${issues[0].field}: ${issues[0].message}`, issues);
  const idColumn = columns.findIndex((c) => c.field === 'document.id');
  if (mode === 'upsert' && idColumn === -1) {
    throw errors.invalidField(
      'columns',
      'upsert mode finds rows by document id: add a column with field "document.id"',
    );
  }
  return idColumn;
}
