// Sheets clients per connection, built from the sealed credentials and kept for reuse: a client
// caches its access token (or self-signed JWT), so rebuilding one per flush would cost a token
// request per flush.
import type { SecretBox } from '../../../lib/crypto.js';
import { createSheetsClient } from './client/create-client.js';
import type { SheetsApi, SheetsClientOptions, SheetsCredentials } from './client/types.js';
import type { ConnectionsRepository } from './connections.repository.js';
import { ConnectionUnusableError } from './google-call.js';
import type { ConnectionRow } from './sheets.types.js';

const MAX_CACHED = 200;

export function createClientCache(deps: {
  connections: ConnectionsRepository;
  secretBox: SecretBox;
  clientOptions: SheetsClientOptions;
  /** Builds the client (tests may wrap it). Default createSheetsClient. */
  factory?: (creds: SheetsCredentials, opts: SheetsClientOptions) => SheetsApi;
}) {
  const factory = deps.factory ?? createSheetsClient;
  const cache = new Map<string, { stamp: number; api: SheetsApi }>();

  /** The client of a connection row; throws ConnectionUnusableError for credentials that cannot be used. */
  function forConnection(c: ConnectionRow): SheetsApi {
    const stamp = c.updated_at.getTime();
    const hit = cache.get(c.id);
    if (hit && hit.stamp === stamp) return hit.api;
    let creds: SheetsCredentials;
    try {
      creds = JSON.parse(deps.secretBox.decrypt(c.credentials_sealed)) as SheetsCredentials;
    } catch {
      throw new ConnectionUnusableError(
        `connection ${c.id}: credentials cannot be decrypted (was ENCRYPTION_KEY changed?)`,
      );
    }
    let api: SheetsApi;
    try {
      api = factory(creds, deps.clientOptions);
    } catch (err) {
      throw new ConnectionUnusableError(`connection ${c.id}: ${(err as Error).message}`);
    }
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(c.id, { stamp, api });
    return api;
  }

  return {
    forConnection,
    async byId(id: string): Promise<SheetsApi> {
      const c = await deps.connections.getById(id);
      if (!c) throw new ConnectionUnusableError(`connection ${id} no longer exists`);
      return forConnection(c);
    },
    forget(id: string) {
      cache.delete(id);
    },
  };
}

export type ClientCache = ReturnType<typeof createClientCache>;
