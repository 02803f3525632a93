// Bank statements: current accounts, credit cards, savings summaries, online-banking exports,
// and German/French/Spanish statements. Balances are computed so the arithmetic is consistent.
import { address, company, person, TXN, BANKS } from './data.mjs';
import { fmtDate, randomDate, addDays, money, num, table, kv, iban, ibanCountry, bic, round2 } from './format.mjs';
import { doc, maybe } from './common.mjs';

function txns(rng, lang, start, days, opening, loc) {
  const out = [];
  let bal = opening;
  let dt = start;
  const n = rng.int(4, 18);
  for (let i = 0; i < n; i++) {
    dt = addDays(dt, rng.int(0, Math.max(1, Math.floor(days / n) + 1)));
    const raw = rng.pick(TXN[lang]).replace('{co}', company(rng, 'uk').toUpperCase()).replace('{p}', person(rng).toUpperCase());
    const credit = /SALARY|Gehalt|SALAIRE|NOMINA|FROM|Gutschrift|REFUND|INTEREST|Zinsen|DEPOSIT|BIZUM/i.test(raw) && rng.chance(0.8);
    const amt = round2(credit ? rng.float(20, 4200) : rng.float(2, 900));
    bal = round2(bal + (credit ? amt : -amt));
    out.push({ dt, desc: raw, out: credit ? 0 : amt, in: credit ? amt : 0, bal });
  }
  return { rows: out, closing: bal };
}

function current(rng) {
  const loc = rng.pick(['uk', 'us', 'ie', 'nl', 'au', 'ca']);
  const bank = rng.pick(BANKS[loc]);
  const holder = rng.chance(0.7) ? person(rng) : company(rng, loc);
  const start = randomDate(rng);
  const end = addDays(start, rng.pick([27, 29, 30, 30, 90]));
  const opening = round2(rng.float(-400, 9000));
  const { rows, closing } = txns(rng, 'en', start, 30, opening, loc);
  const acct = loc === 'uk'
    ? [kv(rng, 'Sort code', `${rng.digits(2)}-${rng.digits(2)}-${rng.digits(2)}`), kv(rng, 'Account number', rng.digits(8)), maybe(rng, 0.6, () => kv(rng, 'IBAN', iban(rng, 'GB')))]
    : ['ie', 'nl'].includes(loc)
      ? [kv(rng, 'IBAN', iban(rng, ibanCountry(loc))), kv(rng, 'BIC', bic(rng))]
      : [kv(rng, 'Account number', `${'*'.repeat(rng.int(0, 6))}${rng.digits(rng.int(4, 10))}`), maybe(rng, 0.5, () => kv(rng, rng.pick(['Routing number', 'BSB', 'Transit']), rng.digits(rng.pick([6, 9]))))];
  const head = rng.pick([['Date', 'Description', 'Paid out', 'Paid in', 'Balance'], ['Date', 'Details', 'Withdrawals', 'Deposits', 'Balance'], ['Posting date', 'Transaction', 'Debit', 'Credit', 'Balance']]);
  const tableRows = rows.map((r) => [fmtDate(rng, r.dt, loc), r.desc, r.out ? num(r.out, loc) : '', r.in ? num(r.in, loc) : '', num(r.bal, loc)]);
  const totalOut = round2(rows.reduce((s, r) => s + r.out, 0));
  const totalIn = round2(rows.reduce((s, r) => s + r.in, 0));
  return doc(
    `${bank}\n${address(rng, loc).join('\n')}`,
    maybe(rng, 0.8, () => rng.pick(['Statement of Account', 'ACCOUNT STATEMENT', 'Your statement', 'Current Account Statement', 'Monthly statement', 'Checking account statement'])),
    `${holder}\n${address(rng, loc).join('\n')}`,
    [...acct.filter(Boolean), kv(rng, rng.pick(['Statement period', 'Period', 'Statement dates']), `${fmtDate(rng, start, loc)} to ${fmtDate(rng, end, loc)}`), maybe(rng, 0.4, () => kv(rng, 'Statement no.', String(rng.int(1, 200))))].filter(Boolean).join('\n'),
    rng.chance(0.6)
      ? [kv(rng, rng.pick(['Opening balance', 'Balance brought forward', 'Beginning balance', 'Previous balance']), money(rng, opening, loc)), kv(rng, rng.pick(['Money out', 'Total withdrawals', 'Payments out']), money(rng, totalOut, loc)), kv(rng, rng.pick(['Money in', 'Total deposits', 'Payments in']), money(rng, totalIn, loc)), kv(rng, rng.pick(['Closing balance', 'Ending balance', 'Balance carried forward']), money(rng, closing, loc))].join('\n')
      : `${rng.pick(['Balance brought forward', 'Opening balance'])} ${num(opening, loc)}`,
    table(rng, head, tableRows),
    maybe(rng, 0.5, () => `${rng.pick(['Closing balance', 'Balance carried forward', 'Ending balance'])} ${money(rng, closing, loc, 0)}`),
    maybe(rng, 0.5, () => rng.pick([`Your deposits are protected up to ${money(rng, 85000, loc, 0)} by the national deposit guarantee scheme.`, 'Please check this statement carefully and tell us about any entry you do not recognise.', `Overdraft limit: ${money(rng, rng.int(0, 20) * 100, loc, 0)}. Arranged overdraft interest ${rng.float(9, 39).toFixed(1)}% EAR.`, 'Member FDIC. Equal Housing Lender.'])),
  );
}

function creditCard(rng) {
  const loc = rng.pick(['uk', 'us', 'ie', 'au', 'ca']);
  const dt = randomDate(rng);
  const prev = round2(rng.float(0, 4000));
  const paid = round2(prev * rng.pick([1, 1, 0.5, 0.1]));
  const list = Array.from({ length: rng.int(3, 14) }, () => ({ dt: addDays(dt, -rng.int(1, 30)), desc: rng.pick(TXN.en).replace('{co}', 'ONLINE').replace('{p}', 'REF'), amt: round2(rng.float(3, 400)) }));
  const purchases = round2(list.reduce((s, t) => s + t.amt, 0));
  const interest = round2(rng.chance(0.4) ? rng.float(1, 60) : 0);
  const bal = round2(prev - paid + purchases + interest);
  return doc(
    `${rng.pick(BANKS[loc])} ${rng.pick(['Platinum Card', 'Rewards Visa', 'Mastercard', 'Credit Card'])}`,
    rng.pick(['Credit card statement', 'Your card statement', 'STATEMENT', 'Monthly account summary']),
    `${person(rng)}\n${address(rng, loc).join('\n')}`,
    [kv(rng, 'Card number', `**** **** **** ${rng.digits(4)}`), kv(rng, 'Statement date', fmtDate(rng, dt, loc)), kv(rng, 'Credit limit', money(rng, rng.int(10, 150) * 100, loc)), kv(rng, 'Previous balance', money(rng, prev, loc)), kv(rng, 'Payments and credits', money(rng, -paid, loc)), kv(rng, 'Purchases', money(rng, purchases, loc)), interest ? kv(rng, 'Interest charged', money(rng, interest, loc)) : '', kv(rng, 'New balance', money(rng, bal, loc)), kv(rng, 'Minimum payment', money(rng, round2(Math.max(5, bal * 0.03)), loc)), kv(rng, 'Payment due date', fmtDate(rng, addDays(dt, 25), loc))].filter(Boolean).join('\n'),
    table(rng, ['Trans. date', 'Description', 'Amount'], list.map((t) => [fmtDate(rng, t.dt, loc), t.desc, num(t.amt, loc)])),
    maybe(rng, 0.6, () => `Purchase APR ${rng.float(14, 34).toFixed(2)}%. ${rng.pick(['If you only make the minimum payment each month, it will take longer to pay off your balance.', 'Pay your full balance by the due date to avoid interest on purchases.'])}`),
  );
}

function savings(rng) {
  const loc = rng.pick(['uk', 'us', 'ie', 'nl']);
  const start = randomDate(rng);
  const opening = round2(rng.float(500, 80000));
  const rate = rng.float(0.5, 5).toFixed(2);
  const interest = round2((opening * Number(rate)) / 100 / 4);
  const deposits = round2(rng.chance(0.6) ? rng.float(50, 5000) : 0);
  const closing = round2(opening + interest + deposits);
  return doc(
    rng.pick(BANKS[loc]),
    rng.pick(['Savings Account Statement', 'Quarterly statement – Instant Access Saver', 'Fixed-term deposit statement', 'Business Reserve Account']),
    `${rng.pick(['Account holder', 'Customer', 'Name'])}: ${person(rng)}\n${rng.pick(['Account no.', 'Account', 'IBAN'])}: ${loc === 'us' ? rng.digits(10) : iban(rng, ibanCountry(loc))}`,
    `${rng.pick(['Period', 'Statement period'])}: ${fmtDate(rng, start, loc)} – ${fmtDate(rng, addDays(start, 90), loc)}`,
    [kv(rng, 'Opening balance', money(rng, opening, loc)), deposits ? kv(rng, 'Deposits', money(rng, deposits, loc)) : '', kv(rng, `Interest credited (${rate}% AER)`, money(rng, interest, loc)), kv(rng, 'Closing balance', money(rng, closing, loc))].filter(Boolean).join('\n'),
    maybe(rng, 0.5, () => `Interest is calculated daily and paid ${rng.pick(['monthly', 'quarterly', 'on maturity'])}.`),
  );
}

function exported(rng) {
  const loc = rng.pick(['uk', 'us', 'nl', 'ie']);
  const start = randomDate(rng);
  const opening = round2(rng.float(0, 6000));
  const { rows } = txns(rng, 'en', start, 30, opening, loc);
  const sep = rng.pick([',', ';', '\t']);
  return doc(
    maybe(rng, 0.7, () => `${rng.pick(['Account activity', 'Transactions export', 'Transaction history'])} – ${rng.pick(BANKS[loc])}`),
    maybe(rng, 0.7, () => `Account: ${rng.chance(0.5) ? iban(rng, ibanCountry(loc), false) : rng.digits(8)}  From ${fmtDate(rng, start, loc)} to ${fmtDate(rng, addDays(start, 30), loc)}`),
    [['Date', 'Description', 'Amount', 'Balance'].join(sep), ...rows.map((r) => [fmtDate(rng, r.dt, 'us'), r.desc, (r.in || -r.out).toFixed(2), r.bal.toFixed(2)].join(sep))].join('\n'),
  );
}

function foreign(rng) {
  const lang = rng.pick(['de', 'fr', 'es']);
  const start = randomDate(rng);
  const opening = round2(rng.float(-300, 7000));
  const { rows, closing } = txns(rng, lang, start, 30, opening, lang);
  const w = {
    de: { t: ['Kontoauszug', 'KONTOAUSZUG Nr. ' + rng.int(1, 12)], holder: 'Kontoinhaber', period: 'Zeitraum', open: 'Alter Kontostand', close: 'Neuer Kontostand', head: ['Buchungstag', 'Verwendungszweck', 'Betrag'], foot: 'Bitte prüfen Sie die Buchungen. Einwendungen sind innerhalb von sechs Wochen zu erheben.' },
    fr: { t: ['Relevé de compte', 'RELEVÉ DE COMPTE COURANT'], holder: 'Titulaire', period: 'Période', open: 'Ancien solde', close: 'Nouveau solde', head: ['Date', 'Libellé', 'Montant'], foot: 'Vérifiez les opérations portées sur ce relevé et signalez toute anomalie à votre conseiller.' },
    es: { t: ['Extracto de cuenta', 'EXTRACTO BANCARIO'], holder: 'Titular', period: 'Periodo', open: 'Saldo anterior', close: 'Saldo final', head: ['Fecha', 'Concepto', 'Importe'], foot: 'Compruebe los movimientos y comunique cualquier discrepancia a su oficina.' },
  }[lang];
  return doc(
    `${rng.pick(BANKS[lang])}\n${address(rng, lang).join('\n')}`,
    rng.pick(w.t),
    [kv(rng, w.holder, person(rng)), kv(rng, 'IBAN', iban(rng, ibanCountry(lang))), kv(rng, 'BIC', bic(rng)), kv(rng, w.period, `${fmtDate(rng, start, lang)} - ${fmtDate(rng, addDays(start, 30), lang)}`)].join('\n'),
    kv(rng, w.open, money(rng, opening, lang)),
    table(rng, w.head, rows.map((r) => [fmtDate(rng, r.dt, lang), r.desc, num(r.in || -r.out, lang)])),
    kv(rng, w.close, money(rng, closing, lang)),
    maybe(rng, 0.6, w.foot),
  );
}

export function generateBankStatement(rng) {
  return rng.weighted([[9, current], [4, creditCard], [2, savings], [2, exported], [4, foreign]])(rng);
}
