import { describe, expect, it } from 'vitest';
import {
  classifyImapError,
  ImapConnectorError,
  toConnectorError,
} from '../../../src/modules/integrations/mailbox/imap/index.js';

const err = (fields: Record<string, unknown>): Error => Object.assign(new Error(String(fields.message ?? 'x')), fields);

describe('classifyImapError', () => {
  it.each([
    [{ code: 'ENOTFOUND' }, 'connect', 'dns'],
    [{ code: 'EAI_AGAIN' }, 'connect', 'dns'],
    [{ code: 'ECONNREFUSED' }, 'connect', 'connect'],
    [{ code: 'CONNECT_TIMEOUT' }, 'connect', 'connect'],
    [{ code: 'GREETING_TIMEOUT' }, 'connect', 'connect'],
    [{ code: 'EHOSTUNREACH' }, 'connect', 'connect'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, 'connect', 'tls'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'connect', 'tls'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'connect', 'tls'],
    [{ tlsFailed: true, message: 'Server does not support STARTTLS' }, 'connect', 'tls'],
    [{ authenticationFailed: true, serverResponseCode: 'AUTHENTICATIONFAILED' }, 'connect', 'auth'],
    [{ serverResponseCode: 'AUTHORIZATIONFAILED' }, 'connect', 'auth'],
    [{ authenticationFailed: true, message: 'Command failed' }, 'connect', 'auth'],
    // A LOGIN that failed because the server went away or is not ready is no verdict on the
    // credentials (imapflow marks it authenticationFailed all the same).
    [{ authenticationFailed: true, serverResponseCode: 'UNAVAILABLE' }, 'connect', 'connect'],
    [{ authenticationFailed: true, code: 'NoConnection' }, 'connect', 'connect'],
    [{ authenticationFailed: true, code: 'EConnectionClosed' }, 'connect', 'connect'],
    [{ authenticationFailed: true, message: 'Already logged out' }, 'connect', 'connect'],
    [{ mailboxMissing: true, responseStatus: 'NO' }, 'folder', 'folder'],
    [{ code: 'NotFound' }, 'folder', 'folder'],
    [{ responseStatus: 'NO' }, 'folder', 'folder'],
    [{ code: 'NoConnection' }, 'command', 'connect'],
    [{ responseStatus: 'BAD' }, 'command', 'protocol'],
    [{}, 'connect', 'connect'],
  ] as const)('%j during %s -> %s', (fields, during, stage) => {
    expect(classifyImapError(err(fields), during)).toBe(stage);
  });

  it('toConnectorError keeps the code, never echoes credentials it was not given, and is idempotent', () => {
    const e = toConnectorError(
      err({
        authenticationFailed: true,
        serverResponseCode: 'AUTHENTICATIONFAILED',
        responseText: 'Authentication failed.',
      }),
      'connect',
    );
    expect(e).toBeInstanceOf(ImapConnectorError);
    expect(e).toMatchObject({ stage: 'auth', code: 'AUTHENTICATIONFAILED' });
    expect(e.message).toBe('authentication failed: Authentication failed. (AUTHENTICATIONFAILED)');
    expect(toConnectorError(e, 'command')).toBe(e);
  });
});
