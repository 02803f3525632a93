/**
 * Generic field extractors shared by several document types: identifiers, dates, money,
 * contact data. Each returns an {@link ExtractedField} or null; confidence reflects how the
 * value was anchored (label wording and placement) and whether it validated.
 */
import { findDates, isoDate, plausibleDocumentDate } from './dates.js';
import { detectCurrencyDetailed } from './currency.js';
import { findBic, findIbans } from './iban.js';
import {
  amountReader,
  bestHit,
  dateReader,
  idReader,
  scanLabels,
  type DateValue,
  type Doc,
  type LabelHit,
  type LabelSet,
} from './label-scan.js';
import {
  DELIVERY_DATE,
  DUE_DATE,
  INCLUDES_TAX,
  INVOICE_NUMBER,
  INVOICE_TITLE,
  ISSUE_DATE,
  NOT_GRAND_TOTAL,
  PHONE,
  QUANTITY_WORD,
  SUBTOTAL,
  TAX,
  TAX_ID,
  TAX_WORD,
  TOTAL,
  TOTAL_WORD,
} from './labels.js';
import { attachEvidence } from './evidence.js';
import { pickTotal } from './total-candidates.js';
import { field, type ExtractedField, type ExtractedFields } from './types.js';

/**
 * Confidence of a label hit: `base` for the field, scaled by the label's weight (scanLabels
 * already lowers the weight for values read from the next line or column).
 */
export function hitConfidence(hit: LabelHit<unknown>, base = 0.9): number {
  return base * hit.weight;
}

/** An identifier after a label; bare document titles ("INVOICE 2024-0042") are a weaker fallback. */
export function labelledId(doc: Doc, specs: LabelSet, fallbackPattern?: RegExp): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, specs, idReader(1, 2)));
  if (hit)
    return attachEvidence(
      field(hit.value, hitConfidence(hit, 0.92), 'label'),
      idEvidence('label', hit.weight, hit.value),
    );
  if (!fallbackPattern) return null;
  const m = fallbackPattern.exec(doc.text);
  return m ? attachEvidence(field(m[1] ?? m[0], 0.5, 'regex'), idEvidence('regex', 0, m[1] ?? m[0])) : null;
}

export function invoiceNumber(doc: Doc): ExtractedField | null {
  const labelled = labelledId(doc, INVOICE_NUMBER);
  if (labelled) return labelled;
  const title = bestHit(scanLabels(doc, INVOICE_TITLE, idReader(3, 1), { strongWeight: 2 }));
  if (title) return attachEvidence(field(title.value, 0.7, 'label'), idEvidence('title', title.weight, title.value));
  const m = /(?<![\p{L}\p{N}])((?:INV|RE|RG|FA|FAC|FACT|BILL)[-/ ]?\d{2,}(?:[-/]\d+)*)(?![\p{L}\p{N}])/u.exec(doc.text);
  return m ? attachEvidence(field(m[1], 0.45, 'regex'), idEvidence('regex', 0, m[1])) : null;
}

function idEvidence(source: string, weight: number, value: string) {
  return {
    kind: 'id' as const,
    source,
    features: { weight, digits: (value.match(/\d/g) ?? []).length, length: value.length },
  };
}

function dateField(hit: LabelHit<DateValue>, base = 0.92): ExtractedField {
  return field(hit.value.iso, hitConfidence(hit, base) * (hit.value.ambiguous ? 0.85 : 1), 'label');
}

/** Lines that carry a date of some other meaning (due, delivery, period) — not the issue date. */
function otherDateLine(line: string): boolean {
  return DUE_DATE.any.test(line) || DELIVERY_DATE.any.test(line);
}

export function issueDate(doc: Doc): ExtractedField | null {
  // The generic "Date" label already refuses "Due date" and "date d'échéance" by itself.
  const hits = scanLabels(doc, ISSUE_DATE, dateReader(doc), { weakColumns: true });
  const hit = bestHit(hits);
  const strong = hit && hit.weight >= 0.9 ? dateField(hit) : null;
  const numberLine = strong ? null : numberLineDate(doc);
  const picked = strong ?? numberLine ?? (hit ? dateField(hit) : firstDate(doc, 0.45));
  if (!picked) return null;
  // A document with a single date (receipts, most invoices' first page) leaves no doubt about
  // which one it is; only the day/month order can still be in question.
  const all = findDates(doc.text, doc.dateOpts);
  const plausible = all.filter((d) => plausibleDocumentDate(d.iso));
  const distinct = new Set(plausible.map((d) => d.iso));
  if (distinct.size === 1) picked.confidence = Math.max(picked.confidence, 0.9 * (all[0]?.ambiguous ? 0.85 : 1));
  const source = strong ? 'label' : numberLine ? 'number-line' : hit ? 'label-weak' : 'first-date';
  const same = plausible.filter((d) => d.iso === picked.value);
  return attachEvidence(picked, {
    kind: 'date',
    source,
    features: {
      weight: hit && source !== 'number-line' && source !== 'first-date' ? hit.weight : 0,
      distinct: distinct.size,
      repeats: Math.max(0, same.length - 1),
      // Every printing of the value leaves day and month in doubt (no day above 12, no month name).
      ambiguous: same.length > 0 && same.every((d) => d.ambiguous) ? 1 : 0,
    },
  });
}

/**
 * "Rechnung Nr. 4711 vom 06.10.2018", "Invoice No. 12 dated 5 March 2024", "Facture n° 12 du
 * 1er mars 2024": the date on the invoice number's line is the invoice's.
 */
function numberLineDate(doc: Doc): ExtractedField | null {
  for (const line of doc.lines.slice(0, 60)) {
    if (!INVOICE_NUMBER.any.test(line) || otherDateLine(line)) continue;
    const d = findDates(line, doc.dateOpts).find((x) => plausibleDocumentDate(x.iso));
    if (d) return field(d.iso, 0.85 * (d.ambiguous ? 0.85 : 1), 'label');
  }
  return null;
}

const DATELINE = /^\s*\p{Lu}[\p{L} .'-]{1,40},\s*(?:(?:den|le|am)\s+)?(.{6,30})$/u;

/**
 * A letter's date line ("Berlin, 4. März 2024", "Lyon, le 5 mars 2024") — a strong positional
 * cue in European correspondence.
 */
export function datelineDate(doc: Doc): ExtractedField | null {
  for (const line of doc.lines.slice(0, 40)) {
    const m = DATELINE.exec(line);
    const d = m ? findDates(m[1], doc.dateOpts) : [];
    if (d.length === 1 && m && m[1].trim().length - d[0].raw.length < 4) return field(d[0].iso, 0.75, 'heuristic');
  }
  return null;
}

/** The first date not on a due/delivery line: a weak guess at "the document's date". */
export function firstDate(doc: Doc, confidence: number): ExtractedField | null {
  for (const line of doc.lines) {
    if (otherDateLine(line)) continue;
    const d = findDates(line, doc.dateOpts).find((x) => plausibleDocumentDate(x.iso));
    if (d) return field(d.iso, confidence * (d.ambiguous ? 0.85 : 1), 'heuristic');
  }
  return null;
}

const NET_DAYS = [
  /(?<![\p{L}])net\s*(\d{1,3})(?![\p{N}]|[.,]\d|\s*[€$£%])/iu,
  /(?:within|in|innerhalb(?:\s+von)?|binnen|sous|dans\s+un\s+d[ée]lai\s+de|[àa]|entro|dentro\s+de)\s+(\d{1,3})\s+(?:calendar\s+)?(?:days|tagen|tage|jours|d[ií]as|giorni|dagen)/iu,
  /zahlungsziel\s*:?\s*(\d{1,3})\s*tage/iu,
];

export function dueDate(doc: Doc, issueIso: string | null): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, DUE_DATE, dateReader(doc)));
  if (hit) return dateField(hit);
  if (!issueIso) return null;
  // Payment terms relative to the issue date: "Net 30", "zahlbar innerhalb von 14 Tagen".
  for (const re of NET_DAYS) {
    const m = re.exec(doc.text);
    if (!m) continue;
    const days = Number(m[1]);
    const [y, mo, d] = issueIso.split('-').map(Number);
    const due = new Date(Date.UTC(y, mo - 1, d + days));
    const iso = isoDate(due.getUTCFullYear(), due.getUTCMonth() + 1, due.getUTCDate());
    // Worked out from the terms, not printed: no position.
    if (iso && days > 0) return { ...field(iso, 0.6, 'heuristic'), computed: true };
  }
  return null;
}

export function labelledDate(doc: Doc, specs: LabelSet): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, specs, dateReader(doc)));
  return hit ? dateField(hit) : null;
}

/** "Net 30", "payable within 14 days": payment terms, not a net amount. */
const PAYMENT_TERMS =
  /days|tage|jours|d[ií]as|giorni|dagen|terms|bedingungen|conditions|zahlungsziel|(?<![\p{L}])net\s*\d{1,3}(?![\p{N}]|[.,]\d)/iu;

/** Grand total, subtotal, tax and tax rate from their labels (consistency is checked later). */
export function totals(doc: Doc): ExtractedFields {
  const out: ExtractedFields = {};
  const picked = pickTotal(doc);
  const total = picked
    ? null
    : bestHit(
        scanLabels(doc, TOTAL, amountReader(doc), {
          exclude: (line, rest) =>
            NOT_GRAND_TOTAL.test(line) || (TAX_WORD.test(line) && !INCLUDES_TAX.test(line)) || QUANTITY_WORD.test(rest),
        }),
        'last',
      );
  if (picked)
    out.total = attachEvidence(field(picked.value, picked.confidence, picked.labelled ? 'label' : 'heuristic'), {
      kind: 'total',
      source: 'candidates',
      features: { ...picked.features },
    });
  else if (total)
    out.total = attachEvidence(field(total.value, hitConfidence(total, 0.88), 'label'), {
      kind: 'total',
      source: 'label-only',
      features: { label: 2 * total.weight, arith: 0, repeats: 0, margin: 0, larger: 0, candidates: 0 },
    });

  const subtotal = bestHit(
    scanLabels(doc, SUBTOTAL, amountReader(doc), {
      exclude: (line) => PAYMENT_TERMS.test(line) || (INCLUDES_TAX.test(line) && !NOT_GRAND_TOTAL.test(line)),
    }),
  );
  if (subtotal) out.subtotal = field(subtotal.value, hitConfidence(subtotal, 0.88), 'label');

  const taxHits = scanLabels(doc, TAX, amountReader(doc, 'last'), {
    exclude: (line) =>
      TAX_ID.test(line) || (TOTAL_WORD.test(line) && (INCLUDES_TAX.test(line) || NOT_GRAND_TOTAL.test(line))),
  }).filter((h) => h.placement === 'same-line');
  if (taxHits.length > 0) {
    const byRate = new Map<string, LabelHit<number>>();
    for (const h of taxHits) {
      const rate = /(\d{1,2}(?:[.,]\d{1,2})?)\s?%/.exec(h.labelLine)?.[1]?.replace(',', '.') ?? '';
      byRate.set(rate, h); // the last line per rate wins (summaries repeat the breakdown)
    }
    const rates = [...byRate.keys()].filter((r) => r !== '');
    if (rates.length >= 2) {
      // Several VAT rates (19 % and 7 %): the tax is their sum.
      const sum = rates.reduce((acc, r) => acc + (byRate.get(r)?.value ?? 0), 0);
      out.tax = { ...field(Math.round(sum * 100) / 100, 0.8, 'label'), computed: true };
    } else {
      const h = taxHits[taxHits.length - 1];
      out.tax = field(h.value, hitConfidence(h, 0.85), 'label');
      if (rates.length === 1) out.tax_rate = field(Number(rates[0]), 0.8, 'label');
    }
  }
  return out;
}

export function currency(doc: Doc): ExtractedField | null {
  const guess = detectCurrencyDetailed(doc.text);
  return guess ? field(guess.code, guess.confidence, 'regex') : null;
}

export function iban(doc: Doc): ExtractedField | null {
  const found = findIbans(doc.text);
  if (found.length === 0) return null;
  const labelled = (i: number): boolean => /iban\s*[:.]?\s*$/i.test(doc.text.slice(Math.max(0, i - 12), i));
  const valid = found.filter((f) => f.valid);
  const pick = valid.find((f) => labelled(f.index)) ?? valid[0];
  if (pick) return field(pick.iban, labelled(pick.index) ? 0.97 : 0.92, 'regex');
  // A printed IBAN with a wrong checksum is still worth showing, flagged for review.
  const bad = found.find((f) => labelled(f.index));
  return bad ? field(bad.iban, 0.25, 'regex') : null;
}

export function bic(doc: Doc): ExtractedField | null {
  const b = findBic(doc.text);
  return b ? field(b, 0.85, 'label') : null;
}

const EMAIL_RE = /(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![\w-])/;

export function email(doc: Doc): ExtractedField | null {
  const m = EMAIL_RE.exec(doc.text);
  return m ? field(m[0], 0.9, 'regex') : null;
}

const PHONE_RE = /(?<![\p{L}\p{N}])(\+?\(?\d[\d ()./-]{5,22}\d)(?![\p{N}])/u;

function phoneReader(s: string): string | null {
  const m = PHONE_RE.exec(s);
  if (!m) return null;
  const digits = m[1].replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  if (findDates(m[1]).length > 0) return null;
  return m[1].trim();
}

export function phone(doc: Doc): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, PHONE, phoneReader, { exclude: (line) => /^\s*fax/i.test(line) }));
  if (hit) return field(hit.value, hitConfidence(hit, 0.88), 'label');
  const intl = /(?<![\p{L}\p{N}])(\+\d{1,3}[ ()./-]*\d[\d ()./-]{5,18}\d)(?![\p{N}])/u.exec(doc.text);
  if (intl && !/iban/i.test(doc.text.slice(Math.max(0, (intl.index ?? 0) - 8), intl.index))) {
    const digits = intl[1].replace(/\D/g, '');
    if (digits.length >= 8 && digits.length <= 15) return field(intl[1].trim(), 0.55, 'regex');
  }
  return null;
}
