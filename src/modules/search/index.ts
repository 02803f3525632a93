import type { Db } from '../../db/client.js';
import type { EmbedderLoader } from '../../pipeline/embed/index.js';
import { createSearchRepository } from './search.repository.js';
import { createSearchService } from './search.service.js';
import { createVectorIndex } from './vector-index.js';

/** Wires search: its repository and service over the documents' text, chunks and fingerprints. */
export function createSearchModule(deps: {
  db: Db;
  embedder: EmbedderLoader;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}) {
  const repo = createSearchRepository(deps.db);
  const vectors = createVectorIndex(deps.db, deps.log);
  const service = createSearchService({
    repo,
    embedder: () => deps.embedder.get(),
    modelReady: () => deps.embedder.status().state === 'ready',
    vectors,
  });
  return { repo, service, vectors };
}

export type SearchModule = ReturnType<typeof createSearchModule>;
