import type { Socket } from 'node:net';
import { DEFAULT_MAX_INFLATED_BYTES } from './docx.js';
import { ParseError } from './errors.js';
import type { PdfEngine, PdfEngineOptions, PdfPageData, PdfReadOptions } from './pdf-engine-types.js';
import type { PageMessage } from './pdf-reader.js';
import type { SandboxSettings } from './sandbox-child.js';
import { diedOfMemory, spawnLimited, type LimitedProcess } from '../../lib/limited-process.js';

export type { PdfEngine, PdfEngineOptions, PdfPageData, PdfReadOptions } from './pdf-engine-types.js';

/** What a job's message handler may do (see runJob). */
interface Job<T> {
  /** (Re)starts the no-progress timer. */
  arm(): void;
  disarm(): void;
  send(m: unknown): void;
  /** Ends the job with this outcome (a rejection kills the process: it is mid-document). */
  settle(v: Promise<T>): void;
  /** Ends the job with the error the process reported; the process stays (it is idle again). */
  refuse(err: unknown): void;
  settled(): boolean;
}

interface Slot {
  /** Resolves once the process has loaded pdf.js. */
  proc?: Promise<LimitedProcess>;
  busy: boolean;
  /** Documents the current process has handled (it is replaced after `recycleAfterJobs`). */
  jobs: number;
  /** Stops the process after `idleTimeoutMs` unused (every slot but the first). */
  idleTimer?: NodeJS.Timeout;
  /** When the process began the document it is on (unset while it starts or is idle). */
  workingSince?: number;
}

type ChildMessage =
  | ({ id: number } & Omit<PageMessage, 'png'> & { png: Uint8Array | null })
  | { type: 'done'; id: number; numPages: number }
  | { type: 'text'; id: number; text: string }
  | { type: 'error'; id: number; name: string; message: string; code?: ParseError['code']; numPages?: number };

const MEMORY_POLL_MS = 50;
/** Writable memory this close to the data limit means allocations are being refused. */
const DATA_LIMIT_MARGIN_MB = 16;

function tooLarge(maxMemoryMb: number, cause?: unknown): ParseError {
  return new ParseError(
    'TOO_LARGE',
    `reading the document needs more than ${maxMemoryMb} MB of memory (the parser's limit)`,
    { cause },
  );
}

function childError(m: Extract<ChildMessage, { type: 'error' }>, maxPages: number, maxMemoryMb: number): ParseError {
  if (m.code) return new ParseError(m.code, m.message);
  if (m.name === 'TooManyPages')
    return new ParseError('TOO_MANY_PAGES', `PDF has ${m.numPages} pages; the limit is ${maxPages}`);
  if (m.name === 'TooLarge') return tooLarge(maxMemoryMb);
  if (m.name === 'PasswordException') return new ParseError('ENCRYPTED', 'PDF is password-protected');
  // maxPages is 0 for conversions (every non-PDF type).
  return new ParseError(
    'CORRUPT',
    `${maxPages > 0 ? 'PDF could not be opened' : 'file could not be read'}: ${m.message}`,
  );
}

/** The channel and stderr pipe must not keep the caller's process alive while idle. */
function hold(p: LimitedProcess, on: boolean): void {
  const handles = [p.child.channel, p.child.stderr as Socket | null];
  for (const h of handles) {
    if (on) h?.ref?.();
    else h?.unref?.();
  }
}

/**
 * Runs pdf.js and the other converters in child processes with a memory limit that covers
 * everything the process allocates (unlike a worker thread's `resourceLimits`, which bound the
 * V8 heap but not ArrayBuffers: a 2 MB Flate stream took a worker's process to 4 GB), a
 * per-page watchdog and a kill on abort. A hostile file costs one process (replaced on next
 * use), never the caller, and never blocks its event loop. Processes start when a job needs
 * one (another only when a job has waited `spawnDelayMs` for a busy one), are reused across documents, replaced after
 * `recycleAfterJobs` documents or past `recycleAboveMb`, and every one but the first stops after
 * `idleTimeoutMs` unused; `close()` stops them.
 */
export function createPdfEngine(options: PdfEngineOptions = {}): PdfEngine {
  const size = Math.max(1, Math.floor(options.workers ?? 1));
  const maxMemoryMb = options.maxMemoryMb ?? 1024;
  // A heap limit under the process limit makes a JavaScript-heavy document end in V8's own,
  // prompt out-of-memory exit rather than in refused allocations.
  const maxHeapMb = options.maxHeapMb ?? Math.min(1024, Math.floor(maxMemoryMb * 0.75));
  // A fresh process holds about 100 MB; past twice that it is keeping a large document's memory.
  const recycleAboveMb = options.recycleAboveMb ?? Math.min(maxMemoryMb / 2, 200);
  const recycleAfterJobs = Math.max(1, options.recycleAfterJobs ?? 500);
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const spawnDelayMs = Math.max(0, options.spawnDelayMs ?? 1000);
  const pageTimeoutMs = options.pageTimeoutMs ?? 60_000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const settings: SandboxSettings = {
    maxImagePixels: options.maxImagePixels ?? 100_000_000,
    maxInflatedBytes: options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES,
  };
  const slots: Slot[] = Array.from({ length: size }, () => ({ busy: false, jobs: 0 }));
  const waiting: Array<(slot: Slot | null) => void> = [];
  let closed = false;
  let nextId = 1;

  function take(slot: Slot): Slot {
    slot.busy = true;
    clearTimeout(slot.idleTimer);
    return slot;
  }

  function acquire(signal?: AbortSignal): Promise<Slot | null> {
    if (closed) return Promise.resolve(null);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    // A slot whose process is running first.
    const running = slots.find((s) => !s.busy && s.proc !== undefined);
    if (running) return Promise.resolve(take(running));
    const unstarted = slots.find((s) => !s.busy);
    // No process at all: start one now. Beyond that (a busy slot is a process in use or about to
    // start), a document waits spawnDelayMs for a busy process before another starts for it.
    if (unstarted && (spawnDelayMs === 0 || !slots.some((s) => s.busy || s.proc !== undefined)))
      return Promise.resolve(take(unstarted));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      // A waiter whose job was given up (its stage timed out, the worker is stopping) leaves the
      // queue at once, instead of taking a process later for a result nobody reads.
      const onAbort = (): void => {
        const at = waiting.indexOf(waiter);
        if (at < 0) return;
        waiting.splice(at, 1);
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const settle = (slot: Slot | null): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(slot);
      };
      const waiter = settle;
      const decide = (): void => {
        const at = waiting.indexOf(waiter);
        if (at < 0 || closed) return;
        // Only a process that has been on one document for spawnDelayMs is held by a long one. A
        // process still starting (hundreds of ms), or one that began its document a moment ago,
        // will be free soon: waiting for it is not a reason to start another.
        const now = Date.now();
        const busy = slots.filter((s) => s.busy);
        const soonFree = busy.filter((s) => s.workingSince === undefined || now - s.workingSince < spawnDelayMs);
        if (soonFree.length > 0) return wait();
        const slot = slots.find((s) => !s.busy);
        if (!slot) return;
        waiting.splice(at, 1);
        settle(take(slot));
      };
      const wait = (): void => {
        // Decided after the event loop's next I/O phase: when this process was itself too busy
        // to read the busy process's answer, the timer runs first, and the answer (already
        // there) frees the process for this document.
        timer = setTimeout(() => setImmediate(decide), spawnDelayMs);
        timer.unref();
      };
      if (unstarted) wait();
      waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function release(slot: Slot): void {
    const next = waiting.shift();
    if (next && !closed) return next(slot);
    slot.busy = false;
    // Processes beyond the first were started for a burst: once it is over their memory goes back.
    if (slot !== slots[0] && slot.proc && !closed) {
      slot.idleTimer = setTimeout(() => {
        if (!slot.busy) kill(slot);
      }, idleTimeoutMs);
      slot.idleTimer.unref();
    }
  }

  function kill(slot: Slot): void {
    const proc = slot.proc;
    slot.proc = undefined;
    void proc?.then((p) => p.child.kill('SIGKILL')).catch(() => undefined);
  }

  function spawn(slot: Slot): Promise<LimitedProcess> {
    slot.jobs = 0;
    const p = spawnLimited({
      entry: new URL(`./sandbox-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      args: [JSON.stringify(settings)],
      maxHeapMb,
      maxMemoryMb,
    });
    const { child } = p;
    const ready = new Promise<LimitedProcess>((resolve, reject) => {
      const done = (err?: unknown): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('error', done);
        child.off('exit', onExit);
        hold(p, false);
        if (err === undefined) resolve(p);
        else reject(err);
      };
      const onMessage = (m: { type?: string; message?: string }): void => {
        if (m.type === 'ready') done();
        else if (m.type === 'failed') done(new Error(`pdf.js could not be loaded: ${m.message}`));
      };
      const onExit = (code: number | null, signal: string | null): void =>
        done(new Error(`parser process exited (${signal ?? code}) while starting: ${p.stderrTail().slice(-500)}`));
      const timer = setTimeout(
        () => done(new Error(`parser process did not start within ${startTimeoutMs} ms`)),
        startTimeoutMs,
      );
      child.on('message', onMessage);
      child.on('error', done);
      child.on('exit', onExit);
    });
    // Start-up failures are the machine's problem, not the document's: plain (retryable) errors.
    ready.catch(() => void child.kill('SIGKILL'));
    // A process that dies while idle must not surface as an unhandled 'error' event (which would
    // crash the caller); a job in progress has its own listeners and reports it.
    child.on('error', () => undefined);
    child.on('exit', () => {
      if (slot.proc === ready) slot.proc = undefined;
    });
    child.unref();
    return ready;
  }

  /**
   * Sends one request and settles on its outcome. `onMessage` handles the job's messages and
   * returns the result once the job is complete (undefined while it goes on). The process is
   * killed on a timeout, over the memory limit, on abort, or when `onMessage` throws.
   */
  function runJob<T>(
    slot: Slot,
    p: LimitedProcess,
    request: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onMessage: (m: ChildMessage, job: Job<T>) => void,
  ): Promise<T> {
    const { child } = p;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let peakMb = 0;
      let settled = false;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(
          () => fail(new ParseError('CORRUPT', `reading took longer than ${pageTimeoutMs} ms without progress`)),
          pageTimeoutMs,
        );
      };
      const disarm = (): void => clearTimeout(timer);
      const watch = setInterval(() => {
        const m = p.memory();
        if (!m) return;
        peakMb = Math.max(peakMb, m.rssMb);
        // At its data limit a process's allocations fail, and V8 can then spin in failed heap
        // growth for as long as it is let (seen at 100% system CPU): that is the verdict too.
        if (m.rssMb > maxMemoryMb || (p.dataLimited && m.dataMb > maxMemoryMb - DATA_LIMIT_MARGIN_MB))
          fail(tooLarge(maxMemoryMb));
      }, MEMORY_POLL_MS);
      const cleanup = (): void => {
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onChildMessage);
        child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        hold(p, false);
      };
      const fail = (err: unknown): void => {
        if (settled) return;
        cleanup();
        kill(slot);
        reject(err);
      };
      // Memory V8 and malloc keep after a large document is given back by a fresh process.
      const recycleIfBloated = (): void => {
        const m = p.memory();
        if (m && m.rssMb > recycleAboveMb) kill(slot);
      };
      const succeed = (value: T): void => {
        if (settled) return;
        cleanup();
        recycleIfBloated();
        resolve(value);
      };
      const onExit = (code: number | null, sig: string | null): void => {
        if (closed) return fail(new Error('PDF engine closed'));
        // Give stderr a moment to deliver V8's last words.
        setImmediate(() => {
          if (diedOfMemory(p.stderrTail()) || peakMb > 0.8 * maxMemoryMb) return fail(tooLarge(maxMemoryMb));
          fail(new ParseError('CORRUPT', `parser process exited (${sig ?? code}) while reading the document`));
        });
      };
      const onAbort = (): void => fail(signal?.reason ?? new Error('aborted'));
      const send = (m: unknown): void => {
        child.send(m as never, (err) => {
          if (err) fail(new ParseError('CORRUPT', `parser process stopped: ${err.message}`));
        });
      };
      const job: Job<T> = {
        arm,
        disarm,
        send,
        settle: (v) => void v.then(succeed, fail),
        refuse: (err) => {
          if (settled) return;
          cleanup();
          // An allocation refused at the limit leaves the process at its fullest: start afresh.
          if (err instanceof ParseError && err.code === 'TOO_LARGE') kill(slot);
          else recycleIfBloated();
          reject(err);
        },
        settled: () => settled,
      };
      const onChildMessage = (m: ChildMessage): void => {
        if (settled || m.id !== request.id) return;
        try {
          onMessage(m, job);
        } catch (err) {
          fail(err);
        }
      };
      child.on('message', onChildMessage);
      child.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) return onAbort();
      hold(p, true);
      arm();
      send(request);
    });
  }

  function readOn(
    slot: Slot,
    p: LimitedProcess,
    bytes: Buffer,
    o: PdfReadOptions,
    onPage: (p: PdfPageData) => Promise<void>,
  ) {
    const id = nextId++;
    // Pages are handled one after another, in order, even when several arrive unacknowledged;
    // 'done' settles only once the last of them has been handled.
    let handled: Promise<void> = Promise.resolve();
    const request = {
      type: 'read',
      id,
      data: bytes,
      maxPages: o.maxPages,
      minTextChars: o.minTextChars,
      render: o.render ?? null,
    };
    return runJob<{ numPages: number }>(slot, p, request, o.signal, (m, job) => {
      job.disarm();
      if (m.type === 'done') return job.settle(handled.then(() => ({ numPages: m.numPages })));
      if (m.type === 'error') return job.refuse(childError(m, o.maxPages, maxMemoryMb));
      if (m.type !== 'page') return;
      const { type: _type, id: _id, png, ack, ...page } = m;
      // The reader is still working unless it waits for this page's ack.
      if (!ack) job.arm();
      const data = { ...page, png: png ? Buffer.from(png.buffer, png.byteOffset, png.byteLength) : null };
      handled = handled
        .then(() => (job.settled() ? undefined : onPage(data)))
        .then(() => {
          if (!ack || job.settled()) return;
          job.arm();
          job.send({ type: 'ack', id });
        });
      // A failing consumer ends the read at once.
      handled.catch((err: unknown) => job.settle(Promise.reject(err)));
    });
  }

  function convertOn(slot: Slot, p: LimitedProcess, mime: string, bytes: Buffer, signal?: AbortSignal) {
    const request = { type: 'convert', id: nextId++, mime, data: bytes };
    return runJob<string>(slot, p, request, signal, (m, job) => {
      if (m.type === 'text') return job.settle(Promise.resolve(m.text));
      if (m.type === 'error') job.refuse(childError(m, 0, maxMemoryMb));
    });
  }

  async function withProcess<T>(
    signal: AbortSignal | undefined,
    fn: (slot: Slot, p: LimitedProcess) => Promise<T>,
  ): Promise<T> {
    const slot = await acquire(signal);
    if (!slot) throw new Error('PDF engine is closed');
    try {
      signal?.throwIfAborted();
      // Processes start when a job needs one (the second only under concurrent load), so a small
      // install holds one parser process, not `workers` of them.
      slot.proc ??= spawn(slot);
      let p: LimitedProcess;
      try {
        p = await slot.proc;
      } catch (err) {
        slot.proc = undefined;
        throw err;
      }
      slot.workingSince = Date.now();
      return await fn(slot, p);
    } finally {
      slot.workingSince = undefined;
      // Memory a long-lived process keeps (fragmentation, pdf.js caches) is bounded by age too.
      if (slot.proc && ++slot.jobs >= recycleAfterJobs) kill(slot);
      release(slot);
    }
  }

  async function close(): Promise<void> {
    closed = true;
    for (const slot of slots) clearTimeout(slot.idleTimer);
    for (const resolve of waiting.splice(0)) resolve(null);
    await Promise.all(
      slots.map(async (slot) => {
        const proc = slot.proc;
        slot.proc = undefined;
        const p = await proc?.catch(() => undefined);
        if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
        const gone = new Promise((resolve) => p.child.once('exit', resolve));
        // An idle process is unreferenced: without this the caller could exit before 'exit'.
        p.child.ref();
        p.child.kill('SIGKILL');
        await gone;
      }),
    );
  }

  return {
    read: (bytes, o, onPage) => withProcess(o.signal, (slot, p) => readOn(slot, p, bytes, o, onPage)),
    convert: (mime, bytes, o = {}) => withProcess(o.signal, (slot, p) => convertOn(slot, p, mime, bytes, o.signal)),
    close,
  };
}
