import type { Queues } from '../../jobs/queues.js';
import { STAGE_DESCRIPTORS, STAGES, type Stage } from '../../pipeline/stages.js';
import type { DocumentRow } from './documents.types.js';

export interface StageJobData {
  documentId: string;
  version: number;
}

/** Deterministic ids: enqueueing the same stage of the same document version twice is a no-op. */
export function stageJobId(stage: Stage, documentId: string, version: number): string {
  return `${stage}-${documentId}-v${version}`;
}

/** The stages a run goes through, in order, given the project's settings and an optional request. */
export function planStages(project: { auto_classify: boolean; auto_extract: boolean }, requested?: Stage[]): Stage[] {
  const enabled = (s: Stage) => {
    const setting = STAGE_DESCRIPTORS[s].enabledBy;
    return setting === null || project[setting];
  };
  if (requested && requested.length) return STAGES.filter((s) => requested.includes(s));
  return STAGES.filter(enabled);
}

export function nextStage(stages: Stage[] | undefined, current: Stage): Stage | null {
  const list = stages ?? [...STAGES];
  const i = list.indexOf(current);
  return i >= 0 && i + 1 < list.length ? list[i + 1] : null;
}

/** Stage queues use a fixed attempt budget; permanent failures bypass it (UnrecoverableError). */
export const STAGE_ATTEMPTS = 4;

/** A stage job as `Queue.add`/`addBulk` take it. */
export function stageJob(stage: Stage, doc: Pick<DocumentRow, 'id' | 'version'>) {
  const data: StageJobData = { documentId: doc.id, version: doc.version };
  return {
    name: stage,
    data,
    opts: {
      jobId: stageJobId(stage, doc.id, doc.version),
      attempts: STAGE_ATTEMPTS,
      backoff: { type: 'exponential' as const, delay: 1_000 },
    },
  };
}

export async function enqueueStage(
  queues: Queues,
  stage: Stage,
  doc: Pick<DocumentRow, 'id' | 'version'>,
): Promise<void> {
  const j = stageJob(stage, doc);
  await queues.get(stage).add(j.name, j.data, j.opts);
}

/** Many first stages at once, one round trip per stage (a batch walker's page). */
export async function enqueueStages(
  queues: Queues,
  jobs: { stage: Stage; doc: Pick<DocumentRow, 'id' | 'version'> }[],
) {
  const byStage = new Map<Stage, ReturnType<typeof stageJob>[]>();
  for (const { stage, doc } of jobs) {
    const list = byStage.get(stage) ?? [];
    list.push(stageJob(stage, doc));
    byStage.set(stage, list);
  }
  for (const [stage, list] of byStage) await queues.get(stage).addBulk(list);
}
