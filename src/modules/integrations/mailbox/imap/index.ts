export { openMailbox, DEFAULT_MAX_MESSAGE_BYTES } from './connector.js';
export { testConnection } from './test-connection.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_AUTO_IDLE_DELAY_MS,
  DEFAULT_SOCKET_TIMEOUT_MS,
  DEFAULT_OPEN_TIMEOUT_MS,
} from './client.js';
export {
  ImapConnectorError,
  MessageUnavailableError,
  classifyImapError,
  describeImapError,
  toConnectorError,
  type ImapErrorStage,
} from './errors.js';
export type {
  ImapSecurity,
  ImapMailboxConfig,
  ImapLogger,
  ImapConnectOptions,
  ImapFailureStage,
  TestConnectionResult,
  NewMailEvent,
  ImapMailboxSession,
  ResolvedAddress,
} from './types.js';
