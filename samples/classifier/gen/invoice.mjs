// Invoices: classic layouts, freelancer notes, utility bills, e-mailed invoices, and German,
// French and Spanish variants. Labels vary so no single token marks the class.
import { address, company, person, emailFor, SERVICE_DE, SERVICE_FR, SERVICE_ES, BANKS } from './data.mjs';
import { fmtDate, randomDate, addDays, money, table, kv, iban, ibanCountry, bic, round2, monthYear } from './format.mjs';
import { partyBlock, items, sum, itemRows, doc, maybe, taxRate, taxLabel, EN_LOCS } from './common.mjs';

const TITLES = ['INVOICE', 'Invoice', 'TAX INVOICE', 'Tax Invoice', 'SALES INVOICE', 'Commercial Invoice', 'INVOICE / STATEMENT OF CHARGES', 'Bill', 'PRO FORMA INVOICE', 'Proforma invoice'];
const NO_LABELS = ['Invoice No.', 'Invoice #', 'Invoice Number', 'Inv. No', 'Document no.', 'Reference', 'Bill No.'];
const DATE_LABELS = ['Invoice Date', 'Date', 'Date of issue', 'Issued', 'Tax point'];
const DUE_LABELS = ['Due Date', 'Payment due', 'Due', 'Pay by'];
const TO_LABELS = ['Bill To', 'Invoice To', 'Customer', 'Sold To', 'Billed to', 'Client'];
const TOTAL_LABELS = ['Total', 'TOTAL DUE', 'Amount Due', 'Balance Due', 'Total payable', 'Grand Total', 'Please pay'];

function invoiceNo(rng) {
  return rng.pick([`INV-${rng.digits(5)}`, `${rng.int(2021, 2025)}-${rng.digits(4)}`, `#${rng.digits(4)}`, `${rng.letters(2)}${rng.digits(6)}`, rng.digits(7)]);
}

function paymentBlock(rng, loc, seller) {
  const lines = [];
  const intro = rng.pick(['Payment details', 'Bank details', 'How to pay', 'Remittance information', 'Payment information']);
  lines.push(`${intro}:`);
  if (loc === 'us' || loc === 'ca') {
    lines.push(`${rng.pick(['Bank', 'Account name'])}: ${rng.pick(BANKS.us)}`, `Routing: ${rng.digits(9)}  Account: ${rng.digits(10)}`);
    if (rng.chance(0.5)) lines.push(`Checks payable to ${seller}`);
  } else if (loc === 'uk') {
    lines.push(`Sort code: ${rng.digits(2)}-${rng.digits(2)}-${rng.digits(2)}`, `Account no: ${rng.digits(8)}`);
    if (rng.chance(0.4)) lines.push(`IBAN: ${iban(rng, 'GB')}`);
  } else if (loc === 'au') {
    lines.push(`BSB: ${rng.digits(3)}-${rng.digits(3)}  Acc: ${rng.digits(9)}`);
  } else {
    lines.push(`IBAN: ${iban(rng, ibanCountry(loc), rng.chance(0.7))}`, `BIC: ${bic(rng)}`);
  }
  return lines.join('\n');
}

function classic(rng) {
  const loc = rng.pick(EN_LOCS);
  const seller = partyBlock(rng, loc);
  const buyer = partyBlock(rng, loc, { contact: false, vat: rng.chance(0.2) });
  const dt = randomDate(rng);
  const terms = rng.pick([14, 30, 30, 45, 60, 0]);
  const list = items(rng, rng.sample(['office', 'it', 'services', 'industrial'], rng.int(1, 2)), rng.int(1, 9));
  const sub = sum(list);
  const rate = taxRate(rng, loc);
  const tax = round2((sub * rate) / 100);
  const shipping = rng.chance(0.3) ? round2(rng.float(5, 60)) : 0;
  const total = round2(sub + tax + shipping);
  const head = rng.pick([['Description', 'Qty', 'Unit price', 'Amount'], ['Item', 'Quantity', 'Rate', 'Line total'], ['Description of goods/services', 'Qty', 'Price', 'Total'], ['Service', 'Hours', 'Rate', 'Amount']]);
  const rows = itemRows(rng, list, loc);
  const header = rows[0].length === 5 ? ['#', ...head] : head;
  const meta = [
    kv(rng, rng.pick(NO_LABELS), invoiceNo(rng)),
    kv(rng, rng.pick(DATE_LABELS), fmtDate(rng, dt, loc)),
    terms ? kv(rng, rng.pick(DUE_LABELS), fmtDate(rng, addDays(dt, terms), loc)) : kv(rng, 'Terms', 'Due on receipt'),
    maybe(rng, 0.35, () => kv(rng, rng.pick(['PO Number', 'Your order ref', 'Purchase order', 'Customer PO']), `PO-${rng.digits(5)}`)),
    maybe(rng, 0.3, () => kv(rng, rng.pick(['Customer ID', 'Account', 'Client no.']), rng.digits(6))),
  ].filter(Boolean);
  const totals = [
    kv(rng, 'Subtotal', money(rng, sub, loc)),
    rate ? kv(rng, `${taxLabel(rng, loc)} ${rate}%`, money(rng, tax, loc)) : '',
    shipping ? kv(rng, rng.pick(['Shipping', 'Freight', 'Delivery']), money(rng, shipping, loc)) : '',
    kv(rng, rng.pick(TOTAL_LABELS), money(rng, total, loc, 0)),
  ].filter(Boolean);
  const notes = [
    maybe(rng, 0.5, rng.pick(['Thank you for your business.', 'Thanks for choosing us!', 'We appreciate your prompt payment.', 'Questions about this bill? Reply to this e-mail.'])),
    maybe(rng, 0.35, () => rng.pick([
      `Payment terms: net ${terms || 7} days. Late payments may incur interest at ${rng.int(2, 8)}% above base rate.`,
      `Please quote the invoice number with your payment.`,
      `A late fee of ${money(rng, rng.int(10, 50), loc, 0)} applies after the due date.`,
      `Goods remain our property until paid in full.`,
    ])),
  ];
  const order = rng.int(0, 2);
  const title = rng.chance(0.85) ? rng.pick(TITLES) : '';
  const toBlock = `${rng.pick(TO_LABELS)}:\n${buyer.lines.join('\n')}`;
  const parts = order === 0
    ? [title, seller.lines.join('\n'), toBlock, meta.join('\n')]
    : order === 1
      ? [seller.lines.join('\n'), title, meta.join('\n'), toBlock]
      : [title, meta.join('\n'), seller.lines.join('\n'), toBlock];
  return doc(parts, table(rng, header, rows), totals.join('\n'), maybe(rng, 0.7, () => paymentBlock(rng, loc, seller.name)), notes);
}

function freelancer(rng) {
  const loc = rng.pick(EN_LOCS);
  const me = person(rng);
  const client = company(rng, loc);
  const dt = randomDate(rng);
  const hours = rng.int(3, 80);
  const rate = rng.int(35, 150);
  const total = hours * rate;
  const what = rng.pick(['illustrations for the spring catalogue', 'copy editing of the annual report', 'React front-end work', 'wedding photography', 'bookkeeping for Q2', 'logo and brand guidelines', 'podcast editing (6 episodes)', 'translation of product pages', 'tutoring sessions', 'data cleaning and dashboard']);
  return doc(
    rng.pick([`Invoice ${invoiceNo(rng)}`, `INVOICE`, `Invoice no. ${rng.int(1, 99)}`, `${me} — invoice`]),
    [`From: ${me}`, ...address(rng, loc), emailFor(rng, me, 'studio')].join('\n'),
    `To: ${client}\n${address(rng, loc).join('\n')}`,
    `Date: ${fmtDate(rng, dt, loc)}`,
    rng.pick([
      `For ${what}.\n${hours} hours at ${money(rng, rate, loc, 0)}/hour`,
      `Work: ${what}\nTime: ${hours} h × ${money(rng, rate, loc, 0)}`,
      `Services rendered in ${monthYear(dt, loc)}: ${what}. Flat fee.`,
    ]),
    `${rng.pick(['Total due', 'Amount owed', 'Total', 'Please pay'])}: ${money(rng, total, loc, 0)}`,
    rng.pick([
      `Please pay by bank transfer within ${rng.pick([7, 14, 30])} days.\n${paymentBlock(rng, loc, me)}`,
      `Payment via bank transfer or PayPal to ${emailFor(rng, me, 'pay')}. Thank you!`,
      `${loc === 'uk' ? 'Not VAT registered.' : 'No sales tax charged.'} Payable within 30 days of the invoice date.`,
    ]),
  );
}

function utility(rng) {
  const loc = rng.pick(['us', 'uk', 'au', 'ca', 'ie']);
  const provider = `${company(rng, loc).split(' ')[0]} ${rng.pick(['Energy', 'Water', 'Telecom', 'Broadband', 'Power & Gas', 'Mobile'])}`;
  const dt = randomDate(rng);
  const start = addDays(dt, -31);
  const prev = round2(rng.float(20, 300));
  const charges = round2(rng.float(25, 400));
  const paid = rng.chance(0.8) ? prev : 0;
  const due = round2(prev - paid + charges);
  const usage = rng.pick([`Electricity used: ${rng.int(150, 900)} kWh @ ${rng.float(0.12, 0.34).toFixed(4)}`, `Water: ${rng.int(8, 40)} m3`, `Data: ${rng.int(5, 200)} GB, calls ${rng.int(20, 600)} min`, `Gas: ${rng.int(300, 2200)} kWh`]);
  return doc(
    provider,
    rng.pick(['Your bill', 'Your monthly bill', 'INVOICE', 'Statement of charges', 'Bill summary']),
    [kv(rng, 'Account number', rng.digits(10)), kv(rng, rng.pick(['Bill date', 'Invoice date']), fmtDate(rng, dt, loc)), kv(rng, 'Billing period', `${fmtDate(rng, start, loc)} - ${fmtDate(rng, dt, loc)}`)].join('\n'),
    [person(rng), ...address(rng, loc)].join('\n'),
    [kv(rng, 'Previous balance', money(rng, prev, loc)), kv(rng, 'Payment received - thank you', money(rng, -paid, loc)), kv(rng, 'New charges', money(rng, charges, loc)), usage, kv(rng, rng.pick(['Amount due', 'Total to pay', 'Please pay']), money(rng, due, loc, 0)), kv(rng, 'Due by', fmtDate(rng, addDays(dt, 21), loc))].join('\n'),
    maybe(rng, 0.6, rng.pick(['Pay online, by phone or set up Direct Debit to never miss a payment.', 'Your payment will be collected by direct debit on or after the due date.', 'Save paper: switch to e-billing in your online account.'])),
  );
}

function emailed(rng) {
  const loc = rng.pick(EN_LOCS);
  const seller = company(rng, loc);
  const dt = randomDate(rng);
  const list = items(rng, ['services', 'it'], rng.int(1, 3));
  const total = sum(list);
  return doc(
    `Subject: ${rng.pick(['Invoice', 'Your invoice', 'New invoice', 'Invoice available'])} ${invoiceNo(rng)} from ${seller}`,
    `${rng.pick(['Hi', 'Hello', 'Dear'])} ${rng.pick(['there', person(rng).split(' ')[0], 'customer'])},`,
    rng.pick([`Your invoice for ${monthYear(dt, loc)} is ready.`, `Please find below the invoice for the work completed last month.`, `Here is your invoice. A PDF copy is attached.`]),
    list.map((it) => `${it.desc} .... ${money(rng, it.amount, loc)}`).join('\n'),
    `${rng.pick(['Amount due', 'Total due', 'Invoice total'])}: ${money(rng, total, loc, 0)}\n${rng.pick(['Due date', 'Due'])}: ${fmtDate(rng, addDays(dt, 30), loc)}`,
    rng.pick(['Pay securely online using the link in your account.', 'Payment by bank transfer to the account shown on the invoice.', 'If you have already paid, please ignore this message.']),
    `${seller}`,
  );
}

function german(rng) {
  const seller = partyBlock(rng, 'de', { vat: true });
  const buyer = [company(rng, 'de'), ...address(rng, 'de')];
  const dt = randomDate(rng);
  const list = items(rng, [SERVICE_DE, 'office', 'it'], rng.int(1, 6));
  const net = sum(list);
  const vat = round2(net * 0.19);
  return doc(
    seller.lines.join('\n'),
    buyer.join('\n'),
    rng.pick(['Rechnung', 'RECHNUNG', 'Rechnung Nr. ' + rng.digits(5)]),
    [kv(rng, rng.pick(['Rechnungsnummer', 'Rechnungs-Nr.', 'Beleg-Nr.']), `RE-${rng.digits(6)}`), kv(rng, rng.pick(['Rechnungsdatum', 'Datum']), fmtDate(rng, dt, 'de')), kv(rng, 'Kundennummer', rng.digits(5)), maybe(rng, 0.5, () => kv(rng, 'Leistungsdatum', fmtDate(rng, addDays(dt, -rng.int(1, 20)), 'de')))].filter(Boolean).join('\n'),
    table(rng, ['Pos.', 'Bezeichnung', 'Menge', 'Einzelpreis', 'Gesamt'], list.map((it, i) => [String(i + 1), it.desc, String(it.qty), money(rng, it.unit, 'de', 3), money(rng, it.amount, 'de', 3)])),
    [kv(rng, 'Nettobetrag', money(rng, net, 'de')), kv(rng, 'zzgl. 19% MwSt.', money(rng, vat, 'de')), kv(rng, rng.pick(['Gesamtbetrag', 'Rechnungsbetrag', 'Summe brutto']), money(rng, net + vat, 'de', 0))].join('\n'),
    `${rng.pick(['Zahlbar innerhalb von 14 Tagen ohne Abzug.', 'Bitte überweisen Sie den Betrag bis zum ' + fmtDate(rng, addDays(dt, 14), 'de') + '.', 'Zahlungsziel: 30 Tage netto.'])}\nIBAN: ${iban(rng, 'DE')}  BIC: ${bic(rng)}`,
    maybe(rng, 0.5, 'Vielen Dank für Ihren Auftrag!'),
  );
}

function french(rng) {
  const seller = partyBlock(rng, 'fr', { vat: true });
  const dt = randomDate(rng);
  const list = items(rng, [SERVICE_FR, 'office'], rng.int(1, 5));
  const ht = sum(list);
  const tva = round2(ht * 0.2);
  return doc(
    seller.lines.join('\n'),
    rng.pick(['FACTURE', 'Facture', 'Facture n° ' + rng.digits(5)]),
    [kv(rng, rng.pick(['Numéro de facture', 'Facture n°', 'N° facture']), `F${rng.digits(6)}`), kv(rng, rng.pick(['Date de facturation', 'Date']), fmtDate(rng, dt, 'fr')), kv(rng, 'Client', company(rng, 'fr')), address(rng, 'fr').join(', ')].join('\n'),
    table(rng, ['Désignation', 'Qté', 'Prix unitaire HT', 'Montant HT'], list.map((it) => [it.desc, String(it.qty), money(rng, it.unit, 'fr', 3), money(rng, it.amount, 'fr', 3)])),
    [kv(rng, 'Total HT', money(rng, ht, 'fr')), kv(rng, 'TVA 20 %', money(rng, tva, 'fr')), kv(rng, rng.pick(['Total TTC', 'Net à payer', 'Montant TTC']), money(rng, ht + tva, 'fr', 0))].join('\n'),
    `${rng.pick(['Échéance', 'Date d\'échéance', 'À régler avant le'])} : ${fmtDate(rng, addDays(dt, 30), 'fr')}\n${rng.pick(['Règlement par virement', 'Conditions de paiement : 30 jours'])} - IBAN ${iban(rng, 'FR')}`,
    maybe(rng, 0.5, 'En cas de retard de paiement, une indemnité forfaitaire de 40 € pour frais de recouvrement sera due.'),
  );
}

function spanish(rng) {
  const seller = partyBlock(rng, 'es', { vat: true });
  const dt = randomDate(rng);
  const list = items(rng, [SERVICE_ES, 'office'], rng.int(1, 5));
  const base = sum(list);
  const iva = round2(base * 0.21);
  return doc(
    rng.pick(['FACTURA', 'Factura', 'Factura simplificada']),
    seller.lines.join('\n'),
    [kv(rng, rng.pick(['Nº de factura', 'Número de factura', 'Factura nº']), `${rng.int(2021, 2025)}/${rng.digits(4)}`), kv(rng, rng.pick(['Fecha de emisión', 'Fecha']), fmtDate(rng, dt, 'es')), kv(rng, 'Cliente', company(rng, 'es')), kv(rng, 'NIF', `B${rng.digits(8)}`)].join('\n'),
    table(rng, ['Concepto', 'Cantidad', 'Precio', 'Importe'], list.map((it) => [it.desc, String(it.qty), money(rng, it.unit, 'es', 3), money(rng, it.amount, 'es', 3)])),
    [kv(rng, 'Base imponible', money(rng, base, 'es')), kv(rng, 'IVA 21%', money(rng, iva, 'es')), kv(rng, rng.pick(['Total factura', 'TOTAL', 'Total a pagar']), money(rng, base + iva, 'es', 0))].join('\n'),
    `${rng.pick(['Forma de pago: transferencia bancaria', 'Vencimiento: ' + fmtDate(rng, addDays(dt, 30), 'es')])}\nIBAN ${iban(rng, 'ES')}`,
  );
}

// Web-shop invoice sent after payment: looks a lot like a receipt, but is issued as an invoice.
function paidOnline(rng) {
  const loc = rng.pick(EN_LOCS);
  const shop = company(rng, loc);
  const dt = randomDate(rng);
  const list = items(rng, ['office', 'it'], rng.int(1, 4));
  const sub = sum(list);
  const ship = round2(rng.pick([0, 4.99, 7.5, 12]));
  const total = round2(sub + ship);
  return doc(
    `${shop}\n${rng.pick(['Invoice', 'INVOICE', 'Invoice / delivery note'])}`,
    [kv(rng, rng.pick(['Invoice number', 'Invoice no.']), invoiceNo(rng)), kv(rng, rng.pick(['Order number', 'Order #']), rng.digits(9)), kv(rng, rng.pick(['Invoice date', 'Date']), fmtDate(rng, dt, loc)), kv(rng, 'Customer', person(rng))].join('\n'),
    `${rng.pick(['Shipping address', 'Delivery address'])}:\n${address(rng, loc).join('\n')}`,
    list.map((it) => `${it.qty} x ${it.desc}  ${money(rng, it.amount, loc)}`).join('\n'),
    [kv(rng, 'Subtotal', money(rng, sub, loc)), kv(rng, 'Shipping', money(rng, ship, loc)), kv(rng, rng.pick(['Total', 'Invoice total']), money(rng, total, loc, 0)), rng.chance(0.7) ? `${rng.pick(['Paid', 'Payment received', 'Status: PAID'])} - ${rng.pick(['Visa ending', 'Mastercard ending', 'PayPal', 'card ****'])} ${rng.digits(4)}` : '', rng.chance(0.5) ? kv(rng, 'Balance due', money(rng, 0, loc)) : ''].filter(Boolean).join('\n'),
    maybe(rng, 0.5, () => `${loc === 'us' ? 'Sales tax' : 'VAT'} included where applicable. ${rng.pick(['Returns accepted within 30 days.', 'Keep this invoice for warranty purposes.', ''])}`),
  );
}

export function generateInvoice(rng) {
  return rng.weighted([
    [10, classic], [2.5, paidOnline], [3, freelancer], [2, utility], [2, emailed], [2, german], [1.5, french], [1.5, spanish],
  ])(rng);
}
