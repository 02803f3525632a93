/**
 * Cross-field checks. Numbers that add up (subtotal + tax = total, line items = subtotal)
 * confirm each other; numbers that do not are flagged by lower confidence. Missing members of
 * the triple are derived when the other two are known.
 */
import { amountsAgree, roundMoney } from './amounts.js';
import { clampConfidence, field, type ExtractedField, type ExtractedFields } from './types.js';

function num(f: ExtractedField | undefined): number | null {
  return f && typeof f.value === 'number' ? f.value : null;
}

function adjust(f: ExtractedField | undefined, delta: number, cap = 0.99): void {
  if (f) f.confidence = clampConfidence(Math.min(cap, f.confidence + delta));
}

/** Mutates `fields` in place. */
export function applyConsistency(fields: ExtractedFields): void {
  const total = num(fields.total);
  const subtotal = num(fields.subtotal);
  const tax = num(fields.tax);

  if (total !== null && subtotal !== null && tax !== null) {
    if (amountsAgree(subtotal + tax, total)) {
      for (const k of ['total', 'subtotal', 'tax']) adjust(fields[k], 0.08);
    } else {
      for (const k of ['total', 'subtotal', 'tax']) adjust(fields[k], -0.15);
    }
  } else if (total !== null && subtotal !== null && tax === null) {
    // Values worked out from the others are not read from the page: no position for them.
    if (total > subtotal) fields.tax = { ...field(roundMoney(total - subtotal), 0.5, 'heuristic'), computed: true };
    else if (amountsAgree(total, subtotal)) adjust(fields.total, 0.03);
  } else if (total === null && subtotal !== null && tax !== null) {
    fields.total = { ...field(roundMoney(subtotal + tax), 0.55, 'heuristic'), computed: true };
  } else if (total !== null && subtotal === null && tax !== null && tax < total) {
    fields.subtotal = { ...field(roundMoney(total - tax), 0.5, 'heuristic'), computed: true };
  }

  const rate = num(fields.tax_rate);
  const sub = num(fields.subtotal);
  const tx = num(fields.tax);
  if (rate !== null && sub !== null && tx !== null) {
    adjust(fields.tax_rate, amountsAgree(roundMoney((sub * rate) / 100), tx) ? 0.1 : -0.2);
  }

  const items = fields.line_items?.value;
  if (Array.isArray(items) && items.length > 0) {
    let sum = 0;
    let complete = true;
    for (const row of items) {
      if (row !== null && typeof row === 'object' && typeof row.amount === 'number') sum += row.amount;
      else complete = false;
    }
    if (complete) {
      const t = num(fields.total);
      const s = num(fields.subtotal);
      if ((s !== null && amountsAgree(sum, s)) || (t !== null && amountsAgree(sum, t))) {
        adjust(fields.line_items, 0.1, 0.97);
        adjust(s !== null && amountsAgree(sum, s) ? fields.subtotal : fields.total, 0.04);
      } else if (s !== null || t !== null) {
        adjust(fields.line_items, -0.15);
      }
    }
  }

  const issue = fields.issue_date?.value;
  const due = fields.due_date?.value;
  if (typeof issue === 'string' && typeof due === 'string' && due < issue) adjust(fields.due_date, -0.3);
}
