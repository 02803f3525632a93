import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface RouteDef {
  path: string;
  page: LazyExoticComponent<ComponentType<{ params: Record<string, string> }>>;
}

// Each page is its own chunk: the first load carries only the shell and the page opened.
type PageComponent = ComponentType<{ params: Record<string, string> }>;
const p = <T>(load: () => Promise<T>, name: keyof T) =>
  lazy(async () => ({ default: (await load())[name] as PageComponent }));

const overview = p(() => import('../pages/overview/OverviewPage'), 'OverviewPage');
const projects = p(() => import('../pages/projects/ProjectsPage'), 'ProjectsPage');
const project = p(() => import('../pages/projects/ProjectPage'), 'ProjectPage');
const documents = p(() => import('../pages/documents/DocumentsPage'), 'DocumentsPage');
const document = p(() => import('../pages/documents/DocumentPage'), 'DocumentPage');
const search = p(() => import('../pages/search/SearchPage'), 'SearchPage');
const review = p(() => import('../pages/review/ReviewPage'), 'ReviewPage');
const templates = p(() => import('../pages/templates/TemplatesPage'), 'TemplatesPage');
const template = p(() => import('../pages/templates/TemplatePage'), 'TemplatePage');
const integrations = p(() => import('../pages/settings/integrations/IntegrationsPage'), 'IntegrationsPage');
const mailbox = p(() => import('../pages/settings/integrations/MailboxPage'), 'MailboxPage');
const webhooks = p(() => import('../pages/settings/webhooks/WebhooksPage'), 'WebhooksPage');
const webhook = p(() => import('../pages/settings/webhooks/WebhookPage'), 'WebhookPage');
const members = p(() => import('../pages/settings/MembersPage'), 'MembersPage');
const pipeline = p(() => import('../pages/settings/PipelinePage'), 'PipelinePage');
const apiKeys = p(() => import('../pages/settings/ApiKeysPage'), 'ApiKeysPage');
const workflows = p(() => import('../pages/workflows/WorkflowsPage'), 'WorkflowsPage');
const workflow = p(() => import('../pages/workflows/WorkflowPage'), 'WorkflowPage');
const workflowRuns = p(() => import('../pages/workflows/RunsPage'), 'RunsPage');
const workflowRun = p(() => import('../pages/workflows/RunsPage'), 'RunPage');
const reports = p(() => import('../pages/reports/ReportsPage'), 'ReportsPage');
const report = p(() => import('../pages/reports/ReportPage'), 'ReportPage');

export const ROUTES: RouteDef[] = [
  { path: '/', page: overview },
  { path: '/projects', page: projects },
  { path: '/projects/:id', page: project },
  { path: '/documents', page: documents },
  { path: '/documents/:id', page: document },
  { path: '/search', page: search },
  { path: '/review', page: review },
  { path: '/templates', page: templates },
  { path: '/templates/:id', page: template },
  // /workflows/runs before /workflows/:id: the first match wins.
  { path: '/workflows', page: workflows },
  { path: '/workflows/runs', page: workflowRuns },
  { path: '/workflows/runs/:runId', page: workflowRun },
  { path: '/workflows/:id', page: workflow },
  { path: '/reports', page: reports },
  { path: '/reports/:id', page: report },
  { path: '/settings/api-keys', page: apiKeys },
  { path: '/settings/integrations', page: integrations },
  { path: '/settings/integrations/mailboxes/:id', page: mailbox },
  { path: '/settings/webhooks', page: webhooks },
  { path: '/settings/webhooks/:id', page: webhook },
  { path: '/settings/members', page: members },
  { path: '/settings/pipeline', page: pipeline },
];

export const NAV: { section?: string; items: { to: string; label: string; match?: string }[] }[] = [
  {
    items: [
      { to: '/', label: 'Overview' },
      { to: '/projects', label: 'Projects', match: '/projects' },
      { to: '/documents', label: 'Documents', match: '/documents' },
      { to: '/review', label: 'Review queue', match: '/review' },
      { to: '/templates', label: 'Templates', match: '/templates' },
      { to: '/workflows', label: 'Workflows', match: '/workflows' },
      { to: '/reports', label: 'Reports', match: '/reports' },
    ],
  },
  {
    section: 'Settings',
    items: [
      { to: '/settings/api-keys', label: 'API keys', match: '/settings/api-keys' },
      { to: '/settings/integrations', label: 'Integrations', match: '/settings/integrations' },
      { to: '/settings/webhooks', label: 'Webhooks', match: '/settings/webhooks' },
      { to: '/settings/members', label: 'Members', match: '/settings/members' },
      { to: '/settings/pipeline', label: 'Pipeline', match: '/settings/pipeline' },
    ],
  },
];
