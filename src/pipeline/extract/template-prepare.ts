/**
 * A template's text options, applied in invoice2data's order before keywords and regexes see
 * the text: remove_whitespace, remove_accents, lowercase, then each `replace`.
 */
import { compileUserRegex, type RegexBudget } from '../../lib/user-regex/index.js';
import type { TemplateOptions } from './template-schema.js';

/**
 * Longest text a template is applied to; longer input is cut. Together with the per-call
 * ceiling of the regex engine this bounds the work one document can cause (invoices run to a
 * few pages; 100k characters of layout text is over ten).
 */
export const TEMPLATE_MAX_CHARS = 100_000;

// Letters that do not decompose into a base letter plus accents, written the way a
// transliteration to ASCII writes them (invoice2data's remove_accents: "Tschüß" -> "Tschuss").
const TRANSLIT: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ŋ: 'ng',
  Ŋ: 'NG',
  ſ: 's',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '«': '<<',
  '»': '>>',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '…': '...',
  '€': 'EUR',
  '×': 'x',
};
const TRANSLIT_RE = new RegExp(`[${Object.keys(TRANSLIT).join('')}]`, 'gu');

/** Accents stripped and the common non-decomposing letters transliterated to ASCII. */
export function removeAccents(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(TRANSLIT_RE, (c) => TRANSLIT[c] ?? c);
}

/**
 * The options applied before any `replace`: the text cut to {@link TEMPLATE_MAX_CHARS}, line
 * breaks normalised, then remove_whitespace, remove_accents and lowercase.
 */
export function prepareBase(text: string, options: TemplateOptions | undefined): string {
  let s = text.length > TEMPLATE_MAX_CHARS ? text.slice(0, TEMPLATE_MAX_CHARS) : text;
  // One final newline is dropped: Python's `$` also matches just before it, RE2's does not.
  s = s.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  if (!options) return s;
  // invoice2data removes runs of spaces only (`re.sub(" +", "", s)`); line breaks and tabs stay.
  if (options.remove_whitespace) s = s.replace(/ +/g, '');
  if (options.remove_accents) s = removeAccents(s);
  if (options.lowercase) s = s.toLowerCase();
  return s;
}

/** One `replace` rule (Python `re.sub`); a pattern that does not compile changes nothing. */
export function applyReplace(s: string, rule: readonly [string, string], budget?: RegexBudget): string {
  const [pattern, replacement] = rule;
  const r = compileUserRegex(pattern);
  return r.ok ? r.regex.replace(s, replacement, budget) : s;
}

/** Applies a template's text options. */
export function prepareText(text: string, options: TemplateOptions | undefined, budget?: RegexBudget): string {
  let s = prepareBase(text, options);
  for (const rule of options?.replace ?? []) s = applyReplace(s, rule, budget);
  return s;
}
