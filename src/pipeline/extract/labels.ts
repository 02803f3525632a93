/**
 * Field labels in English, German, French, Spanish, Italian and Dutch, with weights: 1 for
 * unmistakable wording, lower for generic words ("Total", "Datum") that also appear in table
 * headers. Sources are regex fragments matched case-insensitively on whole words.
 */
import { labels } from './label-scan.js';

export const INVOICE_NUMBER = labels([
  ['invoice\\s*(?:no\\.?|number|num\\.?|nr\\.?|#|id)', 1],
  ['inv\\.?\\s*(?:no\\.?|#|number)|bill\\s*(?:no\\.?|#|number)', 0.95],
  // Compounds too: Handelsrechnung, Mietrechnung, Gutschrift Nr.
  ['\\p{L}*rechnungs?[\\s-]*(?:nummer|nr\\.?|no\\.?)|rechnung\\s*#|gutschrift\\s*(?:nr\\.?|nummer)', 1],
  ['(?:n[°ºo]\\.?|num[ée]ro)\\s*(?:de\\s+)?(?:la\\s+)?facture|facture\\s*(?:n[°ºo]\\.?|num[ée]ro|#)', 1],
  ['factuur\\s*(?:nummer|nr\\.?)|(?:n[úu]mero|n[°º])\\s*(?:de\\s+)?factura|factura\\s*(?:n[°ºo]\\.?|#|n[úu]m\\.?)', 1],
  ['(?:numero|n\\.)\\s*fattura|fattura\\s*(?:n[°ºo.]+|numero)', 1],
  // Polish, Dutch short forms, Swedish/Danish/Norwegian, Portuguese.
  ['numer\\s+faktury|faktura\\s*(?:vat\\s*)?(?:nr\\.?|numer|no\\.?)|factuurnr\\.?|fakturanr\\.?|fakturanummer', 1],
  ['(?:n[úu]mero\\s+(?:da\\s+)?fatura)|fatura\\s*(?:n[°ºo.]+)|belegn(?:ummer|r\\.?)', 0.95],
]);

/** Bare document titles followed directly by a number ("INVOICE 2024-0042", "Rechnung 4711"). */
export const INVOICE_TITLE = labels([
  ['(?:tax\\s+)?invoice|rechnung|facture|factuur|factura|fattura|faktura(?:\\s+vat)?', 0.7],
]);

export const ISSUE_DATE = labels([
  [
    'invoice\\s+date|date\\s+of\\s+(?:the\\s+)?invoice|billing\\s+date|issue\\s+date|date\\s+of\\s+issue|date\\s+issued|issued\\s+on',
    1,
  ],
  ['rechnungsdatum|ausstellungsdatum|belegdatum|rechnungs-datum', 1],
  ["date\\s+(?:de\\s+)?(?:la\\s+)?facture|date\\s+d['’][ée]mission|[ée]mise?\\s+le|factur[ée]e?\\s+le", 1],
  ['fecha\\s+(?:de\\s+)?(?:la\\s+)?factura|fecha\\s+de\\s+emisi[óo]n|data\\s+(?:della\\s+)?fattura|factuurdatum', 1],
  [
    '(?<!(?:due|delivery|order|birth|start|end|expiry|expiration|payment|value|booking|shipping|ship|effective|statement)\\s)' +
      "(?:date|datum|fecha|data)(?!\\s+(?:d['’]|de\\s+)(?:[ée]ch[ée]ance|expiration|livraison|commande|effet|valeur|naissance|vencimiento|entrega))",
    0.7,
  ],
]);

export const DUE_DATE = labels([
  ['due\\s+date|date\\s+due|payment\\s+due(?:\\s+date)?|due\\s+(?:by|on)|pay(?:able)?\\s+by|please\\s+pay\\s+by', 1],
  [
    'f[äa]llig(?:keitsdatum|\\s+am|\\s+bis|\\s+zum)?|zahlbar\\s+(?:bis|sp[äa]testens(?:\\s+(?:bis|am))?)|zahlungstermin',
    1,
  ],
  [
    "date\\s+d['’][ée]ch[ée]ance|[ée]ch[ée]ance|[àa]\\s+payer\\s+(?:avant|au\\s+plus\\s+tard)\\s+le|payable\\s+avant\\s+le",
    1,
  ],
  ['fecha\\s+de\\s+vencimiento|vencimiento|data\\s+di\\s+scadenza|scadenza|vervaldatum', 1],
]);

export const TOTAL = labels([
  [
    'grand\\s+total|total\\s+amount(?:\\s+due)?|invoice\\s+total|total\\s+(?:incl(?:uding|\\.)?|inc\\.?)\\s*(?:vat|tax|gst)|total\\s+due|total\\s+payable',
    1,
  ],
  [
    'gesamtbetrag|rechnungsbetrag|endbetrag|gesamtsumme|bruttobetrag|summe\\s+brutto|gesamt\\s+brutto|zu\\s+zahlen(?:der\\s+betrag)?|zahlbetrag|rechnungssumme',
    1,
  ],
  [
    'montant\\s+(?:total\\s+)?ttc|total\\s+ttc|net\\s+[àa]\\s+payer|montant\\s+total|total\\s+[àa]\\s+payer|reste\\s+[àa]\\s+payer',
    1,
  ],
  ['importe\\s+total|total\\s+a\\s+pagar|totale\\s+(?:fattura|documento|da\\s+pagare)|totaalbedrag|te\\s+betalen', 1],
  ['amount\\s+due|balance\\s+due|amount\\s+payable|montant\\s+d[ûu]', 0.95],
  ['total|summe|gesamt|totale|totaal|brutto', 0.8],
]);

export const SUBTOTAL = labels([
  [
    'sub\\s*-?\\s*total|net\\s+(?:amount|total)|total\\s+net|total\\s+(?:excl(?:uding|\\.)?|ex\\.?|before)\\s*(?:vat|tax|gst)?|amount\\s+before\\s+tax',
    1,
  ],
  ['zwischensumme|nettobetrag|summe\\s+netto|gesamt\\s+netto|nettosumme|warenwert', 1],
  ['total\\s+ht|montant\\s+(?:total\\s+)?ht|sous[\\s-]*total|total\\s+hors\\s+taxes?', 1],
  ['base\\s+imponible|imponibile|subtotaal|totaal\\s+excl', 1],
  ['netto|net', 0.7],
]);

export const TAX = labels([
  ['(?:total\\s+)?(?:vat|sales\\s+tax|tax|gst|hst)(?:\\s+amount|\\s+total)?', 1],
  ['mwst\\.?|mehrwertsteuer|umsatzsteuer|ust\\.?', 1],
  ['(?:montant\\s+(?:de\\s+la\\s+)?)?tva|total\\s+tva', 1],
  ['iva|btw|cuota\\s+iva', 1],
]);

export const PO_NUMBER = labels([
  [
    'purchase\\s+order\\s*(?:no\\.?|number|nr\\.?|#)?|p\\.?\\s?o\\.?\\s*(?:no\\.?|number|#)|order\\s*(?:no\\.?|number|nr\\.?|#)',
    1,
  ],
  ['bestell(?:ung)?[\\s-]*(?:nummer|nr\\.?)|auftrags[\\s-]*(?:nummer|nr\\.?)|ihre\\s+bestellung', 1],
  ['(?:num[ée]ro|n[°º])\\s*(?:de\\s+)?commande|bon\\s+de\\s+commande\\s*(?:n[°º]\\.?)?|commande\\s*n[°º]', 1],
]);

export const ORDER_DATE = labels([
  [
    'order\\s+date|date\\s+of\\s+order|po\\s+date|bestelldatum|auftragsdatum|date\\s+de\\s+(?:la\\s+)?commande|fecha\\s+(?:del\\s+)?pedido',
    1,
  ],
]);

export const DELIVERY_DATE = labels([
  [
    'delivery\\s+date|ship(?:ping)?\\s+date|deliver\\s+by|lieferdatum|liefertermin|leistungsdatum|date\\s+de\\s+livraison|livraison\\s+le',
    1,
  ],
]);

// Generic words count as labels only with a colon or alone on their line ("Bill to").
const LABEL_END = '(?=\\s*(?::|$))';

export const VENDOR = labels([
  [
    `(?:from|vendor|seller|supplier|sold\\s+by|issued\\s+by|lieferant|verk[äa]ufer|rechnungssteller|fournisseur|[ée]metteur|vendeur|proveedor|fornitore)${LABEL_END}`,
    1,
  ],
]);

export const CUSTOMER = labels([
  [
    `(?:bill(?:ed)?\\s+to|invoice\\s+to|sold\\s+to|ship\\s+to|customer|client|buyer|recipient|purchaser)${LABEL_END}`,
    1,
  ],
  [`(?:rechnungsempf[äa]nger|rechnungsadresse|kunde|auftraggeber|empf[äa]nger|besteller)${LABEL_END}`, 1],
  [`(?:factur[ée]\\s+[àa]|destinataire|acheteur|adresse\\s+de\\s+facturation)${LABEL_END}`, 1],
  [`(?:cliente|facturar\\s+a|klant)${LABEL_END}`, 1],
]);

export const PHONE = labels([
  ['tel\\.?|telephone|phone|mobile|cell|telefon|handy|t[ée]l[ée]phone|t[ée]l\\.?|portable|tel[ée]fono', 1],
]);

export const NAME = labels([[`(?:(?:full\\s+)?name|nom|vor-?\\s*und\\s+nachname)${LABEL_END}`, 1]]);

export const SUBJECT = labels([[`(?:subject|re|betreff|betr\\.|objet|asunto|oggetto)${LABEL_END}`, 1]]);

export const RECEIPT_NUMBER = labels([
  [
    'receipt\\s*(?:no\\.?|number|#)|transaction\\s*(?:no\\.?|id|#)|bon[\\s-]*nr\\.?|beleg[\\s-]*(?:nr\\.?|nummer)|ticket\\s*(?:n[°ºo]\\.?|#)|re[çc]u\\s*n[°º]',
    1,
  ],
]);

export const OPENING_BALANCE = labels([
  [
    'opening\\s+balance|previous\\s+balance|balance\\s+brought\\s+forward|starting\\s+balance|beginning\\s+balance|balance\\s+forward',
    1,
  ],
  [
    'anfangssaldo|alter\\s+(?:kontostand|saldo)|saldo\\s+(?:alt|vortrag)|kontostand\\s+(?:alt|am\\s+anfang)|saldovortrag',
    1,
  ],
  ['solde\\s+(?:initial|pr[ée]c[ée]dent|d[ée]but|de\\s+d[ée]part)|ancien\\s+solde|solde\\s+au\\s+d[ée]but', 1],
]);

export const CLOSING_BALANCE = labels([
  ['closing\\s+balance|new\\s+balance|ending\\s+balance|final\\s+balance|balance\\s+carried\\s+forward', 1],
  ['endsaldo|neuer\\s+(?:kontostand|saldo)|saldo\\s+neu|kontostand\\s+neu', 1],
  ['solde\\s+(?:final|de\\s+fin|au\\s+\\d)|nouveau\\s+solde|solde\\s+cr[ée]diteur\\s+final', 1],
]);

export const STATEMENT_PERIOD = labels([
  [
    'statement\\s+period|for\\s+the\\s+period|period|billing\\s+period|abrechnungszeitraum|auszugszeitraum|zeitraum|kontoauszug\\s+vom|p[ée]riode(?:\\s+du)?|relev[ée]\\s+du',
    1,
  ],
]);

export const EFFECTIVE_DATE = labels([
  [
    'effective\\s+(?:date|as\\s+of|from|on)|with\\s+effect\\s+from|commencement\\s+date|commencing\\s+(?:on|from)|start\\s+date',
    1,
  ],
  // Signing dates: the effective date when nothing more specific is given.
  ['entered\\s+into\\s+(?:on|as\\s+of)|made\\s+(?:on|as\\s+of)|dated|signed\\s+on|geschlossen\\s+am|fait\\s+le', 0.8],
  ['vertragsbeginn|g[üu]ltig\\s+ab|mit\\s+wirkung\\s+(?:zum|vom|ab)|beginnt\\s+am|inkrafttreten', 1],
  [
    "prend\\s+effet\\s+(?:le|au)|date\\s+d['’]effet|en\\s+vigueur\\s+(?:le|au|[àa]\\s+compter\\s+du)|[àa]\\s+compter\\s+du|date\\s+de\\s+d[ée]but",
    1,
  ],
]);

export const PARTY_ROLES = labels([
  [
    `(?:party\\s+[ab12]|landlord|tenant|lessor|lessee|employer|employee|contractor|licensor|licensee|service\\s+provider|buyer|seller|client|supplier)${LABEL_END}`,
    1,
  ],
  [
    `(?:auftraggeber|auftragnehmer|vermieter|mieter|arbeitgeber|arbeitnehmer|k[äa]ufer|verk[äa]ufer|lizenzgeber|lizenznehmer)${LABEL_END}`,
    1,
  ],
  [`(?:bailleur|preneur|locataire|employeur|salari[ée]|prestataire|le\\s+client|acheteur|vendeur)${LABEL_END}`, 1],
]);

/** Words that make a "Total" line something other than the grand total. */
export const NOT_GRAND_TOTAL =
  /sub\s*-?\s*total|zwischensumme|sous[\s-]*total|(?<![\p{L}])net(?:to)?(?![\p{L}])(?!\s*[àa]\s*payer)|nettobetrag|excl|exkl|zzgl|hors\s+tax|(?<![\p{L}])ht(?![\p{L}])|before\s+tax|ohne\s+mwst|imponibile|base\s+imponible/iu;
export const TAX_WORD = /(?<![\p{L}])(?:vat|tax|gst|hst|mwst|ust|umsatzsteuer|mehrwertsteuer|tva|iva|btw)(?![\p{L}])/iu;
export const INCLUDES_TAX = /incl|inkl|including|ttc|brutto|gross|after\s+tax/iu;
export const TOTAL_WORD = /total|gesamt|summe|betrag|amount|montant|importe|totaal|brutto|ttc/iu;
export const QUANTITY_WORD =
  /^(?:items?|qty|quantity|pieces|pcs|hours|hrs|stunden|menge|anzahl|artikel|positionen|pages|weight|gewicht|stk|units|articles)(?![\p{L}])/iu;
/** Tax identifiers ("VAT No", "USt-IdNr", "N° TVA") are not tax amounts. */
export const TAX_ID =
  /(?<![\p{L}])(?:id|no\.?|nr\.?|number|nummer|reg(?:istration)?|identification|intracom(?:munautaire)?|siret|siren|idnr|code)(?![\p{L}])|ust-?id|steuer-?nr|steuernummer|n[°º]\s*(?:de\s+)?tva|num[ée]ro\s+(?:de\s+)?tva/iu;
