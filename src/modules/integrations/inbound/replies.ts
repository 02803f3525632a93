// Replies to a sender whose mailed files were refused (type, size, empty) through the outgoing
// relay (SMTP_RELAY_URL). Never to a null sender or to automatic mail (RFC 3834: Auto-Submitted,
// and list/bulk precedence), and at most one per sender per hour across every receiver (a Redis
// key set only if absent), so a loop or a flood cannot turn the receiver into a mail cannon.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../../../lib/logger.js';
import { lazy } from '../../../lib/lazy.js';

// Loaded on first use: nodemailer costs ~15 MB that a process sending no reply never needs.
const loadNodemailer = lazy(() => import('nodemailer'));

export interface ReplyRequest {
  /** MAIL FROM of the message (where RFC 3834 says replies go); empty for a null sender. */
  envelopeFrom: string;
  headers: { autoSubmitted?: string; precedence?: string; listId?: boolean };
  subject: string | null;
  messageId: string | null;
  /** What went wrong, one line each (`invoice.exe: the file type is not accepted`). */
  problems: string[];
  projectName: string;
}

export interface Replier {
  /** Sends (or decides not to send) the reply; true when one went out. Never throws. */
  send(r: ReplyRequest): Promise<boolean>;
  close(): void;
}

/** Automatic mail gets no reply (RFC 3834 section 2). */
export function isAutomatic(h: ReplyRequest['headers']): boolean {
  const auto = (h.autoSubmitted ?? '').trim().toLowerCase();
  if (auto && auto !== 'no') return true;
  return h.listId === true || /^(bulk|list|junk)$/i.test((h.precedence ?? '').trim());
}

export function createReplier(deps: {
  relayUrl: string;
  from: string;
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** Quiet time per sender, ms. Default one hour. */
  perSenderMs?: number;
}): Replier {
  // Made with the first reply, so nodemailer loads only once one is sent.
  let transport: Transporter | undefined;
  const perSenderMs = deps.perSenderMs ?? 3_600_000;
  return {
    async send(r) {
      const to = r.envelopeFrom.trim();
      if (!to || isAutomatic(r.headers) || r.problems.length === 0) return false;
      try {
        const key = `${deps.prefix}:smtp:replied:${createHash('sha256').update(to.toLowerCase()).digest('hex')}`;
        if ((await deps.redis.set(key, '1', 'PX', perSenderMs, 'NX')) !== 'OK') return false;
        const { createTransport } = await loadNodemailer();
        transport ??= createTransport(deps.relayUrl);
        await transport.sendMail({
          from: deps.from,
          to,
          subject: `Not processed: ${r.subject ?? '(no subject)'}`.slice(0, 300),
          // Our reply is automatic itself: a well-behaved peer will not answer it.
          headers: { 'Auto-Submitted': 'auto-replied', ...(r.messageId ? { 'In-Reply-To': r.messageId } : {}) },
          text: [
            `Your message to the project "${r.projectName}" was received, but not everything in it could be taken:`,
            '',
            ...r.problems.map((p) => `  - ${p}`),
            '',
            'This is an automatic reply; at most one is sent per hour.',
          ].join('\n'),
        });
        return true;
      } catch (err) {
        deps.logger.warn({ err }, 'inbound mail: could not send the reply to the sender');
        return false;
      }
    },
    close() {
      transport?.close();
    },
  };
}
