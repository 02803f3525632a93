/**
 * Template-free extraction by document type. Every extractor is label-driven first (in six
 * languages) with positional or pattern fallbacks at lower confidence; fields that were not
 * found are absent rather than null.
 */
import { applyConsistency } from './consistency.js';
import { calibrateConfidence } from './confidence.js';
import { detectCurrency } from './currency.js';
import { attachEvidence, evidenceOf } from './evidence.js';
import { inferDayFirst } from './dates.js';
import { bankStatement } from './generic-bank.js';
import {
  bic,
  currency,
  datelineDate,
  dueDate,
  email,
  firstDate,
  iban,
  invoiceNumber,
  issueDate,
  labelledDate,
  labelledId,
  phone,
  totals,
} from './generic-fields.js';
import { contractParties, customer, personName, subject, vendor } from './generic-parties.js';
import type { Doc } from './label-scan.js';
import { DELIVERY_DATE, EFFECTIVE_DATE, ORDER_DATE, PO_NUMBER, RECEIPT_NUMBER } from './labels.js';
import { extractLineItems } from './line-items.js';
import { splitLines } from './text.js';
import {
  DOCUMENT_TYPES,
  field,
  type DocumentType,
  type ExtractHints,
  type ExtractedField,
  type ExtractedFields,
} from './types.js';

/**
 * Texts longer than this are cut to their head and tail before generic extraction: the fields
 * sit on the first and last pages, and the cap bounds the time spent on a pathological input.
 */
export const GENERIC_MAX_CHARS = 100_000;

/** Prepares text for the extractors: normalised lines plus the number/date conventions. */
export function buildDoc(text: string, hints: ExtractHints = {}): Doc {
  const capped =
    text.length > GENERIC_MAX_CHARS
      ? `${text.slice(0, GENERIC_MAX_CHARS * 0.7)}\n${text.slice(text.length - GENERIC_MAX_CHARS * 0.3)}`
      : text;
  const lines = splitLines(capped);
  const normalised = lines.join('\n');
  // US documents write month-first; with no date that proves the order, the currency decides.
  const dayFirst = hints.dayFirst ?? inferDayFirst(normalised) ?? detectCurrency(normalised) !== 'USD';
  return {
    text: normalised,
    lines,
    amountOpts: { decimalSeparator: hints.decimalSeparator, spaceGroups: spaceGrouping(normalised) },
    dateOpts: { dayFirst },
  };
}

/**
 * Whether the document may group thousands with spaces: not when it groups them with `.` or `,`
 * somewhere, nor when it reads as German or English (they do not; "3 250,00" there is a quantity
 * next to a price).
 */
function spaceGrouping(text: string): boolean {
  if (/\d{1,3}(?:[.,’']\d{3})+[.,]\d{2}(?!\d)/.test(text)) return false;
  if (
    /(?<![\p{L}])(?:rechnung|betrag|summe|mwst|ust|invoice|total|amount|receipt|tax)(?![\p{L}])/iu.test(text) &&
    !/(?<![\p{L}])(?:tva|facture|montant|moms|faktura|mva|alv)(?![\p{L}])/iu.test(text)
  )
    return false;
  return true;
}

type Extractor = (doc: Doc, out: ExtractedFields) => void;

function set(out: ExtractedFields, name: string, f: ExtractedField | null): void {
  if (f) out[name] = f;
}

function str(f: ExtractedField | undefined): string | null {
  return f && typeof f.value === 'string' ? f.value : null;
}

function lineItems(doc: Doc, out: ExtractedFields, headerless: boolean): void {
  const li = extractLineItems(doc, headerless);
  if (li) out.line_items = field(li.rows, li.confidence, li.headed ? 'label' : 'heuristic');
}

function money(doc: Doc, out: ExtractedFields): void {
  Object.assign(out, totals(doc));
  set(out, 'currency', currency(doc));
}

const PAYMENT_METHODS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bvisa\b/i, 'visa'],
  [/\bmaster\s?card\b/i, 'mastercard'],
  [/\bmaestro\b/i, 'maestro'],
  [/\b(?:amex|american\s+express)\b/i, 'amex'],
  [/\b(?:girocard|ec[-\s]?karte)\b/i, 'girocard'],
  [/\b(?:apple\s+pay)\b/i, 'apple_pay'],
  [/\b(?:google\s+pay)\b/i, 'google_pay'],
  [/\bpaypal\b/i, 'paypal'],
  [
    /\b(?:credit\s+card|debit\s+card|kreditkarte|carte\s+bancaire|carte\s+bleue|card\s+payment|kartenzahlung)\b/i,
    'card',
  ],
  [/\b(?:cash|bargeld|esp[eè]ces)\b|^\s*bar\b(?![\p{L}])/imu, 'cash'],
];

function paymentMethod(doc: Doc): ExtractedField | null {
  for (const [re, name] of PAYMENT_METHODS) if (re.test(doc.text)) return field(name, 0.7, 'regex');
  return null;
}

function invoice(doc: Doc, out: ExtractedFields): void {
  set(out, 'invoice_number', invoiceNumber(doc));
  set(out, 'issue_date', issueDate(doc));
  set(out, 'due_date', dueDate(doc, str(out.issue_date)));
  money(doc, out);
  set(out, 'vendor', vendor(doc));
  set(out, 'customer', customer(doc));
  set(out, 'iban', iban(doc));
  set(out, 'bic', bic(doc));
  set(out, 'email', email(doc));
  set(out, 'phone', phone(doc));
  set(out, 'po_number', labelledId(doc, PO_NUMBER));
  lineItems(doc, out, false);
}

function receipt(doc: Doc, out: ExtractedFields): void {
  set(out, 'merchant', vendor(doc));
  const date = issueDate(doc);
  // A receipt's date is the sale's: the first plausible date is a good guess even without a label.
  if (date) {
    out.date = field(date.value, Math.max(date.confidence, date.method === 'heuristic' ? 0.7 : 0.8), date.method);
    const ev = evidenceOf(date);
    if (ev) attachEvidence(out.date, ev);
  }
  money(doc, out);
  set(out, 'receipt_number', labelledId(doc, RECEIPT_NUMBER));
  set(out, 'payment_method', paymentMethod(doc));
  set(out, 'phone', phone(doc));
  lineItems(doc, out, true);
}

function purchaseOrder(doc: Doc, out: ExtractedFields): void {
  set(
    out,
    'po_number',
    labelledId(doc, PO_NUMBER, /(?<![\p{L}\p{N}])((?:PO|P\.O\.|BST|BC)[-/ #]?\d{3,}(?:[-/]\d+)*)(?![\p{N}])/u),
  );
  set(out, 'issue_date', labelledDate(doc, ORDER_DATE) ?? issueDate(doc));
  set(out, 'delivery_date', labelledDate(doc, DELIVERY_DATE));
  money(doc, out);
  set(out, 'vendor', vendor(doc));
  set(out, 'customer', customer(doc));
  set(out, 'email', email(doc));
  set(out, 'phone', phone(doc));
  lineItems(doc, out, false);
}

function bank(doc: Doc, out: ExtractedFields): void {
  set(out, 'iban', iban(doc));
  set(out, 'bic', bic(doc));
  const name = vendor(doc);
  // A letterhead naming a bank is the bank, whatever the company suffix.
  if (name && name.method === 'heuristic' && BANK_WORD.test(String(name.value)))
    name.confidence = Math.max(name.confidence, 0.75);
  set(out, 'bank', name);
  Object.assign(out, bankStatement(doc));
  set(out, 'currency', currency(doc));
}

const BANK_WORD =
  /bank|sparkasse|banque|banca|banco|volksbank|raiffeisen|cr[ée]dit|caisse|building\s+society|credit\s+union/iu;

function contract(doc: Doc, out: ExtractedFields): void {
  set(out, 'parties', contractParties(doc));
  set(out, 'effective_date', labelledDate(doc, EFFECTIVE_DATE) ?? firstDate(doc, 0.4));
  set(out, 'email', email(doc));
}

function resume(doc: Doc, out: ExtractedFields): void {
  set(out, 'name', personName(doc));
  set(out, 'email', email(doc));
  set(out, 'phone', phone(doc));
}

function letter(doc: Doc, out: ExtractedFields): void {
  set(out, 'sender', vendor(doc));
  const labelled = issueDate(doc);
  set(out, 'date', labelled?.method === 'label' ? labelled : (datelineDate(doc) ?? labelled));
  set(out, 'subject', subject(doc));
  set(out, 'email', email(doc));
  set(out, 'phone', phone(doc));
}

function other(doc: Doc, out: ExtractedFields): void {
  set(out, 'date', issueDate(doc));
  set(out, 'email', email(doc));
  set(out, 'phone', phone(doc));
  set(out, 'iban', iban(doc));
  // Only a labelled total: a stray number in a random document is not worth reporting.
  set(out, 'total', totals(doc).total ?? null);
  if (out.total) set(out, 'currency', currency(doc));
}

const BY_TYPE: Record<DocumentType, Extractor> = {
  invoice,
  receipt,
  purchase_order: purchaseOrder,
  bank_statement: bank,
  contract,
  resume,
  letter,
  other,
};

/** Normalises a classifier label ("Invoice", "purchase-order", "unknown") to a known type. */
export function normaliseType(type: string): DocumentType {
  const t = type
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if ((DOCUMENT_TYPES as readonly string[]).includes(t)) return t as DocumentType;
  if (t === 'po' || t === 'order') return 'purchase_order';
  if (t === 'statement') return 'bank_statement';
  if (t === 'cv') return 'resume';
  if (t === 'credit_note' || t === 'bill') return 'invoice';
  return 'other';
}

/** Generic extraction for a document of the given (classified) type. */
export function extractGeneric(text: string, type: string, hints: ExtractHints = {}): ExtractedFields {
  const doc = buildDoc(text, hints);
  const out: ExtractedFields = {};
  const t = normaliseType(type);
  BY_TYPE[t](doc, out);
  applyConsistency(out);
  calibrateConfidence(out, t);
  return out;
}
