// Pieces several document types share: party blocks, item lines, totals.
import { address, company, person, phone, emailFor, PRODUCTS } from './data.mjs';
import { money, round2, vatId } from './format.mjs';

export const EN_LOCS = ['us', 'uk', 'ie', 'au', 'ca', 'nl'];

/** A firm with address and optional contact lines, as printed in a letterhead. */
export function partyBlock(rng, loc, opts = {}) {
  const name = opts.name ?? company(rng, loc);
  const lines = [name, ...address(rng, loc, rng.chance(0.3))];
  if (opts.contact ?? rng.chance(0.6)) {
    const who = person(rng);
    if (rng.chance(0.6)) lines.push(`${rng.pick(['Tel', 'Phone', 'T', 'Tel.'])}: ${phone(rng, loc)}`);
    if (rng.chance(0.6)) lines.push(emailFor(rng, who, name));
  }
  if (opts.vat ?? rng.chance(0.4)) lines.push(`${rng.pick(['VAT No', 'Tax ID', 'VAT Reg.', 'Reg. No'])}: ${vatId(rng, loc)}`);
  return { name, lines };
}

/** Line items: [description, qty, unit, amount] with consistent arithmetic. */
export function items(rng, kinds, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const kind = rng.pick(kinds);
    const desc = Array.isArray(kind) ? rng.pick(kind) : rng.pick(PRODUCTS[kind]);
    const qty = kind === 'services' ? rng.pick([1, 1, 2, 4, 8, 10, 12.5, 20, 35]) : rng.int(1, 40);
    const unit = round2(kind === 'services' ? rng.float(45, 180) : kind === 'it' ? rng.float(8, 1400) : rng.float(1.5, 120));
    out.push({ desc, qty, unit, amount: round2(qty * unit) });
  }
  return out;
}

export function sum(list) {
  return round2(list.reduce((s, x) => s + x.amount, 0));
}

export function itemRows(rng, list, loc, withCode = false) {
  const numbered = rng.chance(0.5);
  return list.map((it, i) => {
    const row = [it.desc, String(it.qty), money(rng, it.unit, loc, 3), money(rng, it.amount, loc, 3)];
    if (withCode) return [`${rng.letters(2)}-${rng.digits(4)}`, ...row];
    return numbered ? [String(i + 1), ...row] : row;
  });
}

/** Join non-empty sections with blank lines between them. */
export function doc(...parts) {
  return parts.flat().filter((p) => p !== null && p !== undefined && p !== '').join('\n\n').replace(/\n{3,}/g, '\n\n');
}

export function maybe(rng, p, value) {
  return rng.chance(p) ? (typeof value === 'function' ? value() : value) : '';
}

export function taxRate(rng, loc) {
  return { uk: 20, ie: 23, de: 19, fr: 20, es: 21, nl: 21, au: 10, ca: 13 }[loc] ?? rng.pick([0, 6.25, 7, 8.25, 8.875]);
}

export function taxLabel(rng, loc) {
  if (loc === 'au') return 'GST';
  if (loc === 'ca') return rng.pick(['HST', 'GST/HST']);
  if (loc === 'us') return rng.pick(['Sales tax', 'Tax', 'State tax']);
  return rng.pick(['VAT', 'VAT', 'Tax']);
}
