import type { Environment } from '../../lib/scope.js';

export const EVENT_TYPES = [
  'document.uploaded',
  'document.processed',
  'document.classified',
  'document.extracted',
  'document.deleted',
  'workflow.started',
  'workflow.step_completed',
  'workflow.completed',
  'workflow.failed',
  'report.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number] | 'webhook.test';

export interface EventRow {
  id: string;
  org_id: string;
  environment: Environment;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
  relayed_at: Date | null;
}

/** The delivery payload, exactly `{id, type, createdAt, data}`. */
export function presentEvent(e: EventRow) {
  return { id: e.id, type: e.type, createdAt: e.created_at.toISOString(), data: e.data };
}
