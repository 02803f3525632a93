import type { Deps } from '../src/container.js';

export interface WorkerHandle {
  /** Closes every worker, waiting at most `timeoutMs` for running jobs. */
  close(timeoutMs?: number): Promise<void>;
}

export interface StartWorkersOptions {
  /** Queue names to serve; all when absent. */
  queues?: string[];
  concurrency: number;
  /** Also install repeatable schedulers (maintenance, reports). */
  schedulers?: boolean;
}

export async function startWorkers(_deps: Deps, _opts: StartWorkersOptions): Promise<WorkerHandle> {
  return { close: async () => undefined };
}
