// Purchase orders: formal PO forms, e-mailed orders, call-off orders against a framework, change
// orders, and German/French/Spanish order forms.
import { address, company, person, phone, SERVICE_DE, SERVICE_FR, SERVICE_ES } from './data.mjs';
import { fmtDate, randomDate, addDays, money, table, kv, round2 } from './format.mjs';
import { partyBlock, items, sum, itemRows, doc, maybe, taxRate, taxLabel, EN_LOCS } from './common.mjs';

const TITLES = ['PURCHASE ORDER', 'Purchase Order', 'P.O.', 'ORDER FORM', 'Purchase Order (Original)', 'Order'];
const NO_LABELS = ['PO Number', 'P.O. No.', 'PO #', 'Order No.', 'Purchase Order No', 'Our order ref'];

function poNo(rng) {
  return rng.pick([`PO-${rng.digits(6)}`, `${rng.digits(4)}-${rng.digits(3)}`, `P${rng.digits(7)}`, `${rng.letters(3)}/${rng.int(2021, 2025)}/${rng.digits(3)}`]);
}

const TERMS = [
  'Please acknowledge receipt of this order within 48 hours.',
  'Our order number must appear on all invoices, delivery notes and correspondence.',
  'Goods not conforming to specification will be returned at the supplier\'s expense.',
  'Partial shipments are not accepted unless agreed in writing.',
  'Send invoices to accounts payable; do not include invoices with the goods.',
  'Delivery between 08:00 and 15:00, Monday to Friday, to the goods-in bay.',
  'Prices are fixed as quoted and include packaging.',
  'This order is subject to our standard terms of purchase.',
  'Notify the buyer immediately if the delivery date cannot be met.',
];

function formal(rng) {
  const loc = rng.pick(EN_LOCS);
  const buyer = partyBlock(rng, loc);
  const vendor = partyBlock(rng, loc, { vat: false });
  const dt = randomDate(rng);
  const list = items(rng, rng.sample(['office', 'it', 'industrial', 'services'], rng.int(1, 2)), rng.int(1, 10));
  const sub = sum(list);
  const rate = rng.chance(0.6) ? taxRate(rng, loc) : 0;
  const tax = round2((sub * rate) / 100);
  const freight = rng.chance(0.4) ? round2(rng.float(10, 250)) : 0;
  const rows = itemRows(rng, list, loc, rng.chance(0.5));
  const head = rng.pick([['Description', 'Qty', 'Unit Price', 'Total'], ['Item', 'Ordered', 'Unit cost', 'Ext. price'], ['Description', 'Quantity', 'Price each', 'Line value']]);
  const header = rows[0].length === 5 ? [rng.pick(['Item #', 'Part no.', 'SKU', 'Line']), ...head] : head;
  const meta = [
    kv(rng, rng.pick(NO_LABELS), poNo(rng)),
    kv(rng, rng.pick(['Date', 'Order date', 'PO Date', 'Issued']), fmtDate(rng, dt, loc)),
    maybe(rng, 0.7, () => kv(rng, rng.pick(['Delivery date', 'Required by', 'Deliver by', 'Need by']), fmtDate(rng, addDays(dt, rng.int(5, 60)), loc))),
    maybe(rng, 0.5, () => kv(rng, rng.pick(['Requisitioner', 'Requested by', 'Buyer', 'Contact']), person(rng))),
    maybe(rng, 0.4, () => kv(rng, rng.pick(['Ship via', 'Carrier', 'Shipping method']), rng.pick(['Ground', 'Best way', 'Own transport', 'Courier', 'Freight collect']))),
    maybe(rng, 0.35, () => kv(rng, rng.pick(['Payment terms', 'Terms']), rng.pick(['Net 30', 'Net 45', '30 days EOM', '2/10 net 30']))),
    maybe(rng, 0.3, () => kv(rng, rng.pick(['Quote ref', 'Your quotation', 'Cost centre', 'Budget code']), `${rng.letters(2)}${rng.digits(5)}`)),
    maybe(rng, 0.25, () => kv(rng, rng.pick(['F.O.B.', 'Incoterms']), rng.pick(['Destination', 'Origin', 'DAP', 'EXW', 'FCA']))),
  ].filter(Boolean);
  const shipTo = `${rng.pick(['Ship To', 'Deliver to', 'Delivery address', 'Ship-to'])}:\n${[rng.chance(0.5) ? buyer.name : `${buyer.name} - ${rng.pick(['Warehouse', 'Site B', 'Goods In', 'Lab 2'])}`, ...address(rng, loc)].join('\n')}`;
  const vendorBlock = `${rng.pick(['Vendor', 'Supplier', 'To', 'Seller'])}:\n${vendor.lines.join('\n')}`;
  const totals = [
    kv(rng, 'Subtotal', money(rng, sub, loc)),
    rate ? kv(rng, `${taxLabel(rng, loc)}`, money(rng, tax, loc)) : '',
    freight ? kv(rng, rng.pick(['Freight', 'Shipping & handling']), money(rng, freight, loc)) : '',
    kv(rng, rng.pick(['Total', 'Order total', 'TOTAL', 'PO total']), money(rng, round2(sub + tax + freight), loc, 0)),
  ].filter(Boolean);
  const title = rng.chance(0.85) ? rng.pick(TITLES) : '';
  const parts = rng.chance(0.5)
    ? [buyer.lines.join('\n'), title, meta.join('\n'), vendorBlock, shipTo]
    : [title, meta.join('\n'), buyer.lines.join('\n'), shipTo, vendorBlock];
  return doc(
    parts,
    table(rng, header, rows),
    totals.join('\n'),
    maybe(rng, 0.7, () => rng.sample(TERMS, rng.int(1, 4)).join('\n')),
    maybe(rng, 0.6, () => `${rng.pick(['Authorized by', 'Approved by', 'Authorised signature', 'Purchasing manager'])}: ${person(rng)}${rng.chance(0.4) ? `    Date: ${fmtDate(rng, dt, loc)}` : ''}`),
  );
}

function emailed(rng) {
  const loc = rng.pick(EN_LOCS);
  const buyerName = person(rng);
  const buyerCo = company(rng, loc);
  const dt = randomDate(rng);
  const list = items(rng, rng.sample(['office', 'it', 'industrial'], 1), rng.int(1, 5));
  return doc(
    `Subject: ${rng.pick(['Order', 'Purchase order', 'New order', 'PO'])} ${poNo(rng)}${rng.chance(0.5) ? ` - ${buyerCo}` : ''}`,
    `${rng.pick(['Hello', 'Hi', 'Dear'])} ${rng.pick(['sales team', person(rng).split(' ')[0], 'all'])},`,
    rng.pick([
      `Please supply the following items as per your quotation ${rng.letters(1)}${rng.digits(4)}:`,
      `We would like to place an order for:`,
      `Further to our call, please accept this as our official order:`,
      `Kindly process the order below and confirm the delivery date.`,
    ]),
    list.map((it) => `- ${it.qty} x ${it.desc} @ ${money(rng, it.unit, loc)}${rng.chance(0.5) ? ` = ${money(rng, it.amount, loc, 3)}` : ''}`).join('\n'),
    `${rng.pick(['Deliver to', 'Delivery address', 'Ship to'])}: ${buyerCo}, ${address(rng, loc).join(', ')}\n${rng.pick(['Required by', 'We need these by', 'Delivery no later than'])} ${fmtDate(rng, addDays(dt, rng.int(3, 30)), loc)}.`,
    rng.pick(['Please quote our PO number on your invoice.', 'Invoice to accounts payable as usual, referencing this order.', 'Let me know if any item is out of stock.', 'Please send an order acknowledgement.']),
    `${rng.pick(['Thanks', 'Regards', 'Best'])},\n${buyerName}\n${rng.pick(['Procurement', 'Purchasing', 'Office Manager', 'Operations'])}, ${buyerCo}\n${phone(rng, loc)}`,
  );
}

function callOff(rng) {
  const loc = rng.pick(EN_LOCS);
  const dt = randomDate(rng);
  const list = items(rng, ['industrial', 'office'], rng.int(1, 4));
  return doc(
    rng.pick(['CALL-OFF ORDER', 'Release Order', 'Blanket PO Release', 'Schedule Order']),
    [kv(rng, rng.pick(['Framework agreement', 'Blanket PO', 'Contract ref']), `${rng.letters(2)}-${rng.digits(4)}`), kv(rng, rng.pick(['Release no.', 'Call-off no.']), String(rng.int(1, 40))), kv(rng, 'Date', fmtDate(rng, dt, loc)), kv(rng, rng.pick(['Supplier', 'Vendor']), company(rng, loc))].join('\n'),
    table(rng, ['Part', 'Qty', 'Deliver on', 'Price'], list.map((it) => [it.desc, String(it.qty), fmtDate(rng, addDays(dt, rng.int(2, 40)), loc), money(rng, it.unit, loc, 3)])),
    `${rng.pick(['Remaining on agreement', 'Balance of blanket order'])}: ${money(rng, round2(rng.float(1000, 90000)), loc)}`,
    `${rng.pick(['Deliver to', 'Site'])}: ${address(rng, loc).join(', ')}`,
    maybe(rng, 0.6, () => rng.sample(TERMS, 2).join('\n')),
  );
}

function change(rng) {
  const loc = rng.pick(EN_LOCS);
  const dt = randomDate(rng);
  const no = poNo(rng);
  const list = items(rng, ['it', 'office', 'industrial'], rng.int(1, 3));
  return doc(
    rng.pick(['PURCHASE ORDER CHANGE NOTICE', 'Change Order', 'Revised Purchase Order', 'PO Amendment']),
    [kv(rng, rng.pick(NO_LABELS), no), kv(rng, rng.pick(['Revision', 'Change no.']), String(rng.int(1, 5))), kv(rng, 'Date of change', fmtDate(rng, dt, loc)), kv(rng, 'Supplier', company(rng, loc))].join('\n'),
    list.map((it) => `Line ${rng.int(1, 9)}: ${it.desc} — quantity changed from ${it.qty} to ${it.qty + rng.int(1, 10)}`).join('\n'),
    `${rng.pick(['New delivery date', 'Revised need-by date'])}: ${fmtDate(rng, addDays(dt, rng.int(7, 50)), loc)}`,
    `${rng.pick(['Revised order total', 'New PO value'])}: ${money(rng, round2(sum(list) * rng.float(1.05, 1.6)), loc, 0)}`,
    'All other terms of the original purchase order remain unchanged.',
    `${rng.pick(['Buyer', 'Authorised by'])}: ${person(rng)}`,
  );
}

function foreign(rng) {
  const lang = rng.pick(['de', 'fr', 'es']);
  const dt = randomDate(rng);
  const svc = { de: SERVICE_DE, fr: SERVICE_FR, es: SERVICE_ES }[lang];
  const list = items(rng, [svc, 'office', 'industrial'], rng.int(1, 6));
  const w = {
    de: { t: ['Bestellung', 'BESTELLUNG', 'Auftrag'], no: 'Bestellnummer', date: 'Bestelldatum', deliv: 'Liefertermin', addr: 'Lieferanschrift', head: ['Pos', 'Artikel', 'Menge', 'Preis'], total: 'Gesamtsumme netto', foot: 'Bitte geben Sie unsere Bestellnummer auf allen Rechnungen und Lieferscheinen an.', sup: 'Lieferant' },
    fr: { t: ['Bon de commande', 'BON DE COMMANDE'], no: 'N° de commande', date: 'Date de commande', deliv: 'Date de livraison souhaitée', addr: 'Adresse de livraison', head: ['Réf', 'Article', 'Quantité', 'Prix'], total: 'Total HT', foot: 'Merci de rappeler le numéro de commande sur votre facture.', sup: 'Fournisseur' },
    es: { t: ['Orden de compra', 'PEDIDO', 'Hoja de pedido'], no: 'Nº de pedido', date: 'Fecha del pedido', deliv: 'Fecha de entrega', addr: 'Dirección de entrega', head: ['Ref', 'Artículo', 'Cantidad', 'Precio'], total: 'Total sin IVA', foot: 'Indique el número de pedido en todas las facturas y albaranes.', sup: 'Proveedor' },
  }[lang];
  return doc(
    company(rng, lang),
    rng.pick(w.t),
    [kv(rng, w.no, poNo(rng)), kv(rng, w.date, fmtDate(rng, dt, lang)), kv(rng, w.deliv, fmtDate(rng, addDays(dt, rng.int(5, 40)), lang)), kv(rng, w.sup, company(rng, lang))].join('\n'),
    `${w.addr}:\n${address(rng, lang).join('\n')}`,
    table(rng, w.head, list.map((it, i) => [String(i + 1), it.desc, String(it.qty), money(rng, it.unit, lang, 3)])),
    kv(rng, w.total, money(rng, sum(list), lang, 0)),
    w.foot,
  );
}

// Small businesses often send bare-bones orders with none of the usual form fields.
function minimal(rng) {
  const loc = rng.pick(EN_LOCS);
  const dt = randomDate(rng);
  const list = items(rng, rng.sample(['office', 'it', 'industrial'], 1), rng.int(1, 6));
  return doc(
    `${rng.pick(['PO', 'Order', 'P/O', 'Purchase order'])} ${poNo(rng)}`,
    `${rng.pick(['Supplier', 'To', 'Vendor'])}: ${company(rng, loc)}\n${rng.pick(['Date', 'Ordered'])}: ${fmtDate(rng, dt, loc)}`,
    list.map((it) => `${it.qty}  ${it.desc}  ${money(rng, it.unit, loc, 3)}  ${money(rng, it.amount, loc, 3)}`).join('\n'),
    `${rng.pick(['Total', 'Order value', 'Total (excl. tax)'])}: ${money(rng, sum(list), loc, 0)}`,
    maybe(rng, 0.6, () => `${rng.pick(['Approved', 'Ordered by', 'Signed'])}: ${person(rng)}`),
    maybe(rng, 0.5, () => rng.pick(['Deliver ASAP please.', 'Collect from trade counter.', `Need by ${fmtDate(rng, addDays(dt, 7), loc)}.`])),
  );
}

export function generatePurchaseOrder(rng) {
  return rng.weighted([[10, formal], [3, minimal], [4, emailed], [2, callOff], [2, change], [3, foreign]])(rng);
}
