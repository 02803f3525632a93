// Nodes that read or change the run's document: classify, extract, set_fields, move_to_project,
// mark_for_review. Each computes its change first (that is all a dry run does) and hands the
// write to the engine, which commits it with the step record.
import type { Queryable } from '../../../db/client.js';
import { documentValuesProblem } from '../../../lib/limits.js';
import type { Scope } from '../../../lib/scope.js';
import { documentEventData } from '../../documents/document-event.js';
import type { Classification, DocumentRow, FieldValue } from '../../documents/documents.types.js';
import type { StageCompute } from '../../documents/stage-runner.js';
import { insertEvent } from '../../events/events.repository.js';
import type { EventType } from '../../events/events.types.js';
import type { WorkflowDocuments } from '../documents.port.js';
import { StepError, type NodeContext, type NodeExecutor } from './types.js';

export interface DocumentNodeDeps {
  documents: WorkflowDocuments;
  computes: { classify: StageCompute; extract: StageCompute };
  projects: { get(scope: Scope, id: string, q?: Queryable): Promise<{ id: string; status: string } | null> };
}

function needDocument(ctx: NodeContext): DocumentRow {
  if (!ctx.document) {
    throw new StepError(
      'NO_DOCUMENT',
      `${ctx.node.type} needs a document: start the run from a document trigger or pass input.document_id`,
    );
  }
  return ctx.document;
}

/** Event data of a document change made by a workflow; the chain stops the change re-triggering it. */
function changeEvent(ctx: NodeContext, type: EventType, row: DocumentRow) {
  return {
    orgId: row.org_id,
    environment: row.environment,
    type,
    data: documentEventData(row, {
      workflowId: ctx.run.workflow_id,
      runId: ctx.run.id,
      workflowChain: [...ctx.run.chain, ctx.run.workflow_id],
    }),
  };
}

const busy = (doc: DocumentRow) => {
  if (doc.pipeline?.current)
    throw new StepError(
      'DOCUMENT_BUSY',
      `the document is being processed (stage ${doc.pipeline.current}); retry once its run has finished`,
      true,
    );
};

/** classify and extract: the pipeline's stage computation, committed with the step. */
export const stageNode =
  (deps: DocumentNodeDeps, stage: 'classify' | 'extract'): NodeExecutor =>
  async (ctx) => {
    const doc = needDocument(ctx);
    busy(doc);
    const read = await deps.documents.forCompute(doc.id, stage);
    if (!read) throw new StepError('DOCUMENT_NOT_FOUND', 'the document no longer exists');
    if (read.doc.text_content === null)
      throw new StepError('DOCUMENT_NOT_PARSED', 'the document has no text yet (it was never parsed)');
    let project = read.project;
    let context = read.context;
    const templateId = ctx.node.config.template_id as string | undefined;
    if (stage === 'extract' && templateId) {
      const only = (context.templates ?? []).filter((t) => t.id === templateId);
      if (only.length === 0) throw new StepError('TEMPLATE_NOT_FOUND', `template ${templateId} does not exist`);
      context = { ...context, templates: only };
      project = project ? { ...project, default_template_id: templateId } : project;
    }
    const out = await (stage === 'classify' ? deps.computes.classify : deps.computes.extract)(
      read.doc,
      project,
      context,
    );
    const cols = out.cols;
    const output: Record<string, unknown> =
      stage === 'classify'
        ? (() => {
            const c = (cols.classification as Classification | undefined) ?? read.doc.classification;
            return {
              type: c?.type ?? null,
              confidence: c?.confidence ?? null,
              method: c?.method ?? null,
              kept_confirmed: !cols.classification,
              needs_review: out.needsReview ?? false,
            };
          })()
        : {
            fields: Object.fromEntries(
              Object.entries((cols.fields as Record<string, FieldValue>) ?? {}).map(([k, v]) => [k, v.value]),
            ),
            template_id: cols.template_id ?? null,
            note: out.note ?? null,
          };
    const simulated = { ...doc, ...(cols as Partial<DocumentRow>) } as DocumentRow;
    if (ctx.dryRun) return { input: { template_id: templateId ?? null }, output, simulated };
    return {
      input: { template_id: templateId ?? null },
      output,
      effects: {
        async db(q) {
          const row = await deps.documents.writeStageColumns(q, doc.id, cols);
          if (!row) throw new StepError('DOCUMENT_NOT_FOUND', 'the document no longer exists');
          await insertEvent(
            q,
            changeEvent(ctx, stage === 'classify' ? 'document.classified' : 'document.extracted', row),
          );
          return row;
        },
      },
    };
  };

export const setFieldsNode =
  (deps: DocumentNodeDeps): NodeExecutor =>
  async (ctx) => {
    const doc = needDocument(ctx);
    const c = ctx.node.config as { fields?: Record<string, string>; metadata?: Record<string, string> };
    const fieldKeys = Object.keys(c.fields ?? {});
    const metaKeys = Object.keys(c.metadata ?? {});
    const values = await ctx.evaluate([...fieldKeys.map((k) => c.fields![k]), ...metaKeys.map((k) => c.metadata![k])]);
    const fields = Object.fromEntries(fieldKeys.map((k, i) => [k, values[i] ?? null]));
    const metadata = Object.fromEntries(metaKeys.map((k, i) => [k, values[fieldKeys.length + i] ?? null]));
    const output = { fields, metadata };
    const merged: Record<string, FieldValue> = { ...(doc.fields ?? {}) };
    for (const [k, value] of Object.entries(fields)) merged[k] = { value, confidence: 1, method: 'workflow' };
    const simulated = { ...doc, fields: merged, metadata: { ...doc.metadata, ...metadata } };
    // The document as it would be must stay within the bound every writer keeps (dry run too).
    const tooLarge = documentValuesProblem(merged, simulated.metadata);
    if (tooLarge) throw new StepError('DOCUMENT_TOO_LARGE', `set_fields: ${tooLarge.field} ${tooLarge.message}`);
    if (ctx.dryRun) return { input: c, output, simulated };
    return {
      input: c,
      output,
      effects: { db: async (q) => deps.documents.setFields(q, doc.id, fields, metadata) },
    };
  };

export const moveToProjectNode =
  (deps: DocumentNodeDeps): NodeExecutor =>
  async (ctx) => {
    const doc = needDocument(ctx);
    const projectId = ctx.node.config.project_id as string;
    const project = await deps.projects.get(ctx.scope, projectId);
    if (!project) throw new StepError('PROJECT_NOT_FOUND', `project ${projectId} does not exist`);
    if (project.status === 'archived') throw new StepError('PROJECT_ARCHIVED', `project ${projectId} is archived`);
    const output = { from_project_id: doc.project_id, to_project_id: projectId, moved: doc.project_id !== projectId };
    const simulated = { ...doc, project_id: projectId };
    if (ctx.dryRun || doc.project_id === projectId) return { input: { project_id: projectId }, output, simulated };
    return {
      input: { project_id: projectId },
      output,
      effects: { db: async (q) => deps.documents.moveToProject(q, doc.id, projectId) },
    };
  };

export const markForReviewNode =
  (deps: DocumentNodeDeps): NodeExecutor =>
  async (ctx) => {
    const doc = needDocument(ctx);
    busy(doc);
    const template = ctx.node.config.reason as string | undefined;
    const [reason] = template ? await ctx.render([template]) : [null];
    // The reason is kept in metadata.review_reason: the document's bound applies to it too.
    const tooLarge = documentValuesProblem(doc.fields, { ...doc.metadata, review_reason: reason });
    if (tooLarge) throw new StepError('DOCUMENT_TOO_LARGE', `mark_for_review: ${tooLarge.field} ${tooLarge.message}`);
    const output = { previous_status: doc.status, status: 'needs_review', reason };
    const simulated = { ...doc, status: 'needs_review' as const };
    if (ctx.dryRun) return { input: { reason: template ?? null }, output, simulated };
    return {
      input: { reason: template ?? null },
      output,
      effects: { db: async (q) => deps.documents.markForReview(q, doc.id, reason) },
    };
  };
