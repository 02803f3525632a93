// Reports as the API sees them: tenant-scoped definitions (validated per type, project ids
// checked in the caller's organization and environment), manual runs, the schedule, executions
// and their downloads made from the stored result while it streams.
import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.js';
import { errors, type FieldIssue } from '../../lib/errors.js';
import type { Logger } from '../../lib/logger.js';
import type { Scope } from '../../lib/scope.js';
import { isoInZone, isValidTimeZone } from '../../lib/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { resolvePeriod, validateDefinition } from './definition.js';
import type { ExecutionsRepository } from './executions.repository.js';
import type { ReportJobs } from './jobs.js';
import { CONTENT_TYPES, csvStream, jsonStream, xlsxStream, type DownloadFormat } from './output/formats.js';
import { readResult } from './output/result-file.js';
import { presentExecution, presentReport, presentSchedule } from './present.js';
import type { ReportsRepository } from './reports.repository.js';
import type {
  CreateReportInput,
  DataSource,
  ListExecutionsQuery,
  ListReportsQuery,
  ReportRow,
  ScheduleInput,
  UpdateReportInput,
} from './reports.types.js';
import { nextOccurrence, TIME_PATTERN, WEEKDAYS } from './schedule-math.js';
import type { ReportSchedules } from './schedules.js';
import type { SchedulesRepository } from './schedules.repository.js';

export interface ReportsServiceDeps {
  db: Db;
  reports: ReportsRepository;
  schedules: SchedulesRepository;
  executions: ExecutionsRepository;
  scheduler: Pick<ReportSchedules, 'upsert' | 'remove'>;
  jobs: Pick<ReportJobs, 'enqueue'>;
  files: BlobStore;
  logger: Logger;
}

export interface Download {
  stream: Readable;
  contentType: string;
  filename: string;
}

const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'report';

export function createReportsService(deps: ReportsServiceDeps) {
  const mustGet = async (scope: Scope, id: string) => {
    const r = await deps.reports.get(scope, id);
    if (!r) throw errors.notFound('Report');
    return r;
  };

  /** Project ids must name projects of the caller's organization and environment. */
  async function checkProjects(scope: Scope, ds: DataSource): Promise<void> {
    if (!ds.project_ids?.length) return;
    const found = await deps.reports.existingProjects(scope, ds.project_ids);
    const issues: FieldIssue[] = [];
    ds.project_ids.forEach((id, i) => {
      if (!found.has(id))
        issues.push({
          field: `data_source.project_ids[${i}]`,
          message: `refers to no project of this organization (${id})`,
        });
    });
    if (issues.length) throw errors.validation(issues.map((i) => `${i.field} ${i.message}`).join('; '), issues);
  }

  async function present(scope: Scope, id: string) {
    const r = await deps.reports.getWithState(scope, id);
    if (!r) throw errors.notFound('Report');
    return presentReport(r);
  }

  function checkSchedule(input: ScheduleInput) {
    const issues: FieldIssue[] = [];
    const frequency = input.frequency ?? 'daily';
    if (typeof input.time !== 'string' || !TIME_PATTERN.test(input.time))
      issues.push({ field: 'time', message: 'must be "HH:MM", 24-hour (00:00 to 23:59)' });
    const timezone = input.timezone ?? 'UTC';
    if (typeof timezone !== 'string' || !isValidTimeZone(timezone))
      issues.push({ field: 'timezone', message: 'must be an IANA time zone such as Europe/Berlin' });
    if (input.day_of_week !== undefined) {
      if (frequency !== 'weekly') issues.push({ field: 'day_of_week', message: 'applies to weekly schedules only' });
      else if (!WEEKDAYS.includes(input.day_of_week))
        issues.push({ field: 'day_of_week', message: `must be one of ${WEEKDAYS.join(', ')}` });
    }
    if (input.day_of_month !== undefined) {
      if (frequency !== 'monthly') issues.push({ field: 'day_of_month', message: 'applies to monthly schedules only' });
      else if (!Number.isInteger(input.day_of_month) || input.day_of_month < 1 || input.day_of_month > 31)
        issues.push({ field: 'day_of_month', message: 'must be an integer from 1 to 31' });
    }
    if (issues.length) throw errors.validation(issues.map((i) => `${i.field} ${i.message}`).join('; '), issues);
    return {
      frequency,
      time: input.time,
      timezone,
      day_of_week: frequency === 'weekly' ? (input.day_of_week ?? 'monday') : null,
      day_of_month: frequency === 'monthly' ? (input.day_of_month ?? 1) : null,
    };
  }

  return {
    async list(scope: Scope, q: ListReportsQuery) {
      const { rows, total } = await deps.reports.list(scope, q);
      return { items: rows.map(presentReport), total };
    },

    async create(scope: Scope, input: CreateReportInput, createdBy: string | null) {
      const def = validateDefinition(input.type, input.data_source, input.filters);
      await checkProjects(scope, def.data_source);
      const r = await deps.reports.insert(scope, {
        ...input,
        ...def,
        tags: input.tags ? [...new Set(input.tags)] : [],
        created_by: createdBy,
      });
      return present(scope, r.id);
    },

    get: present,

    async update(scope: Scope, id: string, patch: UpdateReportInput) {
      const current = await mustGet(scope, id);
      const def = validateDefinition(
        current.type,
        patch.data_source ?? current.data_source,
        patch.filters ?? current.filters,
      );
      if (patch.data_source !== undefined) await checkProjects(scope, def.data_source);
      const updated = await deps.reports.update(scope, id, {
        name: patch.name,
        description: patch.description,
        category: patch.category,
        tags: patch.tags ? [...new Set(patch.tags)] : undefined,
        retention_days: patch.retention_days,
        data_source: patch.data_source !== undefined ? def.data_source : undefined,
        filters: patch.filters !== undefined ? def.filters : undefined,
      });
      if (!updated) throw errors.notFound('Report');
      return present(scope, id);
    },

    /** Deletes the report with its schedule, executions and their result files. */
    async remove(scope: Scope, id: string) {
      const { deleted, fileKeys } = await deps.db.tx((q) => deps.reports.delete(scope, id, q));
      if (!deleted) throw errors.notFound('Report');
      await deps.scheduler.remove(id);
      let files = 0;
      for (const key of fileKeys)
        if (await deps.files.removeIfUnused(key, (keys) => deps.executions.fileKeysInUse(keys))) files++;
      return { id, deleted: true, files_removed: files };
    },

    /** POST /reports/{id}/run: a manual execution over the report's period ending now. */
    async run(scope: Scope, id: string, requestedBy: string | null) {
      const report = await mustGet(scope, id);
      const schedule = await deps.schedules.get(report.id);
      const timezone = report.data_source.timezone ?? schedule?.timezone ?? 'UTC';
      const period = resolvePeriod(report.data_source.period, timezone, Date.now());
      const exe = await deps.executions.insert(deps.db, {
        report,
        trigger: 'manual',
        definition: {
          type: report.type,
          name: report.name,
          data_source: report.data_source,
          filters: report.filters,
          timezone,
        },
        periodFrom: period.from,
        periodTo: period.to,
        requestedBy,
      });
      if (!exe) throw new Error('a manual execution id collided');
      // A crash before this leaves a queued execution the sweep re-queues.
      await deps.jobs.enqueue(exe.id);
      return presentExecution(exe);
    },

    async getSchedule(scope: Scope, id: string) {
      await mustGet(scope, id);
      const s = await deps.schedules.get(id);
      if (!s) throw errors.notFound('Schedule');
      return presentSchedule(s);
    },

    /** Creates or replaces the schedule; the next occurrence is computed from now. */
    async setSchedule(scope: Scope, id: string, input: ScheduleInput, createdBy: string | null) {
      const spec = checkSchedule(input);
      const { row, created } = await deps.db.tx(async (q) => {
        const report: ReportRow | null = await deps.reports.get(scope, id, q, true);
        if (!report) throw errors.notFound('Report');
        return deps.schedules.upsert(id, spec, new Date(nextOccurrence(spec, Date.now()).at), createdBy, q);
      });
      await deps.scheduler.upsert(id, spec, row.next_run_at);
      return { schedule: presentSchedule(row), created };
    },

    async deleteSchedule(scope: Scope, id: string) {
      await mustGet(scope, id);
      if (!(await deps.schedules.delete(id))) throw errors.notFound('Schedule');
      await deps.scheduler.remove(id);
      return { report_id: id, deleted: true };
    },

    async listExecutions(scope: Scope, id: string, q: ListExecutionsQuery) {
      await mustGet(scope, id);
      const { rows, total } = await deps.executions.list(scope, id, q);
      return { items: rows.map(presentExecution), total };
    },

    async getExecution(scope: Scope, id: string, executionId: string) {
      const e = await deps.executions.get(scope, id, executionId);
      if (!e) throw errors.notFound('Execution');
      return presentExecution(e);
    },

    /**
     * A completed execution's result as CSV (one section: `section`, default the first), JSON (all
     * sections) or XLSX (a worksheet per section), streamed from the stored file.
     */
    async download(
      scope: Scope,
      id: string,
      executionId: string,
      format: DownloadFormat,
      section?: string,
    ): Promise<Download> {
      const e = await deps.executions.get(scope, id, executionId);
      if (!e) throw errors.notFound('Execution');
      if (e.status !== 'completed' || !e.file_key) {
        throw errors.conflict(`The execution is ${e.status}; its result can be downloaded once it has completed`, {
          status: e.status,
        });
      }
      const sections = e.sections ?? [];
      if (section !== undefined && !sections.some((s) => s.name === section)) {
        throw errors.invalidField(
          'section',
          `must be one of ${sections.map((s) => s.name).join(', ') || '(none: the result is empty)'}`,
        );
      }
      if (!(await deps.files.exists(e.file_key))) throw errors.notFound('Result file');
      const stream = deps.files.stream(e.file_key);
      const base = `${slug(e.definition.name)}-${isoInZone(new Date(e.period_to).getTime() - 1, e.definition.timezone).slice(0, 10)}`;
      const onError = (err: unknown) =>
        deps.logger.warn({ err, executionId }, 'report download failed while streaming');
      if (format === 'csv') {
        const name = section ?? sections[0]?.name;
        return {
          stream: csvStream(readResult(stream, name ?? '')),
          contentType: CONTENT_TYPES.csv,
          filename: `${base}${section ? `-${section}` : ''}.csv`,
        };
      }
      if (format === 'json') {
        const head = {
          report: { id: e.report_id, name: e.definition.name, type: e.report_type },
          execution: presentExecution(e),
        };
        return {
          stream: jsonStream(head, readResult(stream)),
          contentType: CONTENT_TYPES.json,
          filename: `${base}.json`,
        };
      }
      return {
        stream: xlsxStream(readResult(stream), onError),
        contentType: CONTENT_TYPES.xlsx,
        filename: `${base}.xlsx`,
      };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
