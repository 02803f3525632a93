// Starting runs of a document's stages (each a new version) and queueing their first stage: what
// reprocessing one document and a batch's walker share.
import type { Queryable } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { Queues } from '../../jobs/queues.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { DocumentsRepository } from './documents.repository.js';
import type { DocumentRow, Stage } from './documents.types.js';
import { enqueueStage, enqueueStages, planStages } from './flow.js';

type ProjectSettings = { auto_classify: boolean; auto_extract: boolean };
type Started = Pick<DocumentRow, 'id' | 'version' | 'pipeline'>;

/** The stages of a new run. Later stages need text: a document never parsed is parsed first. */
function runStages(project: ProjectSettings | null, requested: Stage[] | undefined, parsed: boolean): Stage[] {
  const stages = planStages(project ?? { auto_classify: true, auto_extract: true }, requested);
  return !stages.includes('parse') && !parsed ? ['parse', ...stages] : stages;
}

function pipelineOf(stages: Stage[], batchId: string | null): DocumentRow['pipeline'] {
  return { stages, current: stages[0], batch_id: batchId, notes: {}, queued_at: new Date().toISOString() };
}

export function createRunStarter(deps: {
  docs: DocumentsRepository;
  projects: ProjectsRepository;
  queues: Queues;
  logger: Logger;
}) {
  const projectOf = (doc: Pick<DocumentRow, 'org_id' | 'environment' | 'project_id'>, q: Queryable) =>
    deps.projects.get({ orgId: doc.org_id, environment: doc.environment }, doc.project_id, q);

  return {
    /** Starts a new run (new version) of the given stages for one document; returns it. */
    async start(q: Queryable, doc: DocumentRow, requested: Stage[] | undefined, batchId: string | null) {
      const stages = runStages(await projectOf(doc, q), requested, !!doc.parsed_at);
      return deps.docs.update(q, doc.id, {
        version: doc.version + 1,
        status: 'processing',
        error: null,
        completed_at: null,
        pipeline: pipelineOf(stages, batchId),
      });
    },

    /**
     * {@link start} for a page of documents (rows from `docs.lockForRuns`) in one statement plus
     * one project read per project, whatever the page's size.
     */
    async startMany(
      q: Queryable,
      docs: Pick<DocumentRow, 'id' | 'org_id' | 'environment' | 'project_id' | 'parsed_at'>[],
      requested: Stage[] | undefined,
      batchId: string | null,
    ) {
      const projects = new Map<string, ProjectSettings | null>();
      const runs: { id: string; pipeline: DocumentRow['pipeline'] }[] = [];
      for (const doc of docs) {
        let project = projects.get(doc.project_id);
        if (project === undefined) {
          project = await projectOf(doc, q);
          projects.set(doc.project_id, project);
        }
        runs.push({ id: doc.id, pipeline: pipelineOf(runStages(project, requested, !!doc.parsed_at), batchId) });
      }
      return deps.docs.startRuns(q, runs);
    },

    /** Queues each run's first stage (after its commit). A failure is left to the sweeper. */
    async enqueue(docs: Started[]): Promise<void> {
      for (const d of docs) {
        if (!d.pipeline.current) continue;
        try {
          await enqueueStage(deps.queues, d.pipeline.current, d);
        } catch (err) {
          deps.logger.warn({ err, documentId: d.id }, 'could not queue; the sweeper will retry');
        }
      }
    },

    /** {@link enqueue} for many runs, one round trip per stage. */
    async enqueueMany(docs: Started[]): Promise<void> {
      const jobs = docs.flatMap((doc) => (doc.pipeline.current ? [{ stage: doc.pipeline.current, doc }] : []));
      try {
        await enqueueStages(deps.queues, jobs);
      } catch (err) {
        deps.logger.warn({ err, documents: jobs.length }, 'could not queue a page of runs; the sweeper will retry');
      }
    },
  };
}

export type RunStarter = ReturnType<typeof createRunStarter>;
