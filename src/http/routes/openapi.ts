// What each route answers, for the OpenAPI document: one table per domain, next to its routes.
// test/unit/http/openapi.test.ts checks that every operation is described and every entry names
// a real route.
import type { OperationDocs } from '../openapi-shapes.js';
import { apiKeysDocs } from './api-keys/openapi.js';
import { authDocs } from './auth/openapi.js';
import { documentsDocs } from './documents/openapi.js';
import { eventsDocs } from './events/openapi.js';
import { mailboxesDocs } from './mailboxes/openapi.js';
import { membersDocs } from './members/openapi.js';
import { pipelineDocs } from './pipeline/openapi.js';
import { projectsDocs } from './projects/openapi.js';
import { reportsDocs } from './reports/openapi.js';
import { searchDocs } from './search/openapi.js';
import { sheetsDocs } from './sheets/openapi.js';
import { templatesDocs } from './templates/openapi.js';
import { webhooksDocs } from './webhooks/openapi.js';
import { workflowsDocs } from './workflows/openapi.js';

export const OPERATION_DOCS: OperationDocs = {
  ...authDocs,
  ...apiKeysDocs,
  ...projectsDocs,
  ...eventsDocs,
  ...documentsDocs,
  ...searchDocs,
  ...templatesDocs,
  ...mailboxesDocs,
  ...webhooksDocs,
  ...sheetsDocs,
  ...workflowsDocs,
  ...membersDocs,
  ...pipelineDocs,
  ...reportsDocs,
};
