import type { Environment } from '../../lib/scope.js';

/**
 * Classification confidence under which a document goes to needs_review, unless its project
 * sets its own. The projects table's column default (migration 0001) says the same; a test checks it.
 */
export const DEFAULT_CLASSIFICATION_THRESHOLD = 0.6;

export const NEAR_DUPLICATE_ACTIONS = ['keep', 'review', 'reject'] as const;
export type NearDuplicateAction = (typeof NEAR_DUPLICATE_ACTIONS)[number];

export interface ProjectRow {
  id: string;
  org_id: string;
  environment: Environment;
  name: string;
  description: string | null;
  color: string | null;
  icon: string | null;
  auto_classify: boolean;
  auto_extract: boolean;
  default_template_id: string | null;
  retention_days: number | null;
  allowed_file_types: string[];
  classification_threshold: number;
  /** What a near-duplicate of an earlier document does: keep (flagged), review, reject. */
  on_near_duplicate: NearDuplicateAction;
  status: 'active' | 'archived';
  /** The receiving address's local part (the domain is INBOUND_DOMAIN). */
  inbound_local_part: string | null;
  inbound_allowed_senders: string[];
  inbound_authentication: InboundAuthentication;
  inbound_consume: 'attachments' | 'eml' | 'both';
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What mail to the project's address must prove (mailauth verdicts) to be taken. */
export const INBOUND_AUTHENTICATION = ['none', 'spf', 'dkim', 'dmarc'] as const;
export type InboundAuthentication = (typeof INBOUND_AUTHENTICATION)[number];

export interface InboundSettings {
  inbound_allowed_senders?: string[];
  inbound_authentication?: InboundAuthentication;
  inbound_consume?: 'attachments' | 'eml' | 'both';
}

export interface CreateProjectInput extends InboundSettings {
  name: string;
  description?: string;
  color?: string;
  icon?: string;
  auto_classify?: boolean;
  auto_extract?: boolean;
  default_template_id?: string;
  retention_days?: number;
  allowed_file_types?: string[];
  classification_threshold?: number;
  on_near_duplicate?: NearDuplicateAction;
}

export type UpdateProjectInput = Partial<
  Pick<CreateProjectInput, 'name' | 'description' | 'color' | 'icon' | 'on_near_duplicate'>
> &
  InboundSettings;

export interface ListProjectsQuery {
  search?: string;
  sort?: 'name' | 'created_at' | 'updated_at';
  order?: 'asc' | 'desc';
  limit: number;
  offset: number;
  status?: 'active' | 'archived';
  include_archived?: boolean;
}

/**
 * The project's receiving address, or null when no INBOUND_DOMAIN is configured (the address
 * would lead nowhere).
 */
export function inboundAddress(p: Pick<ProjectRow, 'inbound_local_part'>, domain?: string): string | null {
  return domain && p.inbound_local_part ? `${p.inbound_local_part}@${domain}` : null;
}

export function presentProject(p: ProjectRow, inboundDomain?: string) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    color: p.color,
    icon: p.icon,
    status: p.status,
    environment: p.environment,
    auto_classify: p.auto_classify,
    auto_extract: p.auto_extract,
    default_template_id: p.default_template_id,
    retention_days: p.retention_days,
    allowed_file_types: p.allowed_file_types,
    classification_threshold: p.classification_threshold,
    inbound_address: inboundAddress(p, inboundDomain),
    inbound_allowed_senders: p.inbound_allowed_senders,
    inbound_authentication: p.inbound_authentication,
    inbound_consume: p.inbound_consume,
    on_near_duplicate: p.on_near_duplicate,
    archived_at: p.archived_at,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}
