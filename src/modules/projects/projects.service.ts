import type { Db } from '../../db/client.js';
import { errors, type FieldIssue } from '../../lib/errors.js';
import { normaliseFileTypes, validateFileTypeEntry } from './file-types.js';
import type { Logger } from '../../lib/logger.js';
import type { Stamps } from '../access/stamps.js';
import type { ProjectListCache } from './list-cache.js';
import type { ProjectsRepository } from './projects.repository.js';
import {
  presentProject,
  type CreateProjectInput,
  type ListProjectsQuery,
  type UpdateProjectInput,
} from './projects.types.js';
import type { Scope } from '../../lib/scope.js';

export interface ProjectDocumentHooks {
  /** Deletes every document of a project with its files and `document.deleted` events. */
  deleteAllInProject(scope: Scope, projectId: string): Promise<number>;
}

const SENDER = /^(?:[^\s@<>()",;:]+)?@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

/** An allowed-senders entry is an address (`user@example.com`) or a whole domain (`@example.com`). */
function senderIssues(list: string[] | undefined): FieldIssue[] {
  return (list ?? []).flatMap((entry, i) =>
    SENDER.test(entry.trim())
      ? []
      : [{ field: `inbound_allowed_senders[${i}]`, message: 'must be an address (user@example.com) or @example.com' }],
  );
}

function normaliseSenders(list: string[] | undefined): string[] | undefined {
  return list && [...new Set(list.map((e) => e.trim().toLowerCase()))];
}

export function createProjectsService(deps: {
  db: Db;
  repo: ProjectsRepository;
  documents?: ProjectDocumentHooks;
  /** Version counters: every project write bumps its scope's `prj` counter after committing. */
  stamps?: Pick<Stamps, 'bump'>;
  /** Serves repeated list queries while the scope's counter is unchanged. */
  listCache?: ProjectListCache;
  logger?: Logger;
  /** INBOUND_DOMAIN: projects show their receiving address only when it is set. */
  inboundDomain?: string;
}) {
  const present = (row: Parameters<typeof presentProject>[0]) => presentProject(row, deps.inboundDomain);
  const changed = async (scope: Scope) => {
    if (!deps.stamps) return;
    // The write is committed: a failed bump must not turn it into an error; the cache's
    // maximum age bounds how long another process can still serve the previous list.
    await deps.stamps
      .bump('prj', `${scope.orgId}:${scope.environment}`)
      .catch((err: unknown) => deps.logger?.warn({ err }, 'could not bump the project list version'));
  };
  const mustGet = async (scope: Scope, id: string) => {
    const p = await deps.repo.get(scope, id);
    if (!p) throw errors.notFound('Project');
    return p;
  };
  return {
    async create(scope: Scope, input: CreateProjectInput) {
      const issues: FieldIssue[] = [];
      input.allowed_file_types?.forEach((t, i) => {
        const problem = validateFileTypeEntry(t);
        if (problem) issues.push({ field: `allowed_file_types[${i}]`, message: problem });
      });
      if (input.default_template_id && !(await deps.repo.templateExists(scope, input.default_template_id))) {
        issues.push({ field: 'default_template_id', message: `template ${input.default_template_id} does not exist` });
      }
      issues.push(...senderIssues(input.inbound_allowed_senders));
      if (issues.length) throw errors.validation(issues.map((x) => `${x.field}: ${x.message}`).join('; '), issues);
      const row = await deps.repo.insert(scope, {
        ...input,
        inbound_allowed_senders: normaliseSenders(input.inbound_allowed_senders),
        allowed_file_types: input.allowed_file_types ? normaliseFileTypes(input.allowed_file_types) : undefined,
      });
      await changed(scope);
      return present(row);
    },
    async get(scope: Scope, id: string) {
      return present(await mustGet(scope, id));
    },
    async getRow(scope: Scope, id: string) {
      return mustGet(scope, id);
    },
    /** `version`: the scope's project list version read with this request's rate limit, if any. */
    async list(scope: Scope, query: ListProjectsQuery, version?: string) {
      const cache = version !== undefined ? deps.listCache : undefined;
      const queryKey = JSON.stringify([
        query.status,
        query.include_archived,
        query.search,
        query.sort,
        query.order,
        query.limit,
        query.offset,
      ]);
      // A hit returns the very same object, so the route can keep its serialised form too.
      let page = cache?.get(scope, version!, queryKey);
      if (!page) {
        const { rows, total } = await deps.repo.list(scope, query);
        page = { items: rows.map(present), total };
        cache?.set(scope, version!, queryKey, page);
      }
      return page;
    },
    async update(scope: Scope, id: string, input: UpdateProjectInput) {
      const issues = senderIssues(input.inbound_allowed_senders);
      if (issues.length) throw errors.validation(issues.map((x) => `${x.field}: ${x.message}`).join('; '), issues);
      const row = await deps.repo.update(scope, id, {
        ...input,
        inbound_allowed_senders: normaliseSenders(input.inbound_allowed_senders),
      });
      if (!row) throw errors.notFound('Project');
      await changed(scope);
      return present(row);
    },
    /** Replaces a leaked receiving address: mail to the old one is refused from now on. */
    async rotateInboundAddress(scope: Scope, id: string) {
      const row = await deps.repo.rotateInbound(scope, id);
      if (!row) throw errors.notFound('Project');
      await changed(scope);
      return present(row);
    },
    async setArchived(scope: Scope, id: string, archived: boolean) {
      const row = await deps.repo.setArchived(scope, id, archived);
      if (!row) throw errors.notFound('Project');
      await changed(scope);
      return present(row);
    },
    async stats(scope: Scope, id: string) {
      const project = await mustGet(scope, id);
      const s = await deps.repo.stats(id);
      const byStatus: Record<string, number> = {};
      for (const r of s.byStatus) byStatus[r.status] = r.n;
      const byType: Record<string, number> = {};
      for (const r of s.byType) if (r.type) byType[r.type] = r.n;
      const last = s.totals.last && s.totals.last > project.updated_at ? s.totals.last : project.updated_at;
      return {
        project_id: id,
        total_documents: s.totals.n,
        documents_by_status: byStatus,
        documents_by_classification: byType,
        total_bytes: s.totals.bytes ?? 0,
        total_pages: s.totals.pages ?? 0,
        last_activity_at: last,
      };
    },
    /**
     * Deleting a project with documents needs an explicit choice: delete them or move them.
     * Moving happens in one transaction with the delete, so nothing is orphaned on failure.
     */
    async delete(scope: Scope, id: string, opts: { deleteDocuments?: boolean; moveToProjectId?: string }) {
      if (opts.deleteDocuments && opts.moveToProjectId) {
        throw errors.validation('Give either delete_documents or move_to_project_id, not both', [
          { field: 'delete_documents', message: 'cannot be combined with move_to_project_id' },
          { field: 'move_to_project_id', message: 'cannot be combined with delete_documents' },
        ]);
      }
      await mustGet(scope, id);
      if (opts.moveToProjectId) {
        if (opts.moveToProjectId === id) throw errors.invalidField('move_to_project_id', 'must be a different project');
        const target = await deps.repo.get(scope, opts.moveToProjectId);
        if (!target) throw errors.invalidField('move_to_project_id', `project ${opts.moveToProjectId} does not exist`);
        const moved = await deps.db.tx(async (q) => {
          const n = await deps.repo.moveDocuments(id, target.id, q);
          await deps.repo.delete(scope, id, q);
          return n;
        });
        await changed(scope);
        return { id, deleted: true, documents_moved: moved, documents_deleted: 0 };
      }
      const count = await deps.repo.countDocuments(id);
      let deleted = 0;
      if (count > 0) {
        if (!opts.deleteDocuments) {
          throw errors.conflict(`Project has ${count} documents; pass delete_documents=true or move_to_project_id`, {
            document_count: count,
          });
        }
        if (!deps.documents) throw errors.unavailable('Document deletion is not available');
        deleted = await deps.documents.deleteAllInProject(scope, id);
      }
      const ok = await deps.db.tx(async (q) => {
        if ((await deps.repo.countDocuments(id, q)) > 0) return false;
        return deps.repo.delete(scope, id, q);
      });
      if (!ok) throw errors.conflict('Documents were added to the project while it was being deleted; try again');
      await changed(scope);
      return { id, deleted: true, documents_moved: 0, documents_deleted: deleted };
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
