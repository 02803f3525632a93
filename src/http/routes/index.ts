// The one route index: every endpoint under /api/v1 is registered from here, each route group
// given only the services it calls. A new domain adds its folder and one line below.
import type { FastifyInstance } from 'fastify';
import type { RedisKeys } from '../../lib/redis.js';
import type { Scope } from '../../lib/scope.js';
import type { AccessService } from '../../modules/access/access.service.js';
import type { ApiKeysService } from '../../modules/api-keys/api-keys.service.js';
import type { AuthService } from '../../modules/auth/auth.service.js';
import type { LoginThrottle } from '../../modules/auth/login-throttle.js';
import type { ActivityService } from '../../modules/documents/activity.js';
import type { DocumentsService } from '../../modules/documents/documents.service.js';
import type { SearchService } from '../../modules/search/search.service.js';
import type { Intake } from '../../modules/documents/intake.js';
import type { EventsRepository } from '../../modules/events/events.repository.js';
import type { MailboxService } from '../../modules/integrations/mailbox/index.js';
import type { ConnectionsService, ExportsService } from '../../modules/integrations/sheets/index.js';
import type { ProjectsService } from '../../modules/projects/projects.service.js';
import type { ReportsService } from '../../modules/reports/index.js';
import type { TemplatesService } from '../../modules/templates/templates.service.js';
import type { WebhooksService } from '../../modules/webhooks/index.js';
import type { WorkflowsService } from '../../modules/workflows/index.js';
import type { MembersService } from '../../modules/orgs/members.service.js';
import type { PipelineControl } from '../../modules/pipeline-control/pipeline-control.service.js';
import type { SetupService } from '../../modules/setup/setup.service.js';
import { registerMemberRoutes } from './members/index.js';
import { registerPipelineRoutes } from './pipeline/index.js';
import { registerApiKeyRoutes } from './api-keys/index.js';
import { registerAuthRoutes } from './auth/index.js';
import { registerDocumentRoutes } from './documents/index.js';
import { registerSearchRoutes } from './search/index.js';
import { registerEventRoutes } from './events/index.js';
import { registerMailboxRoutes } from './mailboxes/index.js';
import { registerProjectRoutes } from './projects/index.js';
import { registerReportRoutes } from './reports/index.js';
import { registerSetupRoutes } from './setup/index.js';
import { registerSheetsRoutes } from './sheets/index.js';
import { registerSystemRoutes, type HealthChecks } from './system/index.js';
import { registerTemplateRoutes } from './templates/index.js';
import { registerWebhookRoutes } from './webhooks/index.js';
import { registerWorkflowRoutes } from './workflows/index.js';

export interface RouteDeps {
  access: AccessService;
  auth: AuthService;
  /** Progressive per-address delay for logins. */
  loginThrottle: LoginThrottle;
  apiKeys: ApiKeysService;
  projects: ProjectsService;
  events: EventsRepository;
  documents: DocumentsService;
  search: SearchService;
  intake: Intake;
  /** Export status per export target (Sheets), shown on the document. */
  documentExports: (scope: Scope, id: string) => Promise<unknown[]>;
  /** Document counts over time (the dashboard's charts). */
  activity: ActivityService;
  templates: TemplatesService;
  webhooks: WebhooksService;
  mailboxes: MailboxService;
  sheets: { connections: ConnectionsService; exports: ExportsService };
  workflows: WorkflowsService;
  reports: ReportsService;
  members: MembersService;
  /** The pipeline page: per-stage counts, queue controls, per-stage reprocessing. */
  pipeline: PipelineControl;
  /** First-run setup (GET/POST /setup). */
  setup: SetupService;
  redisKeys: RedisKeys;
  health: HealthChecks;
  /** Largest upload in bytes (MAX_UPLOAD_MB). */
  maxUploadBytes: number;
}

export function registerRoutes(api: FastifyInstance, deps: RouteDeps): void {
  registerSystemRoutes(api, deps.health);
  registerAuthRoutes(api, deps);
  registerSetupRoutes(api, deps);
  registerApiKeyRoutes(api, deps.apiKeys);
  registerProjectRoutes(api, deps.projects);
  registerEventRoutes(api, deps.events);
  // Before the documents routes: /documents/search is not a document id.
  registerSearchRoutes(api, deps.search);
  registerDocumentRoutes(api, {
    documents: deps.documents,
    intake: deps.intake,
    projects: deps.projects,
    maxUploadBytes: deps.maxUploadBytes,
    documentExports: deps.documentExports,
    activity: deps.activity,
  });
  registerTemplateRoutes(api, deps.templates);
  registerMailboxRoutes(api, deps.mailboxes);
  registerWebhookRoutes(api, deps.webhooks);
  registerSheetsRoutes(api, deps.sheets);
  registerWorkflowRoutes(api, deps.workflows);
  registerReportRoutes(api, deps.reports);
  registerMemberRoutes(api, deps.members);
  registerPipelineRoutes(api, deps.pipeline);
}
