import type { Environment } from '../../lib/scope.js';

export type SubscriptionStatus = 'active' | 'failing' | 'disabled';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'suspended' | 'gone';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'suspended', 'gone'];

export interface SubscriptionRow {
  id: string;
  org_id: string;
  environment: Environment;
  url: string;
  events: string[];
  description: string | null;
  status: SubscriptionStatus;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  org_id: string;
  environment: Environment;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  retry_index: number;
  dispatch_seq: number;
  manual: boolean;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  id: number;
  delivery_id: string;
  attempt: number;
  trigger: 'scheduled' | 'manual';
  status_code: number;
  error_code: string | null;
  error_message: string | null;
  duration_ms: number;
  response_body: string | null;
  response_truncated: boolean;
  next_attempt_at: Date | null;
  attempted_at: Date;
}

export interface CreateWebhookInput {
  url: string;
  events: string[];
  secret?: string;
  description?: string;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  /** Only the owner's switch: `failing` is set by the retry policy, cleared by enable. */
  status?: 'active' | 'disabled';
}

export interface ListWebhooksQuery {
  status?: SubscriptionStatus;
  limit: number;
  offset: number;
}

export interface ListDeliveriesQuery {
  status?: DeliveryStatus;
  event_type?: string;
  event_id?: string;
  limit: number;
  offset: number;
}

/** A job's whole payload: ids only, never secrets or event data (job data is stored in clear). */
export interface DeliveryJob {
  deliveryId: string;
  seq: number;
}

export function presentSubscription(s: SubscriptionRow, now: Date = new Date()) {
  const graceActive =
    s.previous_secret_sealed !== null && s.previous_secret_expires_at !== null && s.previous_secret_expires_at > now;
  return {
    id: s.id,
    url: s.url,
    events: s.events,
    description: s.description,
    status: s.status,
    environment: s.environment,
    failing_since: s.failing_since,
    previous_secret_expires_at: graceActive ? s.previous_secret_expires_at : null,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function presentDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    subscription_id: d.subscription_id,
    event_id: d.event_id,
    event_type: d.event_type,
    environment: d.environment,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
    last_attempt_at: d.last_attempt_at,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    delivered_at: d.delivered_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function presentAttempt(a: AttemptRow) {
  return {
    attempt: a.attempt,
    trigger: a.trigger,
    status_code: a.status_code,
    error: a.error_code ? { code: a.error_code, message: a.error_message ?? '' } : null,
    duration_ms: a.duration_ms,
    response_body: a.response_body,
    response_truncated: a.response_truncated,
    next_attempt_at: a.next_attempt_at,
    attempted_at: a.attempted_at,
  };
}
