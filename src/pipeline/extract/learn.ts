/**
 * A template learned from one document whose fields a person checked: what invoice2data's
 * authors write by hand, derived from where each value stands in the text.
 *
 * - Keywords: stable text of the issuer — the line holding its name and a line with a tax or
 *   registration id — never a date or an amount, which change from one document to the next.
 * - One regex per field, anchored on the nearest label: the words before the value on its line,
 *   else the line above it. A name without a label is matched as itself.
 * - Types: dates get `type: date` and a strptime format read off how the date is written;
 *   amounts `type: float` with the decimal separator they use.
 * The template is run on the document it came from, and a field whose regex does not give its
 * value back is left out (and listed as skipped). A value a person confirmed that is not in the
 * text at all fails the whole request.
 */
import { compileUserRegex } from '../../lib/user-regex/index.js';
import { findDates } from './dates.js';
import { locateValue } from './locate.js';
import { learnTaxRate } from './tax-rate.js';
import { runTemplate } from './template.js';
import type { TemplateDef, TemplateFieldSpec } from './template-schema.js';

export interface LearnInput {
  /** The text templates read (a PDF's layout text). */
  text: string;
  /** The document's current fields (corrections included). */
  fields: Record<string, { value: unknown; confirmed?: boolean; method?: string }>;
  name?: string;
  /** The document's type, recorded as the template's `document_type`. */
  documentType?: string;
}

export type LearnResult =
  | { ok: true; template: TemplateDef; skipped: Array<{ field: string; reason: string }> }
  | { ok: false; missing: Array<{ field: string; reason: string }> };

/** Values a template states rather than reads, and tables (not learned from one document). */
const NOT_LEARNED = new Set(['desc', 'currency', 'lines', 'line_items', 'items']);
const NAME_FIELDS = ['issuer', 'vendor', 'merchant', 'company', 'seller', 'supplier'];
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID_LINE =
  /(?<![\p{L}])(?:gst|vat|tax|abn|nip|uid|ust|mwst|btw|tva|iva|siret|siren|reg(?:istration)?|company|co\.?)(?![\p{L}])[^\n]*\d{4,}|\(\d{4,}[\p{L}\d-]*\)/iu;
/** Fields that name a document's grand total (not a subtotal or a tax). */
const TOTAL_NAME = /^(?:total|amount|grand_total|total_amount|amount_total|amount_due|total_due)$/;
const MONTHS = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/#&~-]/g, '\\$&');
/** A literal written as a regex whose spaces match any run of spaces. */
const literal = (s: string): string => s.trim().split(/\s+/).map(esc).join('\\s+');

function lineBounds(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const e = text.indexOf('\n', at);
  return { start, end: e < 0 ? text.length : e };
}

/** The strptime format and regex of a date as written, from the day it is known to name. */
function dateShape(raw: string, iso: string): { format: string; regex: string } | null {
  const [y, m, d] = iso.split('-').map(Number);
  const tokens = raw.match(/\d+|\p{L}+|[^\d\p{L}]+/gu) ?? [];
  let format = '';
  let regex = '';
  const used = new Set<string>();
  for (const tok of tokens) {
    if (/^\d+$/.test(tok)) {
      const n = Number(tok);
      let dir: string | null = null;
      if (tok.length === 4 && n === y) dir = 'Y';
      else if (tok.length === 2 && n === y % 100 && !used.has('y') && used.has('d') && used.has('m')) dir = 'y';
      else if (n === d && !used.has('d')) dir = 'd';
      else if (n === m && !used.has('m')) dir = 'm';
      else if (tok.length === 2 && n === y % 100 && !used.has('y')) dir = 'y';
      if (!dir) return null;
      used.add(dir === 'Y' ? 'y' : dir);
      format += `%${dir}`;
      regex += dir === 'Y' ? '\\d{4}' : dir === 'y' ? '\\d{2}' : '\\d{1,2}';
    } else if (/^\p{L}+$/u.test(tok)) {
      if (MONTHS.test(tok) && !used.has('m')) {
        used.add('m');
        format += tok.length > 3 ? '%B' : '%b';
        regex += '[A-Za-z]+\\.?';
      } else {
        format += tok;
        regex += esc(tok);
      }
    } else {
      format += tok.replace(/\s+/g, ' ');
      regex += tok
        .split(/(\s+)/)
        .map((p) => (p === '' ? '' : /^\s+$/.test(p) ? '\\s*' : esc(p)))
        .join('');
    }
  }
  if (!(used.has('d') && used.has('m') && used.has('y'))) return null;
  // A month name already takes its trailing dot; the format keeps the text as written.
  return { format: format.replace(/%b\./, '%b'), regex };
}

const SEP_END = /(?:[\s:#=.\-–$€£¥]|(?<![\p{L}])[A-Z]{2,3}(?=\s*$))+$/u;
const BETWEEN = '[^\\S\\n]*[:#=.\\-–]?[^\\S\\n]*(?:[^\\n\\d]{0,40}?)';
/** Words on a line that may label a total or a date (the nearest such line above labels a value alone on its line). */
const TOTAL_LABEL = /total|amount|sum|due|payable|betrag|montant|importe|totaal|razem|totale|zu zahlen|payer|net/i;
const DATE_LABEL = /dat[eua]|fecha|tarikh|issued/i;
/** Lines above a value searched for its label. */
const LABEL_REACH = 8;

/**
 * The label before a value, as a regex that ends where the value starts: the last words before
 * it on its line; else the line above; else the nearest line above (within a few) that names a
 * total or a date, with the lines in between skipped by count (receipts keep their layout).
 */
function labelBefore(text: string, start: number, kind: 'number' | 'date' | 'text'): string | null {
  const { start: ls } = lineBounds(text, start);
  const before = text.slice(ls, start).replace(SEP_END, '');
  const chunks = before.split(/\s{2,}|\t/).map((c) => c.trim());
  const words = (chunks.pop() ?? '').replace(SEP_END, '');
  if (/\p{L}/u.test(words) && words.length <= 40) {
    // Only the words (and what sits between them) of the label, not figures ahead of them.
    const m = /[\p{L}][\p{L}\p{N} ./()&'%-]*$/u.exec(words);
    if (m) return `${literal(m[0])}${BETWEEN}`;
  }
  if (before.trim() !== '') return null;
  // Nothing before the value on its line: look at the lines above.
  const lines: string[] = [];
  let end = ls - 1;
  while (end > 0 && lines.length < LABEL_REACH) {
    const b = lineBounds(text, end - 1);
    lines.push(text.slice(b.start, b.end).trim());
    end = b.start - 1;
  }
  const lead = '[^\\S\\n]*\\n[^\\S\\n]*[:#=.\\-–$€£¥]?[^\\S\\n]*';
  const usable = (l: string) => /\p{L}/u.test(l) && l.length <= 40;
  if (lines[0] !== undefined && usable(lines[0]) && kind === 'text') return `${literal(lines[0])}${lead}`;
  const wanted = kind === 'number' ? TOTAL_LABEL : kind === 'date' ? DATE_LABEL : null;
  for (let k = 0; k < lines.length; k++) {
    if (!usable(lines[k]) || (wanted && !wanted.test(lines[k]))) continue;
    return `${literal(lines[k])}[^\\S\\n]*\\n${k > 0 ? `(?:[^\\n]*\\n){${k}}` : ''}[^\\S\\n]*[:#=.\\-–$€£¥]?[^\\S\\n]*`;
  }
  return lines[0] !== undefined && usable(lines[0]) ? `${literal(lines[0])}${lead}` : null;
}

function numberPattern(raw: string): { regex: string; decimal: ',' | '.' } {
  const decimal: ',' | '.' = /,\d{1,2}$/.test(raw) && !/\.\d{1,2}$/.test(raw) ? ',' : '.';
  return { regex: "(-?\\d(?:[\\d.,']*\\d)?)", decimal };
}

/** A registration or tax number on an id line: letters allowed around at least four digits. */
const ID_TOKEN = /(?<![\p{L}\p{N}])[\p{L}\p{N}]*\d{4,}[\p{L}\p{N}]*(?:[-./][\p{L}\p{N}]+)*/gu;

/**
 * Keywords: the line with the issuer's name and the issuer's longest registration or tax number
 * (not dates, not amounts). The number alone, with any punctuation between its parts: the words
 * around it are typed differently from one receipt to the next ("CO-REG :", "(CO. REG :", "CO.REG:").
 */
function keywordsOf(text: string, name: string | null): string[] {
  const out: string[] = [];
  if (name) {
    const at = locateValue(text, 'name', name);
    if (at) out.push(literal(text.slice(at.start, at.end)));
  }
  let best: string | null = null;
  const digits = (t: string) => t.replace(/\D/g, '').length;
  for (const line of text.split('\n').slice(0, 40)) {
    const l = line.trim();
    if (l.length < 4 || l.length > 60 || !ID_LINE.test(l)) continue;
    if (findDates(l).length > 0 || /\d[.,]\d{2}(?!\d)/.test(l)) continue;
    for (const tok of l.match(ID_TOKEN) ?? []) if (!best || digits(tok) > digits(best)) best = tok;
  }
  if (best) out.push(`\\b${best.split(/[-./]/).map(esc).join('[\\s.\\-/]?')}\\b`);
  return out;
}

export function learnTemplate(input: LearnInput): LearnResult {
  const { text } = input;
  const missing: Array<{ field: string; reason: string }> = [];
  const skipped: Array<{ field: string; reason: string }> = [];
  const fields: Record<string, TemplateFieldSpec> = {};
  const dateFormats: string[] = [];
  let decimal: ',' | '.' | undefined;
  const nameField = NAME_FIELDS.find((n) => typeof input.fields[n]?.value === 'string');
  const issuerName = nameField ? String(input.fields[nameField].value).trim() : null;

  for (const [name, f] of Object.entries(input.fields)) {
    const v = f.value;
    if (NOT_LEARNED.has(name) || v === null || v === undefined || v === '') continue;
    if (typeof v !== 'number' && typeof v !== 'string') {
      skipped.push({ field: name, reason: 'only single values are learned (not lists or tables)' });
      continue;
    }
    // A person's value must be found; a machine value that is not in the text is left out.
    const fail = (reason: string) => (f.confirmed ? missing : skipped).push({ field: name, reason });
    const span = locateValue(text, name, v);
    if (!span) {
      fail(`the value ${JSON.stringify(v)} is not in the document's text`);
      continue;
    }
    const raw = text.slice(span.start, span.end);
    const kind = typeof v === 'number' ? 'number' : ISO_DAY.test(v) ? 'date' : 'text';
    const label = labelBefore(text, span.start, kind);
    if (typeof v === 'number') {
      if (!label) {
        fail('no label before the value to anchor a pattern on');
        continue;
      }
      const p = numberPattern(raw);
      decimal ??= p.decimal;
      // A total also records the issuer's tax rate: its other documents may print the figure
      // where no label-anchored pattern finds it (OCR reading order), but the arithmetic stays.
      const rate = TOTAL_NAME.test(name) ? learnTaxRate(text, v, p.decimal) : null;
      fields[name] = {
        parser: 'regex',
        regex: `${label}${p.regex}`,
        type: 'float',
        ...(rate ? { tax_rate: rate } : {}),
      };
    } else if (ISO_DAY.test(v) && !/^\d{4}-\d{2}-\d{2}$/.test(raw.trim())) {
      const shape = dateShape(raw, v);
      if (!shape) {
        fail(`the date "${raw}" is not written in a form a template can read`);
        continue;
      }
      if (!dateFormats.includes(shape.format)) dateFormats.push(shape.format);
      // Without a label, the first date written this way (checked below on this document) that
      // stands alone: not the tail of a code such as "UH14-21-32".
      fields[name] = {
        parser: 'regex',
        regex: label ? `${label}(${shape.regex})` : `\\b(${shape.regex})\\b`,
        type: 'date',
      };
    } else if (ISO_DAY.test(v)) {
      fields[name] = { parser: 'regex', regex: `${label ?? ''}(\\d{4}-\\d{2}-\\d{2})`, type: 'date' };
    } else if (NAME_FIELDS.includes(name) || !label) {
      // A name stays the same on every document of its issuer: it is matched as itself.
      fields[name] = { parser: 'regex', regex: `(${literal(raw)})` };
    } else {
      // An identifier is one token; other text runs to the end of its line.
      const single = !/\s/.test(raw.trim());
      fields[name] = { parser: 'regex', regex: single ? `${label}(\\S+)` : `${label}([^\\n]*\\S)` };
    }
  }
  if (missing.length > 0) return { ok: false, missing };
  const keywords = keywordsOf(text, issuerName);
  if (keywords.length === 0)
    return {
      ok: false,
      missing: [
        {
          field: nameField ?? 'issuer',
          reason: 'no issuer name or tax id found in the text to recognise the issuer by',
        },
      ],
    };
  const issuer = issuerName ?? text.slice(0, 60).split('\n')[0].trim();
  const template: TemplateDef = {
    name: input.name?.trim() || `Learned: ${issuer}`.slice(0, 120),
    issuer,
    keywords,
    fields,
    options: {
      ...(dateFormats.length > 0 ? { date_formats: dateFormats } : {}),
      ...(decimal ? { decimal_separator: decimal } : {}),
    },
    required_fields: Object.keys(fields),
    ...(input.documentType ? { document_type: input.documentType } : {}),
  };
  // Check each field on the document it was learned from: a pattern must give its value back.
  for (const [name, spec] of Object.entries(fields)) {
    const re = compileUserRegex((spec as { regex: string }).regex);
    if (!re.ok) {
      delete fields[name];
      skipped.push({ field: name, reason: `no valid pattern: ${re.message}` });
    }
  }
  const run = runTemplate(template, text);
  for (const name of Object.keys(fields)) {
    const got = run.fields[name]?.value;
    const want = input.fields[name].value;
    const same =
      typeof want === 'number'
        ? typeof got === 'number' && Math.abs(got - want) < 0.005
        : typeof got === 'string' &&
          got.trim().replace(/\s+/g, ' ').toLowerCase() === String(want).trim().replace(/\s+/g, ' ').toLowerCase();
    if (same) continue;
    // The value is in the text but no pattern here gives it back: left out, and said so.
    delete fields[name];
    skipped.push({
      field: name,
      reason: `the learned pattern reads ${JSON.stringify(got ?? null)} instead of ${JSON.stringify(want)}`,
    });
  }
  if (Object.keys(fields).length === 0)
    return { ok: false, missing: skipped.length > 0 ? skipped : [{ field: '(all)', reason: 'no field to learn' }] };
  template.required_fields = Object.keys(fields);
  return { ok: true, template, skipped };
}
