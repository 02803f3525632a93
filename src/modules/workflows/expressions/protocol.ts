// Messages between the evaluator (evaluator.ts) and its evaluator processes (child.ts).

export interface EvalRequest {
  type: 'eval';
  id: number;
  exprs: string[];
  /** The input as JSON text (its length is what the size bound counts). */
  input: string;
  timeoutMs: number;
  maxOutputChars: number;
}

/** Syntax and regex checks of expressions too long to parse on the caller's event loop. */
export interface CheckRequest {
  type: 'check';
  id: number;
  items: CheckItem[];
}

/** An expression, or a templated string (`…{{ expr }}…`). */
export interface CheckItem {
  text: string;
  template: boolean;
}

/** `json`: the result as JSON text, or null when the expression produced nothing. */
export type EvalOutcome =
  { ok: true; json: string | null } | { ok: false; code: string; message: string; position?: number };

export type ChildResponse =
  | { type: 'ready' }
  | { type: 'eval'; id: number; results: EvalOutcome[] }
  | { type: 'check'; id: number; problems: (string | null)[] };
