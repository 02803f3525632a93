// The pipeline routes in the OpenAPI document (the pipeline-control service's answers).
import { t, type OperationDocs } from '../../openapi-shapes.js';
import { batchSchema } from '../documents/openapi.js';

const queue = t.obj({
  name: t.str,
  waiting: t.int,
  active: t.int,
  delayed: t.int,
  failed: t.int,
  completed: t.int,
  paused: t.bool,
});
const operatorOnly = { 403: 'Not an operator organization (PIPELINE_OPERATOR_ORGS), or the role is below admin' };
const unknownQueue = { 404: 'No such queue' };

export const pipelineDocs: OperationDocs = {
  'GET /pipeline': {
    data: t.obj(
      {
        stages: t.map(
          t.obj({
            in_progress: t.int,
            failed: t.int,
            skipped: {
              ...t.int,
              description:
                'Documents whose last run went past this stage without its work (embed: no embedding model could be loaded)',
            },
            skipped_reason: {
              ...t.nstr,
              description: 'Why, as most recently recorded (e.g. the model that is missing)',
            },
          }),
          'Per stage: your documents in progress, failed, and skipped',
        ),
        queues: t.nullable(t.arr(queue)),
        can_control_queues: t.bool,
        queues_reason: t.str,
      },
      ['queues_reason'],
    ),
  },
  'POST /pipeline/queues/:name/pause': { data: queue, errors: { ...operatorOnly, ...unknownQueue } },
  'POST /pipeline/queues/:name/resume': { data: queue, errors: { ...operatorOnly, ...unknownQueue } },
  'POST /pipeline/queues/:name/retry-failed': {
    status: 202,
    description: 'The failed jobs were queued again',
    data: t.obj({ ...(queue.properties as Record<string, Record<string, unknown>>), retried: t.int }),
    errors: { ...operatorOnly, ...unknownQueue },
  },
  'POST /pipeline/stages/:stage/retry-failed': {
    status: 202,
    description: 'A batch was created; follow it at GET /batches/{id}',
    data: batchSchema,
  },
  'POST /pipeline/stages/:stage/reprocess': {
    status: 202,
    description: 'A batch was created; follow it at GET /batches/{id}',
    data: batchSchema,
    requestExample: { mode: 'missing' },
  },
};
