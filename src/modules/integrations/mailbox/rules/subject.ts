import { compileUserRegex, type UserRegex } from '../../../../lib/user-regex/index.js';

/** Thrown for a `/regex/` subject filter that cannot run; the settings layer maps it to a 400. */
export class InvalidSubjectFilterError extends Error {
  constructor(
    readonly filter: string,
    reason: string,
  ) {
    super(`invalid subject filter regex ${filter}: ${reason}`);
    this.name = 'InvalidSubjectFilterError';
  }
}

/** Subjects longer than this are cut before matching, bounding the cost of a user regex. */
export const SUBJECT_MATCH_MAX_CHARS = 2000;

const REGEX_FORM = /^\/(.*)\/([dgimsuy]*)$/s;

/**
 * Compiles a subject filter into a predicate. Empty/missing filter matches everything.
 * `/pattern/flags` is a regular expression in JavaScript syntax (flags as written, so add `i`
 * for case-insensitive), run on the linear-time engine: lookaheads and backreferences are
 * refused. Anything else is a case-insensitive substring.
 * Throws {@link InvalidSubjectFilterError} for a pattern that cannot run, so validate on save.
 */
export function compileSubjectFilter(
  filter: string | null | undefined,
): (subject: string | null | undefined) => boolean {
  const f = (filter ?? '').trim();
  if (!f) return () => true;
  const m = REGEX_FORM.exec(f);
  if (m && m[1].length > 0) {
    const r = compileUserRegex(m[1], { dialect: 'javascript', flags: m[2] });
    if (!r.ok) throw new InvalidSubjectFilterError(f, r.message);
    const re: UserRegex = r.regex;
    return (subject) => re.test((subject ?? '').slice(0, SUBJECT_MATCH_MAX_CHARS));
  }
  const needle = f.toLowerCase();
  return (subject) => (subject ?? '').toLowerCase().includes(needle);
}

/** One-shot form of {@link compileSubjectFilter}. */
export function matchesSubject(subject: string | null | undefined, filter: string | null | undefined): boolean {
  return compileSubjectFilter(filter)(subject);
}
