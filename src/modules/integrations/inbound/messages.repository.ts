import type { Queryable } from '../../../db/client.js';
import { newId } from '../../../lib/ids.js';
import type { Scope } from '../../../lib/scope.js';
import type { PartOutcome } from '../../documents/message-parts/index.js';
import type { SmtpVerdicts } from './authentication.js';

export interface InboundMessageRow {
  id: string;
  org_id: string;
  environment: string;
  project_id: string;
  message_key: string;
  message_id: string | null;
  envelope_from: string | null;
  header_from: string | null;
  subject: string | null;
  remote_ip: string | null;
  helo: string | null;
  size_bytes: number;
  verdicts: SmtpVerdicts;
  status: 'consumed' | 'skipped';
  reason: string | null;
  parts: PartOutcome[];
  document_ids: string[];
  created_at: Date;
}

export type NewInboundMessage = Omit<InboundMessageRow, 'id' | 'org_id' | 'environment' | 'created_at'> & {
  scope: Scope;
};

export function createInboundMessagesRepository(db: Queryable) {
  return {
    async byKey(projectId: string, messageKey: string): Promise<InboundMessageRow | null> {
      const { rows } = await db.query<InboundMessageRow>(
        'SELECT * FROM inbound_messages WHERE project_id = $1 AND message_key = $2',
        [projectId, messageKey],
      );
      return rows[0] ?? null;
    },

    /** Records a received message; a concurrent copy recorded first wins (false: already there). */
    async insert(m: NewInboundMessage): Promise<boolean> {
      const res = await db.query(
        `INSERT INTO inbound_messages (id, org_id, environment, project_id, message_key, message_id, envelope_from,
           header_from, subject, remote_ip, helo, size_bytes, verdicts, status, reason, parts, document_ids)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)
         ON CONFLICT (project_id, message_key) DO NOTHING`,
        [
          newId('inb'),
          m.scope.orgId,
          m.scope.environment,
          m.project_id,
          m.message_key,
          m.message_id,
          m.envelope_from,
          m.header_from,
          m.subject,
          m.remote_ip,
          m.helo,
          m.size_bytes,
          JSON.stringify(m.verdicts),
          m.status,
          m.reason,
          JSON.stringify(m.parts),
          JSON.stringify(m.document_ids),
        ],
      );
      return res.rowCount > 0;
    },
  };
}

export type InboundMessagesRepository = ReturnType<typeof createInboundMessagesRepository>;
