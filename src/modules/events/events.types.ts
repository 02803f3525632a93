import type { Environment } from '../../lib/scope.js';

/**
 * The platform's event types: the one list the webhook subscription and event enums, the
 * OpenAPI document and the workflow document trigger derive from. Adding one: see "An event
 * type" in docs/ARCHITECTURE.md.
 */
export const EVENT_TYPES = [
  'document.uploaded',
  'document.processed',
  'document.classified',
  'document.extracted',
  'document.deleted',
  // A document that ended in status `failed`; its data adds `error: {stage, code, message}`.
  'document.failed',
  'workflow.started',
  'workflow.step_completed',
  'workflow.completed',
  'workflow.failed',
  'report.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number] | 'webhook.test';

type DocumentEventType = Extract<(typeof EVENT_TYPES)[number], `document.${string}`>;
/** Document events a workflow's `trigger.document` can listen to: all but document.deleted (a run would have no document). */
export type DocumentTriggerEvent = Exclude<DocumentEventType, 'document.deleted'>;
export const DOCUMENT_TRIGGER_EVENTS: readonly DocumentTriggerEvent[] = EVENT_TYPES.filter(
  (t): t is DocumentTriggerEvent => t.startsWith('document.') && t !== 'document.deleted',
);

/**
 * The platform's namespaces (the first segment of its event types): a workflow's custom event
 * (send_webhook_event) may not use them, so it can never pass for one of the platform's events,
 * now or when a type is added. Two names in `workflow.` are the workflows' own: the default
 * `workflow.event` and `workflow.custom.<name>`.
 */
export const PLATFORM_EVENT_NAMESPACES: readonly string[] = [
  ...new Set([...EVENT_TYPES, 'webhook.test'].map((t) => t.split('.')[0])),
];
const CUSTOM_IN_PLATFORM = /^workflow\.(event|custom\.[a-z0-9_.-]+)$/;

/** The rule for custom event types, as error messages and documentation state it. */
export const CUSTOM_EVENT_RULE = `custom event types are workflow.event (the default), workflow.custom.<name>, or a name outside the platform's namespaces (${PLATFORM_EVENT_NAMESPACES.map((n) => `${n}.*`).join(', ')}), such as invoice.approved`;

/** Why a workflow may not send an event of this type, or null. */
export function customEventTypeProblem(type: string): string | null {
  const ns = type.split('.')[0];
  if (!PLATFORM_EVENT_NAMESPACES.includes(ns) || CUSTOM_IN_PLATFORM.test(type)) return null;
  return `"${type}" is in the platform's ${ns}.* namespace; ${CUSTOM_EVENT_RULE}`;
}

/** Who wrote an event that the platform did not: a workflow's send_webhook_event step. */
export interface EventSource {
  type: 'workflow';
  workflow_id: string;
  run_id: string;
  node_id: string;
}

export interface EventRow {
  id: string;
  org_id: string;
  environment: Environment;
  type: EventType;
  data: Record<string, unknown>;
  created_at: Date;
  relayed_at: Date | null;
  /** Null for the platform's own events. */
  source?: EventSource | null;
}

/** The delivery payload, exactly `{id, type, createdAt, data}`. */
export function presentEvent(e: EventRow) {
  return { id: e.id, type: e.type, createdAt: e.created_at.toISOString(), data: e.data };
}

/** An event as GET /events shows it: the delivery payload and who wrote it (null: the platform). */
export function presentEventRecord(e: EventRow) {
  return { ...presentEvent(e), source: e.source ?? null };
}
