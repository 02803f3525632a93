// Evaluates JSONata expressions in child processes with hard bounds. A worker thread's
// `resourceLimits` do not cover every allocation path, so an expression like
// `$pad("", 1e8, "x")` in a thread could take the whole process down; a child process started
// with a V8 heap limit and RLIMIT_DATA (the parsers' design, src/lib/limited-process.ts) dies alone.
// - input: measured as JSON before it is sent;
// - time: every call has a deadline after which the process is killed (and replaced on next use);
// - memory: heap and data limits; a process that dies mid-call fails that call with
//   EXPRESSION_CRASHED (the engine decides what a crash means for the run);
// - fairness: calls wait in one queue per key (the organization) served round-robin, so one
//   tenant's slow expressions cannot hold every process while another's wait;
// - recycling: a process is replaced after `recycleAfter` calls or once it grows past its budget.
// Simple expressions over small inputs skip the process (fast-path.ts says which, and how they
// stay bounded); they see the same JSON input and give the same values and errors.
import { diedOfMemory, spawnLimited, type LimitedProcess } from '../../../lib/limited-process.js';
import { createFastPath, FAST_MAX_INPUT } from './fast-path.js';
import { evaluateOne } from './outcome.js';
import type { CheckItem, CheckRequest, ChildResponse, EvalOutcome, EvalRequest } from './protocol.js';

/** Options of {@link createExpressionEvaluator}; all optional. */
export interface EvaluatorOptions {
  /** Evaluator processes. Default 2. */
  processes?: number;
  /** Per call (all expressions of one call together), ms. Default 1000. */
  timeoutMs?: number;
  /** Largest input, as JSON characters. Default 1_000_000. */
  maxInputChars?: number;
  /** Largest result of one expression, as JSON characters; also the longest string any step may build. Default 1_000_000. */
  maxOutputChars?: number;
  /** V8 heap of each process, MB. Default 96. */
  maxHeapMb?: number;
  /** Writable memory of each process (RLIMIT_DATA), MB. Default 768. */
  maxMemoryMb?: number;
  /** Calls after which an idle process is replaced. Default 2000. */
  recycleAfter?: number;
  /**
   * Time bound of a simple expression evaluated on the calling thread, ms; one that needs longer
   * is evaluated again in a process. A backstop: the step budget (fast-path.ts) is what stops
   * a long one. 0 sends everything to processes. Default 50.
   */
  fastPathTimeoutMs?: number;
}

export type { CheckItem } from './protocol.js';

/** Why an expression produced no value; `code` is stable. */
export class ExpressionError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

export interface EvaluateOptions {
  /** Fairness key (the organization): calls of different keys are served round-robin. */
  key?: string;
}

export interface ExpressionEvaluator {
  /** Evaluates each expression against `input`; rejects with an ExpressionError for the first that fails. */
  evaluate(exprs: readonly string[], input: unknown, opts?: EvaluateOptions): Promise<unknown[]>;
  /** Syntax and regex problems of each expression or template (null: fine), parsed in a process. */
  check(items: readonly CheckItem[], opts?: EvaluateOptions): Promise<(string | null)[]>;
  /** Processes started so far, replacements included (tests see a kill this way). */
  readonly processesStarted: number;
  close(): Promise<void>;
}

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './child.ts' : './child.js', import.meta.url);

interface Pending {
  key: string;
  req: EvalRequest | CheckRequest;
  resolve: (r: EvalOutcome[] | (string | null)[]) => void;
  reject: (e: Error) => void;
}

interface Slot {
  proc: LimitedProcess | null;
  /** Resolves once the process has loaded (start-up is not evaluation time); false if it died first. */
  online: Promise<boolean> | null;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
  calls: number;
}

/** Round-robin over keys, FIFO within a key. */
function fairQueue() {
  const byKey = new Map<string, Pending[]>();
  return {
    push(p: Pending) {
      const q = byKey.get(p.key);
      if (q) q.push(p);
      else byKey.set(p.key, [p]);
    },
    shift(): Pending | undefined {
      const first = byKey.keys().next();
      if (first.done) return undefined;
      const q = byKey.get(first.value)!;
      const p = q.shift()!;
      // The key goes to the back of the rotation (Map keeps insertion order).
      byKey.delete(first.value);
      if (q.length) byKey.set(first.value, q);
      return p;
    },
    get size() {
      let n = 0;
      for (const q of byKey.values()) n += q.length;
      return n;
    },
    drain(): Pending[] {
      const all = [...byKey.values()].flat();
      byKey.clear();
      return all;
    },
  };
}

export function createExpressionEvaluator(opts: EvaluatorOptions = {}): ExpressionEvaluator & {
  /** Calls handed to a process so far (tests see the fast path passed over this way). */ readonly processCalls: number;
} {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const maxInput = opts.maxInputChars ?? 1_000_000;
  const maxOutput = opts.maxOutputChars ?? 1_000_000;
  const heapMb = opts.maxHeapMb ?? 96;
  const memoryMb = opts.maxMemoryMb ?? 768;
  const recycleAfter = opts.recycleAfter ?? 2000;
  const slots: Slot[] = Array.from({ length: Math.max(1, opts.processes ?? 2) }, () => ({
    proc: null,
    online: null,
    busy: null,
    timer: null,
    calls: 0,
  }));
  const queue = fairQueue();
  let nextId = 1;
  let started = 0;
  let processCalls = 0;
  let closed = false;
  const fastMs = Math.min(opts.fastPathTimeoutMs ?? 50, timeoutMs);
  const fast = fastMs > 0 ? createFastPath(fastMs) : null;

  /** All of `exprs` on this thread, or null when one of them must go to a process. */
  const here = async (exprs: readonly string[], json: string): Promise<EvalOutcome[] | null> => {
    if (!fast || json.length > FAST_MAX_INPUT) return null;
    const compiled = await Promise.all(exprs.map((e) => fast.compiled(e)));
    if (compiled.some((c) => c === null)) return null;
    const input: unknown = JSON.parse(json);
    const out: EvalOutcome[] = [];
    for (let i = 0; i < exprs.length; i++) {
      const o = await evaluateOne(() => compiled[i]!, input, maxOutput);
      if (!o.ok && o.code === 'EXPRESSION_STEP_BUDGET') {
        fast.demote(exprs[i]);
        return null;
      }
      if (!o.ok && o.code === 'EXPRESSION_TIMEOUT') return null;
      out.push(o);
    }
    return out;
  };

  /** The IPC channel and stderr pipe must not keep this process alive while a child is idle. */
  const hold = (p: LimitedProcess, on: boolean) => {
    for (const h of [p.child.channel, p.child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]) {
      if (on) h?.ref?.();
      else h?.unref?.();
    }
  };

  const kill = (slot: Slot) => {
    const p = slot.proc;
    slot.proc = null;
    slot.online = null;
    slot.calls = 0;
    if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
  };

  const spawn = (slot: Slot): LimitedProcess => {
    const p = spawnLimited({ entry: ENTRY, args: [], maxHeapMb: heapMb, maxMemoryMb: memoryMb });
    started++;
    hold(p, false);
    p.child.unref();
    slot.online = new Promise<boolean>((resolve) => {
      const onReady = (m: ChildResponse) => {
        if (m?.type === 'ready') {
          p.child.off('message', onReady);
          resolve(true);
        }
      };
      p.child.on('message', onReady);
      p.child.once('exit', () => resolve(false));
    });
    p.child.on('message', (m: ChildResponse) => {
      const pending = slot.busy;
      if (m.type === 'ready' || !pending || pending.req.id !== m.id) return;
      finish(slot);
      pending.resolve(m.type === 'eval' ? m.results : m.problems);
    });
    p.child.on('error', () => undefined);
    p.child.once('exit', (code, signal) => {
      if (slot.proc !== p) return;
      slot.proc = null;
      slot.online = null;
      const pending = slot.busy;
      finish(slot);
      if (!pending) return;
      const memory = diedOfMemory(p.stderrTail()) || signal === 'SIGABRT' || signal === 'SIGSEGV';
      pending.reject(
        new ExpressionError(
          'EXPRESSION_CRASHED',
          memory
            ? `the expression needed more memory than its limit (${heapMb} MB) and its evaluator process was stopped`
            : `the expression's evaluator process stopped unexpectedly (${signal ?? `exit code ${code}`})`,
        ),
      );
    });
    return p;
  };

  const finish = (slot: Slot) => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    const p = slot.proc;
    if (p) {
      hold(p, false);
      const m = p.memory();
      // Long-lived processes are recycled: after many calls, or once bloated by a large one.
      if (slot.calls >= recycleAfter || (m && m.rssMb > heapMb * 1.5 + 64)) kill(slot);
    }
    setImmediate(pump);
  };

  const pump = () => {
    for (const slot of slots) {
      if (slot.busy || queue.size === 0 || closed) continue;
      const pending = queue.shift()!;
      slot.busy = pending;
      slot.calls++;
      const p = (slot.proc ??= spawn(slot));
      hold(p, true);
      void slot.online!.then((ok) => {
        if (slot.busy !== pending || slot.proc !== p || !ok) return;
        // The hard bound: JSONata's own timeout is checked only between evaluation steps.
        slot.timer = setTimeout(() => {
          slot.busy = null;
          slot.timer = null;
          kill(slot);
          pending.reject(
            new ExpressionError('EXPRESSION_TIMEOUT', `the expression ran longer than ${timeoutMs} ms and was stopped`),
          );
          setImmediate(pump);
        }, timeoutMs + 100);
        p.child.send(pending.req);
      });
    }
  };

  const submit = <T extends EvalOutcome[] | (string | null)[]>(
    req: EvalRequest | CheckRequest,
    key: string,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      processCalls++;
      queue.push({ key, req, resolve: resolve as Pending['resolve'], reject });
      pump();
    });

  return {
    get processesStarted() {
      return started;
    },
    get processCalls() {
      return processCalls;
    },
    async evaluate(exprs, input, o = {}) {
      if (exprs.length === 0) return [];
      if (closed) throw new ExpressionError('EXPRESSION_FAILED', 'the evaluator is closed');
      const json = JSON.stringify(input ?? null);
      if (json.length > maxInput) {
        throw new ExpressionError(
          'EXPRESSION_INPUT_TOO_LARGE',
          `the expression input is ${json.length} characters; at most ${maxInput} are evaluated`,
        );
      }
      const outcomes =
        (await here(exprs, json)) ??
        (await submit<EvalOutcome[]>(
          { type: 'eval', id: nextId++, exprs: [...exprs], input: json, timeoutMs, maxOutputChars: maxOutput },
          o.key ?? '',
        ));
      return outcomes.map((r) => {
        if (!r.ok) throw new ExpressionError(r.code, r.message, r.position);
        return r.json === null ? undefined : JSON.parse(r.json);
      });
    },
    async check(items, o = {}) {
      if (items.length === 0) return [];
      if (closed) throw new ExpressionError('EXPRESSION_FAILED', 'the evaluator is closed');
      return submit<(string | null)[]>({ type: 'check', id: nextId++, items: [...items] }, o.key ?? '');
    },
    async close() {
      closed = true;
      const gone = new ExpressionError('EXPRESSION_FAILED', 'the evaluator is closed');
      for (const p of queue.drain()) p.reject(gone);
      for (const s of slots) {
        if (s.timer) clearTimeout(s.timer);
        s.timer = null;
        const busy = s.busy;
        s.busy = null;
        const p = s.proc;
        kill(s);
        busy?.reject(gone);
        if (p && p.child.exitCode === null && p.child.signalCode === null) {
          // Held until it is gone (an unreferenced child would let this process exit first).
          p.child.ref();
          await new Promise<void>((r) => p.child.once('exit', () => r()));
        }
      }
    },
  };
}
