// The pipeline's stages, one descriptor each, and the statuses a document passes through. Every
// other list of stages derives from here: STAGES and the Stage type, the stage queues
// (src/jobs/queues.ts), the worker roles and their concurrency (workers/), the route and OpenAPI
// enums, the CLI, the columns a stage reads (documents/stage-state.repository.ts) and what its
// commit sets (documents/stage-runner.ts). It holds facts only (no code, no imports) so that every
// layer may import it; what a stage computes is wired in src/modules/documents/index.ts.

/** The statuses of a document, in the order a run passes them. */
export const DOCUMENT_STATUSES = [
  'uploaded',
  'processing',
  'processed',
  'classified',
  'extracted',
  'completed',
  'needs_review',
  'failed',
] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Where a run has stopped: no stage job is pending (a person's confirmation or a reprocess starts the next one). */
export const TERMINAL_STATUSES = ['completed', 'failed', 'needs_review'] as const satisfies readonly DocumentStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminalStatus(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** What a stage reads besides the document's list columns (see stage-state.repository.ts). */
export type StageRead =
  /** The parsed text. */
  | 'text'
  /** The document's vector. */
  | 'embedding'
  /** The PDF text positions. */
  | 'layout'
  /** The organization's trained classifier version (null: the built-in model). */
  | 'classifier'
  /** The organization's extraction templates, in extraction order. */
  | 'templates';

export interface StageDescriptor {
  /** The stage's name: its queue, its worker role, its key in every per-stage map. */
  readonly name: string;
  /** The document's status once the stage committed and the run goes on (the run's last stage sets `completed`). */
  readonly statusAfter: DocumentStatus;
  /** The event the stage's commit announces (an EventType; stage-runner.ts checks it), or null. */
  readonly eventAfter: string | null;
  /** What the stage's read brings besides the list columns. */
  readonly reads: readonly StageRead[];
  /** Jobs of this stage a worker runs at once per unit of WORKER_CONCURRENCY. */
  readonly concurrency: number;
  /** The project setting that leaves the stage out of runs planned from the project (null: always runs). */
  readonly enabledBy: 'auto_classify' | 'auto_extract' | null;
}

/** The stages in run order. */
const DESCRIPTORS = [
  // More parse jobs than pdf.js threads keep those threads fed: a parse job spends most of its
  // time waiting (blob read, pdf.js on its own thread, page hand-offs through a busy event loop).
  // Measured in the 200-document burst, the wait in front of parse fell from 1.4 s to ~0.15 s
  // going from 2 to 4 per unit of WORKER_CONCURRENCY.
  { name: 'parse', statusAfter: 'processing', eventAfter: null, reads: [], concurrency: 4, enabledBy: null },
  {
    name: 'embed',
    statusAfter: 'processed',
    eventAfter: 'document.processed',
    reads: ['text'],
    concurrency: 2,
    enabledBy: null,
  },
  {
    name: 'classify',
    statusAfter: 'classified',
    eventAfter: 'document.classified',
    // The vector for the nearest confirmed documents; the layout and templates because a
    // template's keywords are matched on the same text extraction reads.
    reads: ['text', 'embedding', 'layout', 'classifier', 'templates'],
    concurrency: 2,
    enabledBy: 'auto_classify',
  },
  {
    name: 'extract',
    statusAfter: 'extracted',
    eventAfter: 'document.extracted',
    reads: ['text', 'layout', 'templates'],
    concurrency: 2,
    enabledBy: 'auto_extract',
  },
] as const satisfies readonly StageDescriptor[];

type Descriptor = (typeof DESCRIPTORS)[number];
/** A stage's name. */
export type Stage = Descriptor['name'];
/** The pipeline's stages, in order: one queue and one worker role each. */
export const STAGES: readonly Stage[] = DESCRIPTORS.map((d) => d.name);
/** Each stage's descriptor by name. */
export const STAGE_DESCRIPTORS = Object.fromEntries(DESCRIPTORS.map((d) => [d.name, d])) as {
  readonly [S in Stage]: Extract<Descriptor, { name: S }>;
};
