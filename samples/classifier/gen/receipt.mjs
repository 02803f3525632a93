// Receipts: till slips, restaurant bills, fuel, rides, online payment confirmations, cash
// receipts, and German/French/Spanish till slips.
import { address, company, person, phone, GROCERY, RESTAURANT, RETAIL, STORES } from './data.mjs';
import { fmtDate, randomDate, money, num, round2, CODE } from './format.mjs';
import { doc, maybe, EN_LOCS } from './common.mjs';

function time(rng) {
  return `${String(rng.int(7, 22)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}${rng.chance(0.4) ? `:${String(rng.int(0, 59)).padStart(2, '0')}` : ''}`;
}

function card(rng) {
  return rng.pick(['VISA', 'MASTERCARD', 'AMEX', 'DEBIT', 'Visa Debit', 'Contactless', 'MC']) + ` ${rng.pick(['****', 'XXXX', '************', '**** **** ****'])}${rng.digits(4)}`;
}

function lines(rng, names, loc, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const name = rng.pick(names);
    const qty = rng.chance(0.25) ? rng.int(2, 6) : 1;
    const price = round2(rng.float(0.4, 18));
    out.push({ name, qty, price, amount: round2(qty * price) });
  }
  return out;
}

function renderLines(rng, ls, loc) {
  const w = rng.int(24, 34);
  return ls.map((l) => {
    const left = l.qty > 1 ? (rng.chance(0.5) ? `${l.qty} x ${l.name}` : `${l.name}\n  ${l.qty} @ ${num(l.price, loc)}`) : l.name;
    const right = num(l.amount, loc);
    const last = left.split('\n').pop();
    const pad = Math.max(1, w - last.length);
    return left.includes('\n') ? `${left}${' '.repeat(Math.max(1, w - last.length))}${right}` : `${left}${' '.repeat(pad)}${right}${rng.chance(0.3) ? ' ' + rng.pick(['A', 'B', 'T', '*']) : ''}`;
  }).join('\n');
}

function till(rng) {
  const loc = rng.pick(EN_LOCS);
  const store = rng.pick(STORES);
  const dt = randomDate(rng);
  const pool = rng.chance(0.6) ? GROCERY.en : RETAIL;
  const ls = lines(rng, pool, loc, rng.int(2, 14));
  const sub = round2(ls.reduce((s, l) => s + l.amount, 0));
  const tax = loc === 'us' ? round2(sub * 0.07) : 0;
  const total = round2(sub + tax);
  const cash = rng.chance(0.3);
  const tendered = cash ? Math.ceil(total / 10) * 10 : total;
  return doc(
    [rng.chance(0.5) ? store.toUpperCase() : store, ...address(rng, loc), maybe(rng, 0.6, () => phone(rng, loc))].filter(Boolean).join('\n'),
    maybe(rng, 0.5, () => rng.pick(['SALES RECEIPT', 'RECEIPT', 'Customer copy', 'TAX RECEIPT', 'Your receipt'])),
    `${fmtDate(rng, dt, loc)} ${time(rng)}  ${rng.pick(['Till', 'Reg', 'POS', 'Lane'])} ${rng.int(1, 12)}  ${rng.pick(['Cashier', 'Op', 'Served by'])}: ${rng.pick(['Amy', 'Raj', 'Tom', '0042', 'Kim', 'Lee'])}`,
    renderLines(rng, ls, loc),
    [`${rng.pick(['SUBTOTAL', 'Sub-total', 'SUB TOTAL'])}  ${num(sub, loc)}`, tax ? `TAX  ${num(tax, loc)}` : '', `${rng.pick(['TOTAL', 'BALANCE DUE', 'Total', 'AMOUNT'])}  ${money(rng, total, loc, 0)}`, `${ls.reduce((s, l) => s + l.qty, 0)} ${rng.pick(['items', 'ITEMS SOLD', 'articles'])}`].filter(Boolean).join('\n'),
    cash ? `CASH  ${num(tendered, loc)}\nCHANGE  ${num(tendered - total, loc)}` : `${card(rng)}  ${num(total, loc)}\n${rng.pick(['AUTH CODE', 'Auth', 'APPROVED'])} ${rng.digits(6)}${rng.chance(0.5) ? `\nAID A0000000${rng.digits(6)}` : ''}`,
    maybe(rng, 0.3, () => loc === 'uk' ? `VAT INCLUDED ${num(round2(total / 6), loc)}\nVAT NO ${rng.digits(9)}` : `You saved ${money(rng, round2(rng.float(0.5, 9)), loc, 0)} today`),
    maybe(rng, 0.6, () => rng.pick(['THANK YOU FOR SHOPPING WITH US', 'Thank you, please come again', 'Keep this receipt for returns within 28 days', 'Please retain for your records', 'Tell us how we did: survey code ' + rng.digits(8)])),
    maybe(rng, 0.3, () => `Loyalty points earned: ${rng.int(1, 90)}  Balance: ${rng.int(100, 5000)}`),
  );
}

function restaurant(rng) {
  const loc = rng.pick(EN_LOCS);
  const name = rng.pick(['Café Lumen', 'The Copper Kettle', 'Trattoria Rossi', 'Noodle House', 'Harbor Grill', 'Blue Door Bistro', 'Taqueria Sol']);
  const dt = randomDate(rng);
  const ls = lines(rng, RESTAURANT, loc, rng.int(2, 9));
  const sub = round2(ls.reduce((s, l) => s + l.amount, 0));
  const svc = rng.chance(0.5) ? round2(sub * rng.pick([0.1, 0.125, 0.15, 0.18, 0.2])) : 0;
  const total = round2(sub + svc);
  return doc(
    `${name}\n${address(rng, loc).join('\n')}`,
    `${rng.pick(['Table', 'Tbl', 'TABLE'])} ${rng.int(1, 40)}  ${rng.pick(['Guests', 'Covers', 'Pax'])}: ${rng.int(1, 8)}  ${rng.pick(['Server', 'Waiter', 'Staff'])}: ${rng.pick(['Lucia', 'Ben', 'Marco', 'Aisha'])}\n${fmtDate(rng, dt, loc)} ${time(rng)}  ${rng.pick(['Check', 'Order', 'Bill'])} #${rng.digits(4)}`,
    renderLines(rng, ls, loc),
    [`Subtotal ${num(sub, loc)}`, svc ? `${rng.pick(['Tip', 'Gratuity', 'Service charge'])} ${num(svc, loc)}` : '', `${rng.pick(['Total', 'TOTAL', 'Amount paid'])} ${money(rng, total, loc, 0)}`].filter(Boolean).join('\n'),
    `${rng.pick(['Paid', 'Payment', 'Tender'])}: ${rng.chance(0.2) ? 'CASH' : card(rng)}`,
    maybe(rng, 0.6, rng.pick(['Thank you for dining with us!', 'Grazie e arrivederci', 'Service not included', 'Follow us for weekly specials'])),
  );
}

function fuel(rng) {
  const loc = rng.pick(['us', 'uk', 'au', 'ca', 'ie']);
  const litres = loc === 'us';
  const vol = round2(rng.float(8, 70));
  const ppu = round2(rng.float(litres ? 2.8 : 1.3, litres ? 5.2 : 2.1));
  const total = round2(vol * ppu);
  return doc(
    `${rng.pick(['QuickFuel', 'Harbor Petroleum', 'Roadstar Services', 'Northway Fuel'])} #${rng.int(100, 999)}\n${address(rng, loc).join('\n')}`,
    `${fmtDate(rng, randomDate(rng), loc)} ${time(rng)}`,
    `${rng.pick(['Pump', 'PUMP', 'Dispenser'])} ${rng.int(1, 16)}  ${rng.pick(['Unleaded', 'Diesel', 'Super 98', 'Regular'])}\n${num(vol, loc)} ${litres ? 'GAL' : 'L'} @ ${num(ppu, loc)}/${litres ? 'GAL' : 'L'}\n${rng.pick(['FUEL SALE', 'Fuel total'])} ${money(rng, total, loc, 0)}`,
    maybe(rng, 0.3, () => `Car wash  ${num(8, loc)}`),
    `${card(rng)}\nAPPROVED  ${rng.digits(6)}`,
    rng.pick(['THANK YOU. DRIVE SAFELY', 'CUSTOMER COPY', 'Receipt', 'Keep for your records']),
  );
}

function online(rng) {
  const loc = rng.pick(EN_LOCS);
  const merchant = company(rng, loc);
  const dt = randomDate(rng);
  const amount = round2(rng.float(4, 900));
  const what = rng.pick(['Pro plan (monthly)', 'Annual membership', '2 × concert tickets', 'Online course: Intro to Pottery', 'Donation', 'Domain renewal (1 year)', 'Order of 3 items', 'Event registration', 'Gift card']);
  return doc(
    rng.pick([`Receipt from ${merchant}`, `Payment receipt`, `Your ${merchant} receipt`, `Thanks for your payment`, `Payment confirmation`]),
    [`${rng.pick(['Receipt', 'Receipt number', 'Transaction ID', 'Confirmation no.'])}: ${rng.digits(4)}-${rng.digits(4)}`, `${rng.pick(['Amount paid', 'Paid', 'Total charged'])}: ${money(rng, amount, loc, 0)}`, `${rng.pick(['Date paid', 'Payment date', 'Date'])}: ${fmtDate(rng, dt, loc)}`, `${rng.pick(['Payment method', 'Paid with', 'Card'])}: ${card(rng)}`].join('\n'),
    `${rng.pick(['Summary', 'Details', 'Items'])}\n${what}  ${money(rng, amount, loc)}`,
    maybe(rng, 0.4, () => `${rng.pick(['Related invoice', 'Invoice', 'Order'])}: ${rng.letters(3)}-${rng.digits(5)}`),
    rng.pick([`If you have any questions, contact us at support@${merchant.split(' ')[0].toLowerCase()}.com.`, 'This payment has been received. No further action is needed.', 'You are receiving this e-mail because you made a purchase.', 'Keep this receipt for your records.']),
  );
}

function ride(rng) {
  const loc = rng.pick(EN_LOCS);
  const dist = round2(rng.float(1.2, 38));
  const fare = round2(2.5 + dist * rng.float(0.9, 2.4));
  const tip = rng.chance(0.5) ? round2(fare * 0.1) : 0;
  return doc(
    rng.pick(['Trip receipt', 'Your ride receipt', 'TAXI RECEIPT', 'Thanks for riding']),
    `${fmtDate(rng, randomDate(rng), loc)}  ${time(rng)}\n${rng.pick(['Pickup', 'From'])}: ${address(rng, loc)[0]}\n${rng.pick(['Drop-off', 'To'])}: ${address(rng, loc)[0]}\n${rng.pick(['Distance', 'Trip distance'])}: ${dist} ${loc === 'us' ? 'mi' : 'km'}  ${rng.pick(['Duration', 'Time'])}: ${rng.int(5, 70)} min`,
    [`Base fare ${num(2.5, loc)}`, `Distance & time ${num(fare - 2.5, loc)}`, tip ? `Tip ${num(tip, loc)}` : '', `Total ${money(rng, fare + tip, loc, 0)}`].filter(Boolean).join('\n'),
    `${rng.pick(['Charged to', 'Paid by'])} ${card(rng)}`,
    `Driver: ${person(rng).split(' ')[0]}  ${rng.pick(['Licence', 'Cab no.', 'Vehicle'])} ${rng.letters(2)}${rng.digits(3)}`,
  );
}

function cash(rng) {
  const loc = rng.pick(EN_LOCS);
  const dt = randomDate(rng);
  const amount = round2(rng.int(20, 2500));
  const payer = person(rng);
  const what = rng.pick(['rent for ' + ['March', 'April', 'October', 'June'][rng.int(0, 3)], 'deposit on sofa', 'piano lessons (4)', 'car repair', 'membership fees', 'deposit for venue hire', 'used bicycle']);
  return doc(
    rng.pick(['RECEIPT', 'Cash Receipt', 'Rent Receipt', 'Receipt No. ' + rng.digits(3)]),
    `${rng.pick(['Date', 'Dated'])}: ${fmtDate(rng, dt, loc)}`,
    rng.pick([
      `Received from ${payer} the sum of ${money(rng, amount, loc, 0)} for ${what}.`,
      `Received with thanks from ${payer}: ${money(rng, amount, loc, 0)}\nFor: ${what}`,
      `I, ${person(rng)}, acknowledge receipt of ${money(rng, amount, loc, 0)} in ${rng.pick(['cash', 'full', 'cheque'])} from ${payer} in payment of ${what}.`,
    ]),
    `${rng.pick(['Paid by', 'Method'])}: ${rng.pick(['Cash', 'Cheque no. ' + rng.digits(6), 'Bank transfer'])}\n${rng.pick(['Balance due', 'Balance remaining'])}: ${money(rng, 0, loc, 0)}`,
    `${rng.pick(['Signed', 'Received by', 'Signature'])}: ____________  ${person(rng)}`,
  );
}

function foreign(rng) {
  const lang = rng.pick(['de', 'fr', 'es']);
  const loc = lang;
  const store = rng.pick(STORES);
  const ls = lines(rng, GROCERY[lang], loc, rng.int(2, 10));
  const total = round2(ls.reduce((s, l) => s + l.amount, 0));
  const given = Math.ceil(total / 5) * 5;
  const cashPay = rng.chance(0.4);
  const words = {
    de: { title: ['Kassenbon', 'KASSENBELEG', 'Quittung', 'Beleg'], sum: 'SUMME', paid: cashPay ? 'Bar' : 'EC-Karte', back: 'Rückgeld', vat: 'MwSt 7%', thanks: ['Vielen Dank für Ihren Einkauf', 'Danke und auf Wiedersehen'], till: 'Kasse', staff: 'Bediener' },
    fr: { title: ['Ticket de caisse', 'TICKET', 'Reçu', 'Facturette CB'], sum: 'TOTAL', paid: cashPay ? 'Espèces' : 'Carte bancaire', back: 'Rendu', vat: 'TVA 5,5%', thanks: ['Merci de votre visite', 'À bientôt'], till: 'Caisse', staff: 'Caissier' },
    es: { title: ['Ticket de compra', 'TICKET', 'Recibo', 'Factura simplificada'], sum: 'TOTAL', paid: cashPay ? 'Efectivo' : 'Tarjeta', back: 'Cambio', vat: 'IVA 10%', thanks: ['Gracias por su compra', 'Vuelva pronto'], till: 'Caja', staff: 'Cajero' },
  }[lang];
  return doc(
    `${store}\n${address(rng, loc).join('\n')}`,
    maybe(rng, 0.6, () => rng.pick(words.title)),
    `${fmtDate(rng, randomDate(rng), loc)} ${time(rng)}  ${words.till} ${rng.int(1, 9)}  ${words.staff} ${rng.int(10, 99)}`,
    renderLines(rng, ls, loc),
    `${words.sum}  ${money(rng, total, loc, 0)}\n${words.paid}  ${num(cashPay ? given : total, loc)}${cashPay ? `\n${words.back}  ${num(given - total, loc)}` : ''}\n${words.vat}  ${num(round2(total * 0.07), loc)}`,
    maybe(rng, 0.7, () => rng.pick(words.thanks)),
  );
}

// Cash-machine and bank-counter slips: bank vocabulary, but a receipt for one transaction.
function atm(rng) {
  const loc = rng.pick(EN_LOCS);
  const amount = rng.pick([20, 40, 50, 60, 100, 200, 250]);
  return doc(
    rng.pick(['ATM RECEIPT', 'Cash withdrawal', 'TRANSACTION RECORD', 'Customer receipt']),
    `${rng.pick(['Thornbury Bank', 'Harborview Credit Union', 'Shannon Bank', 'Southern Cross Bank'])}  ${rng.pick(['ATM', 'Terminal'])} ${rng.letters(1)}${rng.digits(5)}\n${address(rng, loc)[0]}`,
    `${fmtDate(rng, randomDate(rng), loc)}  ${time(rng)}\n${rng.pick(['Card', 'Card no.'])}: ${card(rng)}\n${rng.pick(['Seq', 'Trans no.', 'Ref'])}: ${rng.digits(6)}`,
    `${rng.pick(['Withdrawal', 'Cash withdrawn', 'Amount'])}: ${money(rng, amount, loc, 0)}\n${rng.pick(['Fee', 'Charge'])}: ${money(rng, rng.pick([0, 0, 2.5, 3]), loc, 0)}\n${rng.pick(['Available balance', 'Balance'])}: ${money(rng, round2(rng.float(10, 8000)), loc, 0)}`,
    rng.pick(['Thank you for banking with us', 'Please retain for your records', 'Take your card']),
  );
}

export function generateReceipt(rng) {
  return rng.weighted([[8, till], [2, atm], [4, restaurant], [2, fuel], [3, online], [2, ride], [2, cash], [4, foreign]])(rng);
}
