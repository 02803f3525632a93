// One expression's evaluation as a result message: what an evaluator process sends back and what the
// fast path (fast-path.ts) produces, so both give the same values and the same errors.
import type jsonata from 'jsonata';
import type { EvalOutcome } from './protocol.js';

// The fast path's step budget (fast-path.ts); defined there, spelled here to keep this file free
// of imports the evaluator process does not need.
const STEP_BUDGET_CODE = 'FAST_STEP_BUDGET';
// The bounds of bounded.ts, and JSONata's own guardrails: stack depth (D1011), range size
// (D2014) and sequence length (D2015).
const BOUND_CODES = new Set(['EXPRESSION_LIMIT', 'D1011', 'D2014', 'D2015']);

function describe(err: unknown): { code: string; message: string; position?: number } {
  const e = err as { code?: string; message?: string; position?: number };
  const code =
    e?.code === 'D1012'
      ? 'EXPRESSION_TIMEOUT'
      : e?.code === STEP_BUDGET_CODE
        ? 'EXPRESSION_STEP_BUDGET'
        : (e?.code && BOUND_CODES.has(e.code)) ||
            (err instanceof RangeError && /Invalid (string|array) length/.test(err.message))
          ? 'EXPRESSION_LIMIT'
          : e?.code === 'EXPRESSION_REGEX'
            ? 'EXPRESSION_REGEX'
            : 'EXPRESSION_FAILED';
  return {
    code,
    message: String(e?.message ?? err),
    ...(typeof e?.position === 'number' ? { position: e.position } : {}),
  };
}

/** `compile` runs inside the guard too: a syntax error becomes an outcome like any other error. */
export async function evaluateOne(
  compile: () => jsonata.Expression,
  input: unknown,
  maxOutputChars: number,
): Promise<EvalOutcome> {
  try {
    const value: unknown = await compile().evaluate(input);
    if (value === undefined) return { ok: true, json: null };
    // JSON text: drops functions and sequence markers, and measures the size in one pass.
    const json = JSON.stringify(value);
    if (json === undefined) return { ok: true, json: null };
    if (json.length > maxOutputChars) {
      return {
        ok: false,
        code: 'EXPRESSION_OUTPUT_TOO_LARGE',
        message: `the result is larger than ${maxOutputChars} characters`,
      };
    }
    return { ok: true, json };
  } catch (err) {
    return { ok: false, ...describe(err) };
  }
}
