// The `smtp` worker role: the built-in SMTP receiver. In the default set only when SMTP_PORT is
// set; asked for by name (`--queues smtp`) without it, it refuses to start with the reason.
import type { InboundModule, SmtpReceiverOptions } from '../src/modules/integrations/inbound/index.js';

export async function startSmtpWorker(
  inbound: InboundModule,
  explicit: boolean,
  overrides?: Partial<SmtpReceiverOptions>,
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  if (!inbound.enabled && !explicit && !overrides?.port) return { close: async () => undefined };
  return inbound.startReceiver(overrides);
}
