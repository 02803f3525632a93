// Outbox consumer: a document event starts one run of every active workflow whose document
// trigger matches it. Runs are inserted in the relay's transaction under the unique key
// (workflow, event id), so however often an event is relayed and however many workers relay,
// each (event, workflow) pair gets exactly one run. A change a workflow step made carries the
// chain of workflows behind it, and never starts a workflow of that chain again (no loops).
import type { Queryable } from '../../db/client.js';
import type { EventRow } from '../events/events.types.js';
import type { AfterCommit, OutboxConsumer } from '../events/relay.js';
import { DOCUMENT_TRIGGER_EVENTS } from '../events/events.types.js';
import type { RunsRepository } from './runs.repository.js';
import type { WorkflowsRepository } from './workflows.repository.js';

/** Longest chain of workflow-caused document events that still starts workflows. */
export const MAX_CHAIN = 8;

export interface DocumentFilters {
  project_ids?: string[];
  sources?: string[];
  classification_types?: string[];
  min_confidence?: number;
  max_confidence?: number;
}

/** Whether a document event's data passes a trigger's filters. */
export function matchesFilters(f: DocumentFilters | undefined, data: Record<string, unknown>): boolean {
  if (!f) return true;
  const cls = data.classification as { type?: string; confidence?: number } | null | undefined;
  if (f.project_ids?.length && !f.project_ids.includes(data.projectId as string)) return false;
  if (f.sources?.length && !f.sources.includes(data.source as string)) return false;
  if (f.classification_types?.length && !(cls?.type && f.classification_types.includes(cls.type))) return false;
  if (f.min_confidence !== undefined && !(typeof cls?.confidence === 'number' && cls.confidence >= f.min_confidence))
    return false;
  if (f.max_confidence !== undefined && !(typeof cls?.confidence === 'number' && cls.confidence <= f.max_confidence))
    return false;
  return true;
}

export function createWorkflowFanOut(deps: {
  workflows: WorkflowsRepository;
  runs: RunsRepository;
  enqueue(ids: string[]): Promise<void>;
}): OutboxConsumer {
  const types = new Set<string>(DOCUMENT_TRIGGER_EVENTS);
  return {
    async fanOut(q: Queryable, events: readonly EventRow[]): Promise<AfterCommit | void> {
      const docEvents = events.filter((e) => types.has(e.type));
      if (docEvents.length === 0) return;
      const wfs = await deps.workflows.documentTriggered(q, [...new Set(docEvents.map((e) => e.org_id))]);
      if (wfs.length === 0) return;
      const items: Parameters<RunsRepository['insertForEvents']>[1] = [];
      for (const e of docEvents) {
        const chain = Array.isArray(e.data.workflowChain) ? (e.data.workflowChain as string[]) : [];
        if (chain.length >= MAX_CHAIN) continue;
        for (const w of wfs) {
          if (w.org_id !== e.org_id || w.environment !== e.environment || chain.includes(w.id)) continue;
          if (
            !w.trigger_config.events.includes(e.type) ||
            !matchesFilters(w.trigger_config.filters as DocumentFilters, e.data)
          )
            continue;
          items.push({
            workflowId: w.id,
            eventId: e.id,
            eventType: e.type,
            documentId: (e.data.documentId as string) ?? null,
            chain,
          });
        }
      }
      const ids = await deps.runs.insertForEvents(q, items);
      if (ids.length === 0) return;
      return () => deps.enqueue(ids);
    },
  };
}
