// Facts the code keeps in one place, checked where a second copy cannot be avoided: the database's
// own defaults, and the queue names BullMQ sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../../src/jobs/queues.js';
import { STAGES } from '../../../src/modules/documents/documents.types.js';
import { DEFAULT_CLASSIFICATION_THRESHOLD } from '../../../src/modules/projects/projects.types.js';
import { WORKER_ROLES } from '../../../workers/index.js';
import { createTestDb, dbKinds, type TestDb } from '../../helpers/db.js';

describe.each(dbKinds())('single sources of facts (%s)', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the projects table defaults the classification threshold to the constant the code uses', async () => {
    const { rows } = await t.db.query<{ column_default: string }>(
      `SELECT column_default FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'projects' AND column_name = 'classification_threshold'`,
    );
    expect(Number(rows[0].column_default)).toBe(DEFAULT_CLASSIFICATION_THRESHOLD);
  });
});

describe('queues and worker roles', () => {
  it('every pipeline stage has a worker role, in order, and every role is a known queue', () => {
    expect(WORKER_ROLES.slice(0, STAGES.length)).toEqual([...STAGES]);
    for (const role of WORKER_ROLES) expect(QUEUE_NAMES).toContain(role);
  });
});
