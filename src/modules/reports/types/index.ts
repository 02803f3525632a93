import type { ReportType } from '../reports.types.js';
import { classificationQuality } from './classification-quality.js';
import type { ReportQuery } from './context.js';
import { documentSummary } from './document-summary.js';
import { extractionExport } from './extraction-export.js';
import { processingPerformance } from './processing-performance.js';
import { usageReport } from './usage.js';

export type { ReportContext, ReportQuery } from './context.js';

/** The query behind each report type. */
export const REPORT_QUERIES: Record<ReportType, ReportQuery> = {
  document_summary: documentSummary,
  extraction_export: extractionExport,
  processing_performance: processingPerformance,
  classification_quality: classificationQuality,
  usage: usageReport,
};
