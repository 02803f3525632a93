export { createMetrics, type Metrics, type MailPollerView } from './registry.js';
export { trackQueues, type QueueSource } from './queue-collector.js';
export { startMetricsServer, type MetricsServer } from './server.js';
export { bearerMatches } from './access.js';
