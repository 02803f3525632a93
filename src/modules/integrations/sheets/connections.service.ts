import type { Db } from '../../../db/client.js';
import { errors } from '../../../lib/errors.js';
import type { SecretBox } from '../../../lib/crypto.js';
import type { Scope } from '../../../lib/scope.js';
import type { ClientCache } from './clients.js';
import type { ConnectionsRepository } from './connections.repository.js';
import { ConnectionUnusableError, googleCall, GoogleCallError } from './google-call.js';
import { presentConnection, type CreateConnectionInput } from './sheets.types.js';
import { parseConnectionCredentials } from './validation.js';

export function createConnectionsService(deps: {
  db: Db;
  repo: ConnectionsRepository;
  secretBox: SecretBox;
  clients: ClientCache;
}) {
  const mustGet = async (scope: Scope, id: string) => {
    const c = await deps.repo.get(scope, id);
    if (!c) throw errors.notFound('Connection');
    return c;
  };

  return {
    async create(scope: Scope, input: CreateConnectionInput, createdBy: string | null) {
      const { credentials, principal } = parseConnectionCredentials(input);
      const sealed = deps.secretBox.encrypt(JSON.stringify(credentials));
      return presentConnection(
        await deps.repo.insert(scope, { name: input.name, type: credentials.type, sealed, principal, createdBy }),
      );
    },
    async list(scope: Scope, limit: number, offset: number) {
      const { rows, total } = await deps.repo.list(scope, limit, offset);
      return { items: rows.map(presentConnection), total };
    },
    async get(scope: Scope, id: string) {
      return presentConnection(await mustGet(scope, id));
    },
    async remove(scope: Scope, id: string) {
      const removed = await deps.db.tx(async (q) => {
        const c = await deps.repo.get(scope, id, q);
        if (!c) throw errors.notFound('Connection');
        const using = await deps.repo.exportsUsing(id, q);
        if (using.length)
          throw errors.conflict(`Connection is used by ${using.length} export(s); delete or repoint them first`, {
            export_ids: using,
          });
        return deps.repo.delete(scope, id, q);
      });
      deps.clients.forget(id);
      return { id, deleted: removed !== null };
    },
    /** Authenticates and reads the spreadsheet's sheet titles; a failure is reported, not thrown. */
    async test(scope: Scope, id: string, spreadsheetId: string) {
      const c = await mustGet(scope, id);
      try {
        const api = deps.clients.forConnection(c);
        const sheets = await googleCall('read spreadsheet', false, () => api.getSheetTitles(spreadsheetId));
        return { ok: true as const, connection_id: id, spreadsheet_id: spreadsheetId, sheets };
      } catch (err) {
        if (err instanceof ConnectionUnusableError) {
          return {
            ok: false as const,
            connection_id: id,
            spreadsheet_id: spreadsheetId,
            error: { status: 0, code: 'CREDENTIALS_UNUSABLE', reason: err.message, retryable: false },
          };
        }
        if (!(err instanceof GoogleCallError)) throw err;
        const cls = err.cls;
        return {
          ok: false as const,
          connection_id: id,
          spreadsheet_id: spreadsheetId,
          error: {
            status: cls.status ?? 0,
            code: cls.kind === 'fatal' ? (cls.code ?? null) : null,
            reason: cls.reason,
            retryable: cls.kind === 'retry',
          },
        };
      }
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
