// Wiring of the watched folder (worker role `watch`): WATCH_DIR/<project id>/ feeds that project.
// Folders are made for every active project; a folder named after no project is left alone and
// logged once. Files are uploaded through document intake like POST /documents (same type
// checks, size limit and duplicate handling).
import { createReadStream } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../../config.js';
import { DomainError, RateLimitedError, UnavailableError } from '../../../lib/errors.js';
import type { Logger } from '../../../lib/logger.js';
import type { Intake } from '../../documents/intake.js';
import type { ProjectsRepository } from '../../projects/projects.repository.js';
import {
  startFolderWatcher,
  type FolderWatcher,
  type FolderWatcherOptions,
  type UploadResult,
} from './folder-watcher.js';

export {
  startFolderWatcher,
  type FolderWatcher,
  type FolderWatcherOptions,
  type UploadResult,
} from './folder-watcher.js';

const PROJECT_ID = /^prj_[0-9A-Za-z]+$/;

export interface WatchModule {
  readonly enabled: boolean;
  /** Starts the watcher over WATCH_DIR (the `watch` role); options override the configuration's. */
  start(overrides?: Partial<FolderWatcherOptions> & { dir?: string }): Promise<FolderWatcher>;
}

export function createWatchModule(deps: {
  config: Pick<Config, 'WATCH_DIR' | 'WATCH_STABLE_MS' | 'WATCH_POLL_MS'>;
  projects: Pick<ProjectsRepository, 'byId' | 'activeIds'>;
  intake: Pick<Intake, 'store' | 'fromBlob'>;
  logger: Logger;
}): WatchModule {
  const upload = async (path: string, filename: string, projectId: string): Promise<UploadResult> => {
    const project = await deps.projects.byId(projectId);
    if (!project) return { kind: 'refused', reason: `Project ${projectId} does not exist` };
    try {
      const blob = await deps.intake.store(createReadStream(path));
      const res = await deps.intake.fromBlob(blob, {
        scope: { orgId: project.org_id, environment: project.environment },
        projectId,
        filename,
        source: 'upload',
        sourceMetadata: { watch: { filename } },
        uploadedBy: null,
      });
      return { kind: res.kind, documentId: res.document.id };
    } catch (err) {
      // What the API would answer with 4xx (type, size, empty, archived) is the file's fault.
      if (err instanceof DomainError && !(err instanceof UnavailableError || err instanceof RateLimitedError))
        return { kind: 'refused', reason: err.message };
      throw err;
    }
  };

  return {
    enabled: !!deps.config.WATCH_DIR,
    async start(overrides = {}) {
      const root = overrides.dir ?? deps.config.WATCH_DIR;
      if (!root) throw new Error('The watch worker role needs WATCH_DIR to be set');
      await mkdir(root, { recursive: true });
      const unknown = new Set<string>();
      // Folder name → whether it names a project, re-checked each minute (one query per folder per scan otherwise).
      const checked = new Map<string, { ok: boolean; at: number }>();
      const isProject = async (name: string): Promise<boolean> => {
        const c = checked.get(name);
        if (c && Date.now() - c.at < 60_000) return c.ok;
        const ok = PROJECT_ID.test(name) && !!(await deps.projects.byId(name));
        checked.set(name, { ok, at: Date.now() });
        return ok;
      };
      let madeAt = 0;
      const source = {
        async folders() {
          // Folders for every active project, re-checked each minute (new projects).
          if (Date.now() - madeAt > 60_000) {
            madeAt = Date.now();
            for (const id of await deps.projects.activeIds()) await mkdir(join(root, id), { recursive: true });
          }
          const out: { dir: string; projectId: string }[] = [];
          for (const e of await readdir(root, { withFileTypes: true })) {
            if (!e.isDirectory() || e.name.startsWith('.')) continue;
            if (await isProject(e.name)) {
              unknown.delete(e.name);
              out.push({ dir: join(root, e.name), projectId: e.name });
            } else if (!unknown.has(e.name)) {
              unknown.add(e.name);
              deps.logger.warn(
                { folder: join(root, e.name) },
                'watch: folder is not named after a project; its files stay',
              );
            }
          }
          return out;
        },
      };
      return startFolderWatcher({
        source,
        upload,
        logger: deps.logger,
        stableMs: deps.config.WATCH_STABLE_MS,
        pollMs: deps.config.WATCH_POLL_MS,
        ...overrides,
      });
    },
  };
}
