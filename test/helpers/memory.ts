// Resident memory of the test process and of the processes it started (the parser processes),
// sampled from /proc every few milliseconds while a test runs. Linux only: `available` says
// whether the numbers mean anything here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const memoryTrackingAvailable = existsSync(`/proc/${process.pid}/task`);

const MiB = 1024 * 1024;

function rssMb(pid: number | string): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0; // the process has just exited
  }
}

/** Pids of this process's direct children. */
export function childPids(): number[] {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      const list = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
      if (list) pids.push(...list.split(/\s+/).map(Number));
    } catch {
      /* the thread has ended */
    }
  }
  return pids;
}

/** Peaks in MB since tracking started, and the values when it started. */
export interface MemoryPeaks {
  selfStartMb: number;
  selfPeakMb: number;
  /** Largest single child seen (a parser process). */
  childPeakMb: number;
  /** Largest sum of this process and all its children at one sample. */
  totalPeakMb: number;
  totalStartMb: number;
}

export function currentMemory(): { selfMb: number; childrenMb: number[] } {
  return { selfMb: rssMb(process.pid), childrenMb: childPids().map(rssMb) };
}

/** Starts sampling every `intervalMs`; `stop()` returns the peaks. */
export function trackMemory(intervalMs = 10): { stop(): MemoryPeaks } {
  const start = currentMemory();
  const startTotal = start.selfMb + start.childrenMb.reduce((a, b) => a + b, 0);
  const peaks: MemoryPeaks = {
    selfStartMb: start.selfMb,
    selfPeakMb: start.selfMb,
    childPeakMb: 0,
    totalPeakMb: startTotal,
    totalStartMb: startTotal,
  };
  const sample = (): void => {
    const now = currentMemory();
    peaks.selfPeakMb = Math.max(peaks.selfPeakMb, now.selfMb);
    peaks.childPeakMb = Math.max(peaks.childPeakMb, ...now.childrenMb, 0);
    peaks.totalPeakMb = Math.max(peaks.totalPeakMb, now.selfMb + now.childrenMb.reduce((a, b) => a + b, 0));
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

export const mb = (bytes: number): number => bytes / MiB;
