// BENCHMARK BASELINE ONLY: the worker-thread evaluator docpipe used before expressions moved to
// memory-limited child processes (src/modules/workflows/expressions/evaluator.ts). Kept so that
// `npm run bench -- workflows` measures the isolation change against it in the same run; a
// thread's heap limit does not cover every allocation path, which is why it was replaced.
//
// Evaluates JSONata expressions in worker threads with hard bounds: the input is measured as
// JSON before it is sent, every call has a deadline after which the thread is terminated (and a
// fresh one started), and each thread runs with a small heap so an allocation bomb kills only it.
// Simple expressions over small inputs skip the thread (fast-path.ts says which, and how they
// stay bounded); they see the same JSON input and give the same values and errors.
import { Worker } from 'node:worker_threads';
import { createFastPath, FAST_MAX_INPUT } from '../../../src/modules/workflows/expressions/fast-path.js';
import { evaluateOne } from '../../../src/modules/workflows/expressions/outcome.js';
import type { EvalOutcome } from '../../../src/modules/workflows/expressions/protocol.js';
import type { EvalRequest, EvalResponse } from './thread-worker.js';

/** Options of {@link createExpressionEvaluator}; all optional. */
export interface EvaluatorOptions {
  /** Worker threads. Default 2. */
  threads?: number;
  /** Per call (all expressions of one call together), ms. Default 1000. */
  timeoutMs?: number;
  /** Largest input, as JSON characters. Default 1_000_000. */
  maxInputChars?: number;
  /** Largest result of one expression, as JSON characters. Default 1_000_000. */
  maxOutputChars?: number;
  /** Heap of each thread, MB. Default 64. */
  maxHeapMb?: number;
  /**
   * Time bound of a simple expression evaluated on the calling thread, ms; one that needs longer
   * is evaluated again on a thread. A backstop: the step budget (fast-path.ts) is what stops
   * a long one, and sends it to a thread from then on. 0 sends everything to threads. Default 50.
   */
  fastPathTimeoutMs?: number;
}

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

export interface ExpressionEvaluator {
  /** Evaluates each expression against `input`; rejects with an ExpressionError for the first that fails. */
  evaluate(exprs: readonly string[], input: unknown): Promise<unknown[]>;
  /** Threads started so far, replacements included (tests see a kill this way). */
  readonly threadsStarted: number;
  close(): Promise<void>;
}

// When running from TypeScript sources (the test suite) the thread needs the same loader.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCE ? './thread-worker.ts' : './thread-worker.js', import.meta.url);
const LOADER = new URL('../../../scripts/ts-loader.mjs', import.meta.url).href;

interface Pending {
  req: EvalRequest;
  resolve: (r: EvalOutcome[]) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker | null;
  /** Resolves once the thread runs (starting one, with its module loading, is not evaluation time). */
  online: Promise<void> | null;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
}

export function createExpressionEvaluator(opts: EvaluatorOptions = {}): ExpressionEvaluator {
  const timeoutMs = opts.timeoutMs ?? 1000;
  const maxInput = opts.maxInputChars ?? 1_000_000;
  const maxOutput = opts.maxOutputChars ?? 1_000_000;
  const heap = opts.maxHeapMb ?? 64;
  const slots: Slot[] = Array.from({ length: Math.max(1, opts.threads ?? 2) }, () => ({
    worker: null,
    online: null,
    busy: null,
    timer: null,
  }));
  const queue: Pending[] = [];
  let nextId = 1;
  let started = 0;
  let closed = false;
  const fastMs = Math.min(opts.fastPathTimeoutMs ?? 50, timeoutMs);
  const fast = fastMs > 0 ? createFastPath(fastMs) : null;

  /** All of `exprs` on this thread, or null when one of them must go to a thread. */
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

  const spawn = (slot: Slot): Worker => {
    const w = new Worker(ENTRY, {
      execArgv: FROM_SOURCE ? ['--import', LOADER] : [],
      resourceLimits: {
        maxOldGenerationSizeMb: heap,
        maxYoungGenerationSizeMb: Math.max(8, Math.floor(heap / 4)),
        stackSizeMb: 4,
      },
    });
    started++;
    w.unref();
    // The thread says `ready` once its modules have loaded (see worker.ts).
    slot.online = new Promise<void>((resolve) => {
      const onReady = (m: unknown) => {
        if ((m as { ready?: boolean })?.ready) {
          w.off('message', onReady);
          resolve();
        }
      };
      w.on('message', onReady);
      w.once('exit', () => resolve());
    });
    w.on('message', (res: EvalResponse) => {
      const p = slot.busy;
      if (!p || p.req.id !== res.id) return;
      finish(slot);
      p.resolve(res.results);
    });
    const lost = (why: string) => {
      if (slot.worker !== w) return;
      slot.worker = null;
      const p = slot.busy;
      finish(slot);
      p?.reject(new ExpressionError('EXPRESSION_FAILED', `the expression could not be evaluated (${why})`));
    };
    w.on('error', (err) => lost(/memory/i.test(err.message) ? 'it ran out of memory' : err.message));
    w.on('exit', (code) => lost(`evaluator exited with ${code}`));
    return w;
  };

  const finish = (slot: Slot) => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    setImmediate(pump);
  };

  const pump = () => {
    for (const slot of slots) {
      if (slot.busy || queue.length === 0 || closed) continue;
      const p = queue.shift()!;
      slot.busy = p;
      slot.worker ??= spawn(slot);
      const w = slot.worker;
      w.ref();
      void slot.online!.then(() => {
        if (slot.busy !== p || slot.worker !== w) return;
        // The hard bound: JSONata's own timeout is checked only between evaluation steps.
        slot.timer = setTimeout(() => {
          slot.worker = null;
          slot.busy = null;
          slot.timer = null;
          void w.terminate();
          p.reject(
            new ExpressionError('EXPRESSION_TIMEOUT', `the expression ran longer than ${timeoutMs} ms and was stopped`),
          );
          setImmediate(pump);
        }, timeoutMs + 100);
        w.postMessage(p.req);
      });
    }
    for (const slot of slots) if (!slot.busy) slot.worker?.unref();
  };

  return {
    get threadsStarted() {
      return started;
    },
    async evaluate(exprs, input) {
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
        (await new Promise<EvalOutcome[]>((resolve, reject) => {
          const req: EvalRequest = {
            id: nextId++,
            exprs: [...exprs],
            input: json,
            timeoutMs,
            maxOutputChars: maxOutput,
          };
          queue.push({ req, resolve, reject });
          pump();
        }));
      return outcomes.map((o) => {
        if (!o.ok) throw new ExpressionError(o.code, o.message, o.position);
        return o.json === null ? undefined : JSON.parse(o.json);
      });
    },
    async close() {
      closed = true;
      for (const p of queue.splice(0)) p.reject(new ExpressionError('EXPRESSION_FAILED', 'the evaluator is closed'));
      await Promise.all(
        slots.map(async (s) => {
          if (s.timer) clearTimeout(s.timer);
          s.busy?.reject(new ExpressionError('EXPRESSION_FAILED', 'the evaluator is closed'));
          s.busy = null;
          const w = s.worker;
          s.worker = null;
          if (w) await w.terminate();
        }),
      );
    },
  };
}
