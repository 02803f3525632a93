import type { Queryable } from '../../../db/client.js';
import { newId } from '../../../lib/ids.js';
import type { Scope } from '../../../lib/scope.js';
import type { MailboxRow } from './mailbox.types.js';

/** Columns as stored; JSON arrays are passed as JSON text. */
export interface MailboxValues {
  project_id: string;
  name: string;
  host: string;
  port: number;
  security: MailboxRow['security'];
  username: string;
  password_sealed: string;
  folder: string;
  after_processing: MailboxRow['after_processing'];
  processed_folder: string | null;
  failed_folder: string | null;
  allowed_senders: string[];
  subject_filter: string | null;
  attachment_include: string[];
  attachment_exclude: string[];
  consume: MailboxRow['consume'];
  include_inline: boolean;
  max_age_days: number | null;
  is_active: boolean;
}

const JSON_COLUMNS = new Set(['allowed_senders', 'attachment_include', 'attachment_exclude']);
const COLUMNS: (keyof MailboxValues)[] = [
  'project_id',
  'name',
  'host',
  'port',
  'security',
  'username',
  'password_sealed',
  'folder',
  'after_processing',
  'processed_folder',
  'failed_folder',
  'allowed_senders',
  'subject_filter',
  'attachment_include',
  'attachment_exclude',
  'consume',
  'include_inline',
  'max_age_days',
  'is_active',
];
const param = (col: string, v: unknown): unknown => (JSON_COLUMNS.has(col) ? JSON.stringify(v) : v);

/** What the poller needs to decide whether its running connection is still current. */
export interface ActiveMailboxRef {
  id: string;
  config_version: number;
}

export function createMailboxesRepository(db: Queryable) {
  return {
    async insert(scope: Scope, v: MailboxValues, createdBy: string | null): Promise<MailboxRow> {
      const cols = ['id', 'org_id', 'environment', 'created_by', 'status', ...COLUMNS];
      const values = [
        newId('mbx'),
        scope.orgId,
        scope.environment,
        createdBy,
        v.is_active ? 'active' : 'inactive',
        ...COLUMNS.map((c) => param(c, v[c])),
      ];
      const { rows } = await db.query<MailboxRow>(
        `INSERT INTO mailboxes (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
        values,
      );
      return rows[0];
    },

    async get(scope: Scope, id: string, q: Queryable = db): Promise<MailboxRow | null> {
      const { rows } = await q.query<MailboxRow>(
        'SELECT * FROM mailboxes WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    /** Unscoped read for the poller (it serves every organization). */
    async getById(id: string): Promise<MailboxRow | null> {
      const { rows } = await db.query<MailboxRow>('SELECT * FROM mailboxes WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async list(scope: Scope, limit: number, offset: number): Promise<{ rows: MailboxRow[]; total: number }> {
      const { rows } = await db.query<MailboxRow & { total_count: number }>(
        `SELECT *, count(*) OVER () AS total_count FROM mailboxes WHERE org_id = $1 AND environment = $2
         ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
        [scope.orgId, scope.environment, limit, offset],
      );
      if (rows.length === 0 && offset > 0) {
        const c = await db.query<{ n: number }>(
          'SELECT count(*) AS n FROM mailboxes WHERE org_id = $1 AND environment = $2',
          [scope.orgId, scope.environment],
        );
        return { rows: [], total: c.rows[0].n };
      }
      return { rows: rows.map(({ total_count: _, ...r }) => r as MailboxRow), total: rows[0]?.total_count ?? 0 };
    },

    /**
     * Applies a full set of new values. Every update clears the error state (the user changed
     * something; the poller tries again at once) and bumps config_version.
     */
    async update(scope: Scope, id: string, v: MailboxValues, q: Queryable = db): Promise<MailboxRow | null> {
      const sets = COLUMNS.map((c, i) => `${c} = $${i + 4}`);
      const { rows } = await q.query<MailboxRow>(
        `UPDATE mailboxes SET ${sets.join(', ')},
           status = CASE WHEN $${COLUMNS.indexOf('is_active') + 4} THEN 'active' ELSE 'inactive' END,
           last_error = NULL, last_error_at = NULL, config_version = config_version + 1, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        [id, scope.orgId, scope.environment, ...COLUMNS.map((c) => param(c, v[c]))],
      );
      return rows[0] ?? null;
    },

    async delete(scope: Scope, id: string): Promise<boolean> {
      const res = await db.query('DELETE FROM mailboxes WHERE id = $1 AND org_id = $2 AND environment = $3', [
        id,
        scope.orgId,
        scope.environment,
      ]);
      return res.rowCount > 0;
    },

    /** Every mailbox the poller should hold a connection for. */
    async listActive(): Promise<ActiveMailboxRef[]> {
      const { rows } = await db.query<ActiveMailboxRef>(
        'SELECT id, config_version FROM mailboxes WHERE is_active ORDER BY id',
      );
      return rows;
    },

    /** Poller status writes apply only while the settings they ran with are still current. */
    async setError(id: string, version: number, message: string): Promise<void> {
      await db.query(
        `UPDATE mailboxes SET status = 'error', last_error = $3, last_error_at = now(), last_checked_at = now()
         WHERE id = $1 AND config_version = $2 AND is_active`,
        [id, version, message],
      );
    },

    /** Records a transient problem (connection lost, server down) without changing the status. */
    async noteError(id: string, version: number, message: string): Promise<void> {
      await db.query(
        'UPDATE mailboxes SET last_error = $3, last_error_at = now() WHERE id = $1 AND config_version = $2',
        [id, version, message],
      );
    },

    /** Connected and scanned: back to active, error cleared. */
    async markChecked(id: string, version: number): Promise<void> {
      await db.query(
        `UPDATE mailboxes SET status = 'active', last_error = NULL, last_error_at = NULL, last_checked_at = now()
         WHERE id = $1 AND config_version = $2 AND is_active`,
        [id, version],
      );
    },
  };
}

export type MailboxesRepository = ReturnType<typeof createMailboxesRepository>;
