import type { RunRow, StepStatus } from '../workflows.types.js';

export interface StepSummary {
  id: string;
  type: string;
  status: StepStatus;
  branch: string | null;
  attempts: number;
  duration_ms: number | null;
}

/** `data` of every workflow.* event: `{workflowId, runId, mode, status, step?, documentId?}`. */
export function runEventData(
  run: Pick<RunRow, 'workflow_id' | 'id' | 'mode' | 'document_id'>,
  status: string,
  step?: StepSummary,
  extra: Record<string, unknown> = {},
) {
  return {
    workflowId: run.workflow_id,
    runId: run.id,
    mode: run.mode,
    status,
    ...(step ? { step } : {}),
    ...(run.document_id ? { documentId: run.document_id } : {}),
    ...extra,
  };
}
