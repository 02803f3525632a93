/**
 * Line items from tabular text. Rows come from PDF text reconstruction or plain text, with
 * cells separated by tabs or runs of spaces — or by single spaces when the parser could not
 * keep the gaps, which is why numbers are also peeled off the end of a row.
 */
import { amountsAgree, parseAmount, type AmountOptions } from './amounts.js';
import { mergeLabels, type Doc } from './label-scan.js';
import { INCLUDES_TAX, SUBTOTAL, TAX, TAX_WORD, TOTAL } from './labels.js';
import { splitCells } from './text.js';
import type { FieldRow } from './types.js';

const STOP_LABELS = mergeLabels(TOTAL, SUBTOTAL, TAX);

type Column = 'position' | 'description' | 'quantity' | 'unit_price' | 'amount' | 'tax_rate' | 'unit';

// Checked in this order: "Gesamtpreis" is an amount before it is a price, "Unit price" a
// price before it is a unit.
const COLUMN_WORDS: ReadonlyArray<readonly [Column, RegExp]> = [
  ['tax_rate', /^(?:vat|tax|mwst|ust|tva|iva|btw)\b.*|^%$|^(?:vat|tax|mwst|ust|tva)\s*%/iu],
  ['amount', /total|amount|betrag|gesamt|summe|montant|importe|importo|bedrag|line\s+total|^sum$/iu],
  ['unit_price', /price|rate|preis|prix|p\.\s?u\.?|precio|prezzo|prijs|unit\s+cost|^each$|^ep$/iu],
  [
    'quantity',
    /^(?:qty|quantity|menge|anzahl|qt[ée]|quantit[ée]|cantidad|cant\.?|quantit[àa]|aantal|hours|hrs|stunden|std\.?|units?)\.?$/iu,
  ],
  ['unit', /^(?:unit|einheit|unit[ée]|me)\.?$/iu],
  ['position', /^(?:pos\.?|position|#|no\.?|nr\.?|item\s+no\.?|art\.?-?\s?nr\.?|sku|code|r[ée]f\.?|ref\.?)$/iu],
  [
    'description',
    /desc|item|article|product|service|details|bezeichnung|beschreibung|artikel|leistung|produkt|d[ée]signation|libell[ée]|concepto|descrizione|omschrijving|^text$/iu,
  ],
];

function classifyHeaderCell(cell: string): Column | null {
  for (const [col, re] of COLUMN_WORDS) if (re.test(cell.trim())) return col;
  return null;
}

/** Header cells for a line, or null when the line is not a table header. */
function parseHeader(line: string): Column[] | null {
  let cells = splitCells(line);
  // Single-space headers ("Description Qty Unit Price Amount"): merge known two-word names.
  if (cells.length < 3) {
    cells = line
      .trim()
      .replace(/\b(unit|line|item|net|prix)\s+(price|cost|total|amount|no\.?|unitaire)\b/giu, '$1_$2')
      .split(/\s+/)
      .map((c) => c.replace('_', ' '));
  }
  if (cells.length < 2 || cells.length > 10) return null;
  const cols = cells.map(classifyHeaderCell);
  const known = cols.filter((c): c is Column => c !== null);
  if (known.length < Math.max(2, cells.length - 1)) return null;
  const numeric = known.filter((c) => c === 'quantity' || c === 'unit_price' || c === 'amount');
  if (numeric.length === 0 || !(known.includes('description') || known.includes('amount'))) return null;
  if (!known.includes('description') && !known.includes('position')) return null;
  return cols.map((c) => c ?? 'description');
}

const UNIT_TOKEN = /^(?:x|×|stk\.?|st\.?|pcs?\.?|pieces?|units?|h|hrs?|std\.?|kg|g|m|m2|l|pkg|pack|each|ea)$/iu;
const CURRENCY_TOKEN = /^(?:[€$£¥]|eur|usd|gbp|chf)$/iu;
const TAX_CODE = /^(?:[A-D]|\*|[A-D]\*)$/;

interface Peeled {
  description: string;
  numbers: number[];
  /** Raw text of the right-most number (headerless rows must show cents). */
  lastRaw: string;
  rate: number | null;
}

/**
 * Splits a row into its leading text and up to `maxNumbers` trailing numbers (left to right).
 * Cells that are a whole amount ("1 234,56", "€ 10.00") stay intact; other cells split into
 * words so that "2 Stk" yields a quantity and a unit.
 */
function peelRow(line: string, opts: AmountOptions, maxNumbers: number, withRate: boolean): Peeled | null {
  const cells = splitCells(line);
  const parts =
    cells.length >= 2
      ? cells.flatMap((c) =>
          parseAmount(c, opts) !== null || /^\d{1,2}(?:[.,]\d{1,2})?\s?%$/.test(c) ? [c] : c.split(/\s+/),
        )
      : line.trim().split(/\s+/);
  const numbers: number[] = [];
  let rate: number | null = null;
  let lastRaw = '';
  let end = parts.length;
  while (end > 1 && numbers.length < maxNumbers) {
    const tok = parts[end - 1].trim();
    // A percentage is a VAT column only when the header has one ("MILCH 3,5%" is a name).
    const pct = withRate ? /^(\d{1,2}(?:[.,]\d{1,2})?)\s?%$/.exec(tok) : null;
    if (pct) {
      rate = Number(pct[1].replace(',', '.'));
    } else if (UNIT_TOKEN.test(tok) || CURRENCY_TOKEN.test(tok) || (TAX_CODE.test(tok) && numbers.length === 0)) {
      // units, currency and receipt tax codes carry no value of their own
    } else {
      const n = parseAmount(tok, opts);
      if (n === null) break;
      if (numbers.length === 0) lastRaw = tok;
      numbers.unshift(n);
    }
    end--;
  }
  const description = parts.slice(0, end).join(' ').trim();
  if (numbers.length === 0 || !/\p{L}/u.test(description)) return null;
  return { description, numbers, lastRaw, rate };
}

/**
 * A totals/tax line ends the table: a total, subtotal or tax label at the start of the line,
 * followed by nothing wordier than "inkl. MwSt." (so "Tax consulting  1  500.00" stays a row).
 */
function isStopLine(line: string): boolean {
  const t = line.trim();
  if (!STOP_LABELS.any.test(t)) return false;
  for (const spec of STOP_LABELS.specs) {
    const m = spec.re.exec(t);
    if (!m || m.index > 2) continue;
    const words = t.slice(m.index + m[0].length).match(/\p{L}+/gu) ?? [];
    if (words.every((w) => w.length <= 4 || TAX_WORD.test(w) || INCLUDES_TAX.test(w))) return true;
  }
  return false;
}

const VALUE_COLUMNS: ReadonlySet<Column> = new Set(['quantity', 'unit_price', 'amount', 'tax_rate']);

/** The header's value columns in order (a VAT column printed without "%" is a plain number). */
function valueColumns(header: Column[] | null): Column[] {
  return header?.filter((c) => VALUE_COLUMNS.has(c)) ?? [];
}

function assign(peeled: Peeled, header: Column[] | null): FieldRow {
  const row: FieldRow = { description: peeled.description, quantity: null, unit_price: null, amount: null };
  const nums = peeled.numbers;
  let cols = valueColumns(header);
  if (peeled.rate !== null) cols = cols.filter((c) => c !== 'tax_rate');
  if (cols.length > 0 && nums.length <= cols.length) {
    cols = cols.slice(cols.length - nums.length); // missing cells are the leading ones
  } else if (nums.length === 1) cols = ['amount'];
  else if (nums.length === 2) cols = Number.isInteger(nums[0]) ? ['quantity', 'amount'] : ['unit_price', 'amount'];
  else cols = ['quantity', 'unit_price', 'amount'];
  cols.forEach((c, i) => {
    row[c] = nums[i];
  });
  if (
    row.unit_price === null &&
    typeof row.quantity === 'number' &&
    typeof row.amount === 'number' &&
    row.quantity !== 0
  ) {
    row.unit_price = Math.round((row.amount / row.quantity) * 10000) / 10000;
  }
  if (peeled.rate !== null) row.tax_rate = peeled.rate;
  if (header?.[0] === 'position') row.description = String(row.description).replace(/^\d{1,4}\.?\s+/, '');
  return row;
}

export interface LineItems {
  rows: FieldRow[];
  confidence: number;
  /** True when a header row named the columns. */
  headed: boolean;
}

const QTY_LINE = /^\s*(\d+(?:[.,]\d+)?)\s*(?:stk\.?|pcs?\.?)?\s*[xX×*]\s*([\d.,]+)\s*(?:[€$£]|eur)?\s*$/iu;
const INLINE_QTY = /^\s*(\d+)\s*[xX×]\s+(.+)$/u;

/**
 * Finds the item table: a header row names the columns, rows follow until a total/tax line.
 * Without a header (`allowHeaderless`, used for receipts) rows are lines of text ending in an
 * amount before the total.
 */
export function extractLineItems(doc: Doc, allowHeaderless = false): LineItems | null {
  const { lines } = doc;
  const dec = doc.amountOpts.decimalSeparator;
  let start = -1;
  let header: Column[] | null = null;
  for (let i = 0; i < lines.length && start < 0; i++) {
    const h = lines[i].trim() === '' ? null : parseHeader(lines[i]);
    if (h) {
      header = h;
      start = i + 1;
    }
  }
  if (start < 0) {
    if (!allowHeaderless) return null;
    start = 0;
  }
  const maxNumbers = valueColumns(header).length || 3;
  const rows: FieldRow[] = [];
  let consistent = 0;
  let inconsistent = 0;
  let blanks = 0;
  let pendingQty: { quantity: number; unit: number } | null = null;
  for (let i = start; i < lines.length && rows.length < 500; i++) {
    const line = lines[i];
    if (line.trim() === '') {
      if (++blanks >= 2 && rows.length > 0) break;
      continue;
    }
    blanks = 0;
    if (isStopLine(line)) {
      if (rows.length > 0 || header) break;
      continue;
    }
    const q = QTY_LINE.exec(line);
    if (q) {
      const quantity = parseAmount(q[1], { decimalSeparator: dec });
      const unit = parseAmount(q[2], { decimalSeparator: dec });
      if (quantity !== null && unit !== null) {
        const prev = rows[rows.length - 1];
        if (prev && typeof prev.amount === 'number' && amountsAgree(quantity * unit, prev.amount)) {
          prev.quantity = quantity;
          prev.unit_price = unit;
        } else pendingQty = { quantity, unit };
      }
      continue;
    }
    const inline = INLINE_QTY.exec(line);
    const peeled = peelRow(
      inline ? inline[2] : line,
      doc.amountOpts,
      maxNumbers,
      header?.includes('tax_rate') === true,
    );
    if (!peeled) {
      // A wrapped description continues the previous row in a header table.
      const prev = rows[rows.length - 1];
      if (header && prev && /\p{L}/u.test(line) && !/\d[.,]\d{2}\b/.test(line)) {
        prev.description = `${String(prev.description)} ${line.trim()}`;
        continue;
      }
      if (header && rows.length > 0) break;
      continue;
    }
    if (!header && !/[.,]\d{2}\)?-?$/.test(peeled.lastRaw)) continue; // headerless rows must end in cents
    const row = assign(peeled, header);
    if (inline && row.quantity === null) {
      row.quantity = Number(inline[1]);
      if (typeof row.amount === 'number') row.unit_price = Math.round((row.amount / Number(inline[1])) * 10000) / 10000;
    }
    if (
      pendingQty &&
      typeof row.amount === 'number' &&
      amountsAgree(pendingQty.quantity * pendingQty.unit, row.amount)
    ) {
      row.quantity = pendingQty.quantity;
      row.unit_price = pendingQty.unit;
    }
    pendingQty = null;
    if (typeof row.quantity === 'number' && typeof row.unit_price === 'number' && typeof row.amount === 'number') {
      if (amountsAgree(row.quantity * row.unit_price, row.amount)) consistent++;
      else inconsistent++;
    }
    rows.push(row);
  }
  if (rows.length === 0) return null;
  let confidence = header ? 0.75 : 0.55;
  if (consistent > 0 && inconsistent === 0) confidence += 0.15;
  if (inconsistent > 0) confidence -= 0.15 * Math.min(1, inconsistent / rows.length) + 0.05;
  return { rows, confidence, headed: header !== null };
}
