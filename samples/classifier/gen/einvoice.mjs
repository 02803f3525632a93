// Invoices as rendered from e-invoicing systems and accounting packages: German invoices with
// the seller/buyer blocks, tax breakdown and the legal footer (register court, managing
// director, tax numbers, bank details); French invoices with their mandatory mentions (SIRET,
// RCS, late-payment penalties); short English billing statements with "Sold To" blocks and
// line totals. Rent, taxi, transport tickets, service charges, foreign-currency and intra-EU
// deliveries, cost invoices and minimal ones.
import { address, company, person, phone } from './data.mjs';
import { fmtDate, iban, bic, randomDate, addDays, num, vatId, round2 } from './format.mjs';
import { paginate } from './prose.mjs';

const DE_ITEMS = {
  miete: ['Miettage', 'Navigationsgerät', 'Vollkaskoversicherung', 'Kindersitz', 'Zusatzfahrer', 'Kilometerpaket', 'Einwegmiete'],
  taxi: ['Fahrpreis', 'Wartezeit', 'Gepäckzuschlag', 'Anfahrt'],
  oepnv: ['Einzelfahrschein', 'Tageskarte', 'Monatskarte Abo', 'Zuschlag 1. Klasse', 'Fahrradkarte'],
  betrieb: ['Grundsteuer', 'Wasserversorgung', 'Entwässerung', 'Müllbeseitigung', 'Gebäudereinigung', 'Gartenpflege', 'Allgemeinstrom', 'Hauswart', 'Gebäudeversicherung', 'Heizkosten'],
  waren: ['Edelstahlschraube M6', 'Dichtungsring 20 mm', 'Kabelkanal weiß 2 m', 'Steckdosenleiste 5-fach', 'Druckerpapier A4', 'Toner schwarz', 'Schutzhandschuhe Gr. 9', 'Palette Kopierpapier'],
  dienst: ['Beratung gemäß Angebot', 'Programmierung Schnittstelle', 'Wartungspauschale Q3', 'Fahrtkosten', 'Reisekosten pauschal', 'Schulung vor Ort', 'Projektmanagement', 'Lizenzgebühr Software'],
};
const FR_ITEMS = ['Prestation de conseil', 'Développement spécifique', 'Maintenance annuelle', 'Frais de déplacement', 'Huile d\'olive 1 L', 'Confiture artisanale', 'Savon au lait d\'ânesse', 'Formation bureautique', 'Location de matériel', 'Transport et livraison'];
const EN_ITEMS = ['Standards training', 'Consulting hours', 'Software subscription (annual)', 'On-site support', 'Project management', 'Cloud storage 1 TB', 'Implementation services', 'Travel expenses', 'Hardware maintenance', 'Online course licence', 'Design workshop'];

function lineItems(rng, names, n, rate, loc) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const qty = rng.chance(0.5) ? 1 : rng.int(2, 40);
    const unit = round2(rng.float(2, 900));
    out.push({ pos: i + 1, name: rng.pick(names), qty, unit, net: round2(qty * unit), rate: rate ?? rng.pick([19, 19, 7]), loc });
  }
  return out;
}

function germanFooter(rng, seller, loc = 'de') {
  const court = rng.pick(['Amtsgericht Berlin-Charlottenburg', 'Amtsgericht München', 'Amtsgericht Hamburg', 'Amtsgericht Köln', 'Amtsgericht Stuttgart', 'Amtsgericht Frankfurt am Main']);
  const lines = [seller.name, ...seller.addr];
  lines.push(rng.pick([`Geschäftsführer: ${person(rng)}`, `Geschäftsführung: ${person(rng)}, ${person(rng)}`, `Inhaber: ${person(rng)}`]));
  lines.push(`${court} ${rng.pick(['HRB', 'HRA'])} ${rng.digits(5)}`);
  lines.push(`USt-IdNr.: ${vatId(rng, loc)}`);
  if (rng.chance(0.6)) lines.push(`Steuernummer: ${rng.digits(3)}/${rng.digits(3)}/${rng.digits(5)}`);
  lines.push(`Bankverbindung: ${rng.pick(['Sparkasse', 'Volksbank', 'Commerzbank', 'Deutsche Bank', 'Postbank'])}`, `IBAN: ${iban(rng, 'DE')}`, `BIC: ${bic(rng)}`);
  if (rng.chance(0.5)) lines.push(`Tel.: ${phone(rng, 'de')}`, `www.${seller.name.split(' ')[0].toLowerCase().replace(/[^a-z]/g, '')}.de`);
  return rng.chance(0.5) ? lines.join('\n') : lines.join(' · ');
}

function german(rng) {
  const kind = rng.pick(Object.keys(DE_ITEMS));
  const seller = { name: company(rng, 'de'), addr: address(rng, 'de') };
  const buyer = { name: rng.chance(0.7) ? company(rng, 'de') : person(rng), addr: address(rng, 'de') };
  const dt = randomDate(rng);
  const no = rng.pick([`RE-${rng.int(2018, 2025)}-${rng.digits(5)}`, `${rng.digits(10)}/00/M/00/N`, `${rng.digits(6)}`, `R${rng.digits(8)}`, `${rng.int(2018, 2025)}${rng.digits(4)}`]);
  const foreign = kind === 'waren' && rng.chance(0.3);
  const intraEu = !foreign && kind === 'waren' && rng.chance(0.3);
  const rate = kind === 'oepnv' || kind === 'taxi' ? 7 : intraEu ? 0 : kind === 'betrieb' ? rng.pick([19, 0]) : undefined;
  const items = lineItems(rng, DE_ITEMS[kind], rng.int(1, kind === 'betrieb' ? 10 : 6), rate, 'de');
  const net = round2(items.reduce((s, i) => s + i.net, 0));
  const byRate = new Map();
  for (const i of items) byRate.set(i.rate, round2((byRate.get(i.rate) ?? 0) + i.net));
  const tax = round2([...byRate].reduce((s, [r, b]) => s + (b * r) / 100, 0));
  const gross = round2(net + tax);
  const cur = foreign ? rng.pick(['USD', 'CHF', 'GBP']) : 'EUR';
  const title = { miete: 'Mietrechnung', taxi: 'Rechnung Taxifahrt', oepnv: 'Rechnung Fahrausweis', betrieb: 'Betriebskostenabrechnung', waren: rng.pick(['Rechnung', 'RECHNUNG', 'Warenrechnung']), dienst: rng.pick(['Rechnung', 'Kostenrechnung', 'Honorarrechnung']) }[kind];
  const head = [
    rng.chance(0.5) ? `${seller.name} · ${seller.addr.join(' · ')}` : '',
    `${title} ${rng.pick(['Nr.', 'Nummer', 'Nr'])} ${no} ${rng.pick(['vom', 'Datum'])} ${fmtDate(rng, dt, 'de')}`,
  ];
  const meta = [
    `Rechnungsdatum: ${fmtDate(rng, dt, 'de')}`,
    rng.chance(0.6) ? `Leistungsdatum: ${fmtDate(rng, addDays(dt, -rng.int(1, 30)), 'de')}` : `Leistungszeitraum: ${fmtDate(rng, addDays(dt, -30), 'de')} - ${fmtDate(rng, dt, 'de')}`,
    rng.chance(0.5) ? `Kundennummer: ${rng.digits(6)}` : '',
    rng.chance(0.4) ? `Bestellung: ${rng.pick(['B', 'PO-', ''])}${rng.digits(8)}` : '',
    rng.chance(0.3) ? `Ihre Referenz: ${rng.letters(2)}-${rng.digits(4)}` : '',
    `Rechnungswährung: ${cur}`,
  ].filter(Boolean);
  const parties = [`${rng.pick(['Verkäufer', 'Rechnungssteller', 'Lieferant'])}:`, seller.name, ...seller.addr, `USt-IdNr.: ${vatId(rng, 'de')}`, '', `${rng.pick(['Käufer', 'Rechnungsempfänger', 'Kunde', 'Leistungsempfänger'])}:`, buyer.name, ...buyer.addr];
  if (intraEu || foreign) parties.push(`USt-IdNr.: ${vatId(rng, rng.pick(['fr', 'es', 'nl']))}`);
  const tableHead = rng.pick(['Pos\tBeschreibung\tMenge\tEinzelpreis\tUSt.\tBetrag', 'Pos. Artikel Menge Preis netto MwSt Gesamt', 'Position\tBezeichnung\tAnzahl\tNettopreis\tSteuersatz\tNetto']);
  const rows = items.map((i) => [i.pos, i.name, `${i.qty} ${rng.pick(['Stk', 'St.', 'Tag', 'h', 'Std.', 'Pausch.', ''])}`.trim(), num(i.unit, 'de'), `${i.rate} %`, num(i.net, 'de')].join(rng.chance(0.5) ? '\t' : ' '));
  const taxBlock = [rng.pick(['Steueraufschlüsselung:', 'USt.-Aufstellung', 'Umsatzsteuer']), ...[...byRate].map(([r, b]) => `${r === 0 ? 'steuerfrei' : 'Umsatzsteuer'} ${r} %\t${num(b, 'de')}\t${num(round2((b * r) / 100), 'de')}`)];
  const totals = [`${rng.pick(['Summe netto', 'Nettobetrag', 'Rechnungssumme ohne USt.', 'Positionssumme'])}\t${num(net, 'de')} ${cur}`, `${rng.pick(['zzgl. USt.', 'Steuerbetrag', 'MwSt.', 'Umsatzsteuer gesamt'])}\t${num(tax, 'de')} ${cur}`, `${rng.pick(['Gesamtbetrag', 'Bruttosumme', 'Rechnungsbetrag', 'Zahlbetrag', 'Summe brutto'])}\t${num(gross, 'de')} ${cur}`];
  if (foreign) totals.push(`Umrechnungskurs: 1 EUR = ${rng.float(0.8, 1.3).toFixed(4)} ${cur}`, `Steuerbetrag in EUR: ${num(round2(tax * 0.9), 'de')}`);
  const notes = [];
  if (intraEu) notes.push(rng.pick(['Steuerfreie innergemeinschaftliche Lieferung gemäß § 4 Nr. 1b UStG.', 'Innergemeinschaftliche Lieferung, steuerfrei. Die Steuerschuld geht auf den Leistungsempfänger über (Reverse Charge).']));
  if (kind === 'taxi') notes.push(`Fahrt von ${rng.pick(['Hauptbahnhof', 'Flughafen', 'Messe', 'Hotel am Markt'])} nach ${rng.pick(['Flughafen', 'Innenstadt', 'Bürogebäude Nord', 'Klinikum'])}, ${rng.int(3, 60)} km, Fahrzeug ${rng.letters(1)}-${rng.letters(2)} ${rng.digits(3)}`);
  if (kind === 'miete') notes.push(`Übergabe: ${fmtDate(rng, addDays(dt, -3), 'de')} km-Stand ${rng.digits(5)}`, `Rückgabe: ${fmtDate(rng, dt, 'de')} km-Stand ${rng.digits(5)}`, `Kennzeichen: ${rng.letters(1)}-${rng.letters(2)} ${rng.digits(4)}`);
  if (kind === 'betrieb') notes.push(`Abrechnungszeitraum 01.01.${dt.y - 1} - 31.12.${dt.y - 1}`, `Ihr Anteil nach Wohnfläche: ${rng.int(40, 140)} m² von ${rng.int(400, 2000)} m²`, `Geleistete Vorauszahlungen: ${num(round2(gross * rng.float(0.7, 1.2)), 'de')} EUR`);
  notes.push(rng.pick([`Zahlbar innerhalb von ${rng.pick([7, 14, 30])} Tagen ohne Abzug.`, `Zahlungsziel: ${fmtDate(rng, addDays(dt, 14), 'de')}. Bei Zahlung innerhalb von 8 Tagen ${rng.int(2, 3)} % Skonto.`, 'Der Rechnungsbetrag wird von Ihrer Kreditkarte abgebucht.', 'Der Betrag wird per SEPA-Lastschrift eingezogen.', 'Bitte überweisen Sie den Betrag unter Angabe der Rechnungsnummer.']));
  if (rng.chance(0.4)) notes.push(rng.pick(['Es gelten unsere Allgemeinen Geschäftsbedingungen.', 'Bitte prüfen Sie die Rechnung sofort nach Erhalt.', 'Vielen Dank für Ihren Auftrag!', 'Leistung wurde vollständig erbracht.']));
  const body = [head.filter(Boolean).join('\n'), meta.join('\n'), parties.join('\n'), [tableHead, ...rows].join('\n'), taxBlock.join('\n'), totals.join('\n'), notes.join('\n'), germanFooter(rng, seller)].join('\n\n');
  return rng.chance(0.4) ? paginate(rng, body, rng.int(30, 50), (p, n) => ({ bottom: `Seite ${p} von ${n}` })) : body;
}

function french(rng) {
  const seller = company(rng, 'fr');
  const addr = address(rng, 'fr');
  const buyer = [rng.chance(0.6) ? company(rng, 'fr') : person(rng), ...address(rng, 'fr')];
  const dt = randomDate(rng);
  const items = lineItems(rng, FR_ITEMS, rng.int(1, 7), rng.pick([20, 20, 10, 5.5]), 'fr');
  const ht = round2(items.reduce((s, i) => s + i.net, 0));
  const rate = items[0].rate;
  const tva = round2((ht * rate) / 100);
  const micro = rng.chance(0.15);
  const siren = `${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)}`;
  const legal = [`${seller} - ${addr.join(' - ')}`, `SIRET : ${siren.replace(/ /g, '')}${rng.digits(5)} - APE : ${rng.digits(4)}${rng.letters(1)}${micro ? '' : ` - TVA : ${vatId(rng, 'fr')}`}`, micro ? '' : `${rng.pick(['SARL', 'SAS', 'SA'])} au capital de ${num(rng.pick([1000, 5000, 10000, 50000, 120000]), 'fr')} € - RCS ${rng.pick(['Paris', 'Lyon', 'Nantes', 'Toulouse', 'Lille'])} B ${siren}`].filter(Boolean);
  const lines = [
    legal.join('\n'),
    `${rng.pick(['Facture', 'FACTURE', 'Facture N°', 'FACTURE N°'])} ${rng.pick(['FA-', 'F', ''])}${dt.y}-${rng.digits(4)}`,
    `Client :\n${buyer.join('\n')}`,
    [`Date de facture : ${fmtDate(rng, dt, 'fr')}`, `Date d'échéance : ${fmtDate(rng, addDays(dt, 30), 'fr')}`, rng.chance(0.5) ? `Votre référence : ${rng.pick(['BC', 'PO', 'CMD'])}${rng.digits(4)}` : '', rng.chance(0.5) ? `N° TVA client : ${vatId(rng, 'fr')}` : '', `Conditions de paiement : ${rng.pick(['30 jours fin de mois', 'à réception', '45 jours', '30 % d\'acompte, solde à 30 jours'])}`].filter(Boolean).join('\n'),
    [rng.pick(['Désignation\tQté\tPU HT\tMontant HT', 'Description Quantité Prix unitaire Total HT', 'Réf.\tDésignation\tQuantité\tP.U. HT\tTVA\tTotal HT']), ...items.map((i) => `${i.name}\t${i.qty}\t${num(i.unit, 'fr')} €\t${num(i.net, 'fr')} €`)].join('\n'),
    [`Total HT\t${num(ht, 'fr')} €`, micro ? 'TVA non applicable, art. 293 B du CGI' : `TVA ${num(rate, 'fr').replace(/,00$/, '')} %\t${num(tva, 'fr')} €`, `${rng.pick(['Total TTC', 'Net à payer', 'Montant TTC'])}\t${num(micro ? ht : ht + tva, 'fr')} €`].join('\n'),
    rng.pick(['Règlement par virement bancaire :', 'Facture à régler par virement sur le compte suivant :', 'Modalités de paiement : virement ou chèque']) + `\nIBAN : ${iban(rng, 'FR')} - BIC : ${bic(rng)}`,
    rng.sample([
      'En cas de retard de paiement, des pénalités égales à trois fois le taux d\'intérêt légal seront appliquées.',
      'Une indemnité forfaitaire de 40 € pour frais de recouvrement sera due en cas de retard (art. L441-10 du Code de commerce).',
      'Pas d\'escompte pour paiement anticipé.',
      'Dispensé d\'immatriculation au registre du commerce et des sociétés (RCS) et au répertoire des métiers (RM).',
      'Conditions générales de vente disponibles sur demande.',
      'Merci de rappeler le numéro de facture lors de votre règlement.',
    ], rng.int(1, 4)).join('\n'),
    rng.chance(0.5) ? 'Page 1 / 1' : '',
  ];
  return lines.filter(Boolean).join('\n\n');
}

function statement(rng) {
  const seller = company(rng, rng.pick(['us', 'us', 'uk', 'ca', 'au']));
  const loc = 'us';
  const dt = randomDate(rng);
  const items = lineItems(rng, EN_ITEMS, rng.int(1, 5), 0, loc);
  const sub = round2(items.reduce((s, i) => s + i.net, 0));
  const rate = rng.pick([0, 6, 7.25, 8, 9, 10]);
  const tax = round2((sub * rate) / 100);
  const discount = rng.chance(0.4) ? rng.pick([5, 10, 15]) : 0;
  const title = rng.pick(['Invoice', 'INVOICE', 'Statement', 'Billing Statement', 'Project Statement', 'Statement of Charges', 'Service Invoice', 'Tax Invoice']);
  const top = rng.chance(0.5) ? `${seller}\t${title}` : `${title}\n${seller}`;
  const who = rng.pick(['Sold To', 'Bill To', 'Billed To', 'Customer']);
  const rows = items.map((i) => [fmtDate(rng, addDays(dt, -rng.int(1, 40)), loc), i.name, `$${num(i.unit, loc)}`, discount ? `${discount}%` : '', `$${num(round2(i.net * (1 - discount / 100)), loc)}`].filter(Boolean).join('\t'));
  const total = round2(sub * (1 - discount / 100) + tax);
  return [
    top,
    [`Date: ${fmtDate(rng, dt, loc)}`, `${rng.pick(['Invoice', 'Statement', 'Reference', 'Account'])} ${rng.pick(['#', 'No.:', 'Number:', '# No.:'])} ${rng.digits(rng.int(4, 8))}`, rng.chance(0.5) ? `${rng.pick(['Customer ID', 'ID#', 'Account No', 'Client ID'])}: ${rng.digits(7)}` : ''].filter(Boolean).join('\n'),
    `${who} ${rng.chance(0.5) ? person(rng) : company(rng, 'us')}\n${address(rng, 'us').join('\n')}`,
    rng.chance(0.3) ? `${rng.pick(['Delivery', 'Format'])}: ${rng.pick(['On-site', 'Online (live)', 'On demand', 'Remote'])}` : '',
    [`${rng.pick(['Service Date', 'Date', 'Training Date'])}\tDescription\t${rng.pick(['Price', 'Rate', 'Unit Price'])}${discount ? '\tDiscount' : ''}\t${rng.pick(['Line Total', 'Amount', 'Total'])}`, ...rows].join('\n'),
    [`Subtotal\t$${num(round2(sub * (1 - discount / 100)), loc)}`, rate ? `${rng.pick(['Sales Tax', 'Tax', 'GST', 'VAT'])}\t${rng.chance(0.5) ? `${rate}%` : `$${num(tax, loc)}`}` : '', `${rng.pick(['Total', 'Total Due', 'Amount Due', 'Balance Due'])}\t$${num(total, loc)}`].filter(Boolean).join('\n'),
    rng.sample([rng.pick(['Due upon receipt.', 'Payment due on receipt of this invoice.', `Payment is due within ${rng.pick([15, 30, 45])} days.`, `Terms: Net ${rng.pick([15, 30])}`]), 'Thank you for your business!', 'Please make checks payable to ' + seller + '.', 'Questions about this bill? Contact billing@' + seller.split(' ')[0].toLowerCase() + '.com'], rng.int(0, 3)).join('\n'),
  ].filter(Boolean).join('\n\n');
}

function creditNote(rng) {
  const loc = rng.pick(['de', 'fr', 'uk', 'us']);
  const dt = randomDate(rng);
  const w = { de: ['Gutschrift', 'Gutschriftsnummer', 'zur Rechnung', 'Gutschriftsbetrag', 'Der Betrag wird Ihrem Konto gutgeschrieben.'], fr: ['Avoir', 'N° d\'avoir', 'sur facture', 'Montant de l\'avoir TTC', 'Ce montant sera déduit de votre prochaine facture.'], uk: ['Credit Note', 'Credit note no.', 'against invoice', 'Total credit', 'This amount will be refunded to your account.'], us: ['Credit Memo', 'Credit memo #', 'applied to invoice', 'Total credit', 'This credit will be applied to your next invoice.'] }[loc];
  const items = lineItems(rng, loc === 'de' ? DE_ITEMS.waren : loc === 'fr' ? FR_ITEMS : EN_ITEMS, rng.int(1, 3), loc === 'de' ? 19 : 20, loc);
  const net = round2(items.reduce((s, i) => s + i.net, 0));
  return [
    `${company(rng, loc)}\n${address(rng, loc).join('\n')}\n${loc === 'de' ? 'USt-IdNr.' : 'VAT'}: ${vatId(rng, loc)}`,
    `${w[0]}`,
    `${w[1]}: ${rng.letters(2)}-${rng.digits(5)}\n${fmtDate(rng, dt, loc)}\n${w[2]} ${rng.digits(6)}`,
    `${company(rng, loc)}\n${address(rng, loc).join('\n')}`,
    items.map((i) => `${i.name}\t${i.qty}\t-${num(i.net, loc)}`).join('\n'),
    `${w[3]}: -${num(round2(net * 1.2), loc)}`,
    w[4],
  ].join('\n\n');
}

function minimal(rng) {
  const loc = rng.pick(['de', 'de', 'fr', 'uk', 'us']);
  const dt = randomDate(rng);
  const amount = round2(rng.float(20, 3000));
  const words = { de: ['Rechnung', 'Rechnungsnummer', 'Rechnungsdatum', 'Verkäufer', 'Käufer', 'Gesamtbetrag', 'Fälliger Betrag'], fr: ['Facture', 'Numéro de facture', 'Date', 'Vendeur', 'Acheteur', 'Total TTC', 'Montant dû'], uk: ['Invoice', 'Invoice number', 'Invoice date', 'Seller', 'Buyer', 'Total incl. VAT', 'Amount due'], us: ['Invoice', 'Invoice number', 'Invoice date', 'Seller', 'Buyer', 'Total', 'Amount due'] }[loc];
  return [
    words[0],
    `${words[1]}: ${rng.letters(2)}${rng.digits(6)}`,
    `${words[2]}: ${fmtDate(rng, dt, loc)}`,
    `${words[3]}: ${company(rng, loc)}, ${address(rng, loc).join(', ')}`,
    `${loc === 'de' ? 'USt-IdNr.' : 'VAT ID'}: ${vatId(rng, loc)}`,
    `${words[4]}: ${company(rng, loc)}`,
    `${words[5]}: ${num(amount, loc)} ${loc === 'us' ? 'USD' : loc === 'uk' ? 'GBP' : 'EUR'}`,
    `${words[6]}: ${num(amount, loc)}`,
  ].join('\n');
}

export function generateEInvoice(rng) {
  const kind = rng.weighted([[5, german], [2, french], [3, statement], [1, minimal], [1, creditNote]]);
  return kind(rng);
}
