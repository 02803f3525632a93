import type { ImapFlow } from 'imapflow';
import { closeClient, createImapClient, DEFAULT_OPEN_TIMEOUT_MS, resolveTarget } from './client.js';
import { classifyImapError, describeImapError, ImapConnectorError } from './errors.js';
import type { ImapConnectOptions, ImapFailureStage, ImapMailboxConfig, TestConnectionResult } from './types.js';

function fail(err: unknown, during: 'connect' | 'folder'): TestConnectionResult {
  const raw = classifyImapError(err, during);
  // A command failing after login is, for this check, a folder problem.
  const stage: ImapFailureStage = raw === 'protocol' ? 'folder' : raw;
  const message = err instanceof ImapConnectorError ? err.message : describeImapError(err, stage);
  return { ok: false, stage, message };
}

/**
 * Checks settings the way the "Test connection" button needs: resolve, connect, TLS, login,
 * then STATUS on the folder. STATUS does not select the folder, so no flag (not even \Recent)
 * changes and nothing is consumed. Never throws; never takes longer than `openTimeoutMs`.
 */
export async function testConnection(
  cfg: ImapMailboxConfig,
  opts: ImapConnectOptions = {},
): Promise<TestConnectionResult> {
  const folder = cfg.folder || 'INBOX';
  let client: ImapFlow | undefined;
  let during: 'connect' | 'folder' = 'connect';
  let done = false;
  const attempt = async (): Promise<TestConnectionResult> => {
    try {
      const target = await resolveTarget(cfg.host, opts);
      const c = await createImapClient(cfg, target, opts, false);
      // The deadline may have passed during DNS or the import; do not open a socket nobody will close.
      if (done) return { ok: false, stage: 'connect', message: 'timed out' };
      client = c;
      await client.connect();
      during = 'folder';
      const st = await client.status(folder, { messages: true, unseen: true, uidValidity: true });
      if (!st) return { ok: false, stage: 'folder', message: `folder could not be opened: ${folder}` };
      return {
        ok: true,
        folder,
        messages: st.messages ?? 0,
        unseen: st.unseen ?? 0,
        uidValidity: String(st.uidValidity ?? ''),
      };
    } catch (err) {
      return fail(err, during);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const limit = opts.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
  const timeout = new Promise<TestConnectionResult>((resolve) => {
    timer = setTimeout(() => {
      const stage: ImapFailureStage = during === 'folder' ? 'folder' : 'connect';
      resolve({ ok: false, stage, message: `no answer from the server within ${limit} ms` });
    }, limit);
  });
  try {
    return await Promise.race([attempt(), timeout]);
  } finally {
    clearTimeout(timer);
    done = true;
    if (client) await closeClient(client, 2_000);
  }
}
