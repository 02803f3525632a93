// One message received over SMTP for one project, from bytes to committed documents. It goes
// through the same path as IMAP mail (ingestMessageParts: part selection, intake, duplicates), and its
// record is written last: when this returns `accepted`, everything is committed and 250 may be
// answered. A process dying earlier leaves at most complete documents of an unrecorded message,
// which the sender's retry finds again as its own (same message key) instead of duplicating.
import type { Logger } from '../../../lib/logger.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import type { Intake } from '../../documents/intake.js';
import type { ProjectRow } from '../../projects/projects.types.js';
import {
  documentIdsOf,
  ingestMessageParts,
  parseMessage,
  type PartOutcome,
} from '../../documents/message-parts/index.js';
import { factsOf, messageMetadata } from '../mailbox/facts.js';
import { extractAddress, matchesSender } from '../mailbox/rules/index.js';
import { authenticationFailure, verifySender, type DnsResolver, type Envelope } from './authentication.js';
import type { InboundMessagesRepository } from './messages.repository.js';
import { isAutomatic, type Replier } from './replies.js';

export interface ReceiveDeps {
  intake: Pick<Intake, 'fromBuffer'>;
  messages: InboundMessagesRepository;
  logger: Logger;
  resolver?: DnsResolver;
  /** This receiver's host name (Received and Authentication-Results wording). */
  mta?: string;
  replier?: Replier;
}

export type ReceiveOutcome =
  | { kind: 'accepted'; documentIds: string[]; parts: PartOutcome[]; duplicate: boolean }
  /** Permanent (5xx) or temporary (4xx) refusal, with the reply text. */
  | { kind: 'refused'; code: number; message: string };

/** Part outcomes the sender should hear about. */
const TOLD: Record<string, string> = {
  type_not_allowed: 'the file type is not accepted here',
  too_large: 'the file is too large',
  empty: 'the file is empty',
  tnef_not_supported: 'winmail.dat (TNEF) attachments cannot be read',
};

function header(parsed: Awaited<ReturnType<typeof parseMessage>>['parsed'], name: string): string | undefined {
  const v = parsed?.headers.get(name);
  return typeof v === 'string' ? v : undefined;
}

export async function receiveMessage(
  deps: ReceiveDeps,
  project: ProjectRow,
  raw: Buffer,
  env: Envelope,
): Promise<ReceiveOutcome> {
  // Authentication needs only the bytes and the envelope, and spends its time waiting for DNS:
  // started first, it overlaps the parsing and the duplicate check. It never rejects.
  const verdictsPending = verifySender(raw, env, { resolver: deps.resolver, mta: deps.mta });
  const { parsed, error } = await parseMessage(raw);
  if (!parsed) return { kind: 'refused', code: 554, message: `5.6.0 ${error ?? 'Message could not be parsed'}` };
  const facts = factsOf(parsed, raw);
  const seen = await deps.messages.byKey(project.id, facts.messageKey);
  // A resent message (the sender did not see our 250): taken already, nothing new to make.
  if (seen) return { kind: 'accepted', documentIds: seen.document_ids, parts: seen.parts, duplicate: true };

  const headerFrom = facts.sender ?? '';
  const verdicts = await verdictsPending;
  // The From header is what people read and what DMARC protects; without one, the envelope.
  const fromAddress = extractAddress(headerFrom) || extractAddress(env.sender);
  if (!matchesSender(fromAddress, project.inbound_allowed_senders))
    return { kind: 'refused', code: 550, message: `5.7.1 Sender ${fromAddress || '(none)'} is not allowed` };
  const authFailed = authenticationFailure(project.inbound_authentication, verdicts);
  if (authFailed) return { kind: 'refused', code: 550, message: `5.7.1 ${authFailed}` };

  const automatic = isAutomatic({
    autoSubmitted: header(parsed, 'auto-submitted'),
    precedence: header(parsed, 'precedence'),
    listId: parsed.headers.has('list-id'),
  });
  const smtp = {
    from: env.sender || null,
    // Kept so that a later pipeline failure is not answered either.
    automatic,
    header_from: fromAddress || null,
    remote_ip: env.remoteIp,
    helo: env.helo,
    ...verdicts,
  };
  let parts: PartOutcome[];
  try {
    parts = await ingestMessageParts(deps.intake, {
      parsed,
      raw,
      rules: { consume: project.inbound_consume },
      scope: { orgId: project.org_id, environment: project.environment },
      projectId: project.id,
      source: 'email',
      uploadedBy: null,
      metadataFor: (part) => ({
        ...messageMetadata(parsed, facts),
        inbound_message_key: facts.messageKey,
        smtp,
        part: part.kind,
      }),
      isOurs: (doc) => doc.source_metadata?.inbound_message_key === facts.messageKey,
    });
  } catch (err) {
    // Archived (or deleted meanwhile): the sender's server keeps trying for a while.
    if (err instanceof ConflictError || err instanceof NotFoundError)
      return { kind: 'refused', code: 451, message: `4.3.0 ${err.message}` };
    throw err;
  }
  const documentIds = documentIdsOf(parts);
  await deps.messages.insert({
    scope: { orgId: project.org_id, environment: project.environment },
    project_id: project.id,
    message_key: facts.messageKey,
    message_id: facts.messageId,
    envelope_from: env.sender || null,
    header_from: fromAddress || null,
    subject: facts.subject,
    remote_ip: env.remoteIp,
    helo: env.helo,
    size_bytes: raw.length,
    verdicts,
    status: documentIds.length ? 'consumed' : 'skipped',
    reason: documentIds.length ? null : parts.length ? 'no_acceptable_attachments' : 'no_attachments',
    parts,
    document_ids: documentIds,
  });
  const problems = parts.flatMap((p) => (p.reason && TOLD[p.reason] ? [`${p.filename}: ${TOLD[p.reason]}`] : []));
  if (deps.replier && problems.length)
    void deps.replier.send({
      envelopeFrom: env.sender,
      headers: {
        autoSubmitted: header(parsed, 'auto-submitted'),
        precedence: header(parsed, 'precedence'),
        listId: parsed.headers.has('list-id'),
      },
      subject: facts.subject,
      messageId: facts.messageId,
      problems,
      projectName: project.name,
    });
  return { kind: 'accepted', documentIds, parts, duplicate: false };
}
