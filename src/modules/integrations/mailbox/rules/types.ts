import type { PartRules } from '../../../documents/message-parts/index.js';

/**
 * The filtering part of a mailbox's settings (product field names in brackets): which messages
 * are taken, plus the part selection every message source shares. A missing field means
 * "no restriction".
 */
export interface MailRuleConfig extends PartRules {
  /** [allowed_senders] Addresses or `@domain` entries. Default: empty = everyone. */
  allowedSenders?: readonly string[] | null;
  /** [subject_filter] Case-insensitive substring, or `/regex/flags`. Default: none. */
  subjectFilter?: string | null;
  /** [max_age_days] Ignore mail older than this. Default: no limit. */
  maxAgeDays?: number | null;
}
