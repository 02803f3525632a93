import type { Db } from '../../db/client.js';
import type { EmbedderLoader } from '../../pipeline/embed/index.js';
import { createSearchRepository } from './search.repository.js';
import { createSearchService } from './search.service.js';

/** Wires search: its repository and service over the documents' text, chunks and fingerprints. */
export function createSearchModule(deps: { db: Db; embedder: EmbedderLoader }) {
  const repo = createSearchRepository(deps.db);
  const service = createSearchService({
    repo,
    embedder: () => deps.embedder.get(),
    modelReady: () => deps.embedder.status().state === 'ready',
  });
  return { repo, service };
}

export type SearchModule = ReturnType<typeof createSearchModule>;
