// Messages between the evaluator and its worker threads.

export interface EvalRequest {
  id: number;
  exprs: string[];
  /** The input as JSON text (its length is what the size bound counts). */
  input: string;
  timeoutMs: number;
  maxOutputChars: number;
}

/** `json`: the result as JSON text, or null when the expression produced nothing. */
export type EvalOutcome =
  { ok: true; json: string | null } | { ok: false; code: string; message: string; position?: number };

export interface EvalResponse {
  id: number;
  results: EvalOutcome[];
}
