/** Thrown for a `/regex/` subject filter that does not compile; the settings layer maps it to a 400. */
export class InvalidSubjectFilterError extends Error {
  constructor(
    readonly filter: string,
    cause: unknown,
  ) {
    super(`invalid subject filter regex ${filter}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'InvalidSubjectFilterError';
  }
}

/** Subjects longer than this are cut before matching, bounding the cost of a user regex. */
export const SUBJECT_MATCH_MAX_CHARS = 2000;

const REGEX_FORM = /^\/(.*)\/([dgimsuy]*)$/s;

/**
 * Compiles a subject filter into a predicate. Empty/missing filter matches everything.
 * `/pattern/flags` is a JavaScript regular expression (flags as written, so add `i` for
 * case-insensitive); anything else is a case-insensitive substring.
 * Throws {@link InvalidSubjectFilterError} for a broken regex, so validate on save.
 */
export function compileSubjectFilter(filter: string | null | undefined): (subject: string | null | undefined) => boolean {
  const f = (filter ?? '').trim();
  if (!f) return () => true;
  const m = REGEX_FORM.exec(f);
  if (m && m[1].length > 0) {
    let re: RegExp;
    try {
      // `g`/`y` make test() stateful across calls; drop them.
      re = new RegExp(m[1], m[2].replace(/[gy]/g, ''));
    } catch (err) {
      throw new InvalidSubjectFilterError(f, err);
    }
    return (subject) => re.test((subject ?? '').slice(0, SUBJECT_MATCH_MAX_CHARS));
  }
  const needle = f.toLowerCase();
  return (subject) => (subject ?? '').toLowerCase().includes(needle);
}

/** One-shot form of {@link compileSubjectFilter}. */
export function matchesSubject(subject: string | null | undefined, filter: string | null | undefined): boolean {
  return compileSubjectFilter(filter)(subject);
}
