/**
 * Keyword/regex rules that add evidence (logit offsets) for a document type.
 *
 * Rules never decide on their own: their weights are added to the model's logits, and the model
 * is trained with those offsets in place, so it learns how far to trust each rule (a letter that
 * mentions "invoice no." still ends up a letter). Patterns run on accent-folded lower-case text.
 */
import { normalizeText } from './tokenize.js';

/** One rule: fires when every `all` pattern matches and at least `minAny` of `any` match. */
export interface ClassificationRule {
  id: string;
  type: string;
  /** Logit offset added to `type` when the rule fires (before temperature). */
  weight: number;
  all?: RegExp[];
  any?: RegExp[];
  /** How many `any` patterns must match. Default 1 when `any` is given. */
  minAny?: number;
}

export interface FiredRule {
  id: string;
  type: string;
  weight: number;
}

export interface RuleEvidence {
  /** Offset per type, aligned with the `types` array passed in. */
  offsets: number[];
  fired: FiredRule[];
}

/** Bump when DEFAULT_RULES change: models record the rules version they were trained with. */
export const RULES_VERSION = 'rules-3';

const IBAN = /\b[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){2,7}/;
const MASKED_CARD = /(?:\*{4}|x{4})[\s*x]*\d{4}\b/;

export const DEFAULT_RULES: readonly ClassificationRule[] = [
  {
    id: 'invoice.number',
    type: 'invoice',
    weight: 1,
    any: [
      /\b(?:invoice|inv|rechnung|facture|factura|factuur|faktura|fattura)\s*(?:no\b|nr\b|number|num|#|n°|no\.)/,
      /rechnungs-?(?:nummer|nr)|numero de facture|n° facture|numero de factura|nº de factura/,
      /factuurnummer|factuur ?nr|numer faktury|faktura (?:vat )?nr|numero (?:di )?fattura|fattura n\.?\b/,
    ],
  },
  // Invoice titles of the other languages templates are written for (nl, pl, it; au/nz "tax invoice").
  {
    id: 'invoice.title-intl',
    type: 'invoice',
    weight: 0.8,
    any: [/\b(?:factuur|faktura(?: vat)?|fattura(?: elettronica)?|tax invoice|facture n|rechnung nr)\b/],
  },
  // A seller's tax id next to an amount to pay: the shape of an invoice in most of Europe and Australia.
  {
    id: 'invoice.tax-id-total',
    type: 'invoice',
    weight: 0.6,
    all: [
      /\b(?:abn|nip|partita iva|p\.? ?iva|btw(?:-?nr| ?nummer)?|ust-?id(?:nr)?|mwst-?nr|uid|n° tva|tva intracom\w*|cif|nif|vat (?:no|reg|number))\b/,
    ],
    any: [
      /\b(?:te betalen|totaal|razem|do zap[lł]aty|nale[zż]no[sś][cć]|totale (?:documento|fattura|da pagare)|importe total|total a pagar|montant ttc|gesamtbetrag|zu zahlen|amount due|total due)\b/,
    ],
  },
  {
    id: 'invoice.due',
    type: 'invoice',
    weight: 1,
    all: [/\b(?:invoice|rechnung|facture|factura|bill)\b/],
    any: [
      /\b(?:amount|balance|total) due\b|\bdue date\b|\bpayment due\b|\bzahlbar\b|\becheance\b|\bvencimiento\b|\bnet \d+\b/,
    ],
  },
  {
    id: 'invoice.tax-totals',
    type: 'invoice',
    weight: 1,
    any: [
      /total ttc|net a payer|gesamtbetrag|rechnungsbetrag|base imponible|total factura|zzgl\.? \d+ ?% mwst/,
      /totaal (?:te betalen|incl\.? btw)|btw-?bedrag|nale[zż]no[sś][cć] og[oó][lł]em|razem do zap[lł]aty|kwota vat|imponibile|totale (?:documento|fattura)|inkl\.? mwst|total (?:incl\.?|including) gst/,
    ],
  },
  // Who is billed: a block naming the customer. Till slips do not address anyone.
  {
    id: 'invoice.addressee',
    type: 'invoice',
    weight: 0.8,
    any: [
      /^\W*(?:sold|bill(?:ed)?|invoice(?:d)?) to\b/m,
      /\b(?:rechnungsempfanger|leistungsempfanger)\b/,
      /\b(?:facture a|adresse de facturation|facturar a)\b/,
    ],
  },
  {
    id: 'receipt.change',
    type: 'receipt',
    weight: 1,
    any: [/\b(?:change|ruckgeld|rendu|cambio)\s*:?\s*[$£€]?\s?\d+[.,]\d{2}/],
  },
  {
    id: 'receipt.card-approval',
    type: 'receipt',
    weight: 1,
    all: [MASKED_CARD],
    any: [/\bauth(?:ori[sz]ation)?(?: code)?\b|\bapproved\b|\baid a0{4}/],
  },
  {
    id: 'receipt.thanks',
    type: 'receipt',
    weight: 1,
    any: [
      /thank you for (?:shopping|your purchase|dining|visiting)|vielen dank fur ihren einkauf|merci de votre visite|gracias por su compra|please come again/,
    ],
  },
  {
    id: 'receipt.word',
    type: 'receipt',
    weight: 0.6,
    any: [
      /\b(?:receipt|kassenbon|kassenbeleg|quittung|ticket de caisse|ticket de compra|recibo|kassabon|kassaticket|paragon fiskalny|scontrino|ricevuta|tax receipt)\b/,
    ],
  },
  {
    id: 'purchase_order.title',
    type: 'purchase_order',
    weight: 1,
    any: [/\bpurchase order\b|\bbestellung\b|bon de commande|orden de compra|\bcall-off order\b/],
    all: [
      /\b(?:ship[- ]to|deliver(?:y)? (?:to|address|date)|required by|need by|deliver by|vendor|supplier|lieferanschrift|liefertermin|adresse de livraison|direccion de entrega)\b/,
    ],
  },
  {
    id: 'purchase_order.number',
    type: 'purchase_order',
    weight: 0.6,
    any: [
      /\b(?:p\.?\s?o\.?|purchase order|order)\s*(?:no\b|number|#|nr\b|no\.)|\bbestellnummer\b|n° de commande|nº de pedido/,
    ],
  },
  {
    id: 'purchase_order.authorised',
    type: 'purchase_order',
    weight: 0.8,
    all: [
      /\b(?:authori[sz]ed by|approved by|authori[sz]ed signature|requisitioner|purchasing)\b/,
      /\b(?:ship[- ]to|deliver to|vendor|supplier)\b/,
    ],
  },
  {
    id: 'contract.parties',
    type: 'contract',
    weight: 1,
    any: [/\bthis (?:agreement|contract|amendment|addendum|nda)\b|\bhereinafter\b|\bby and between\b|\bthe parties\b/],
  },
  {
    id: 'contract.clauses',
    type: 'contract',
    weight: 1,
    minAny: 2,
    any: [
      /governing law/,
      /in witness whereof/,
      /entire agreement/,
      /force majeure/,
      /\btermination\b/,
      /confidential information/,
      /limitation of liability/,
      /\bindemnif/,
    ],
  },
  {
    id: 'contract.lease',
    type: 'contract',
    weight: 0.8,
    all: [/\b(?:landlord|lessor)\b/, /\b(?:tenant|lessee)\b/, /\b(?:deposit|premises|term)\b/],
  },
  {
    id: 'resume.title',
    type: 'resume',
    weight: 0.8,
    any: [/\bcurriculum vitae\b|\bresume\b|\blebenslauf\b|\bcurriculum\b/],
  },
  {
    id: 'resume.sections',
    type: 'resume',
    weight: 1.2,
    minAny: 2,
    any: [
      /\b(?:work|professional) experience\b|employment history|career history|berufserfahrung|experience professionnelle|experiencia laboral/,
      /^\W*(?:education|ausbildung|formation|formacion academica)\b/m,
      /^\W*(?:key |technical |core )?(?:skills|competencies|kenntnisse|competences|habilidades)\b/m,
      /^\W*(?:languages|sprachen|langues|idiomas)\b/m,
      /^\W*(?:publications|certifications|interests)\b/m,
    ],
  },
  { id: 'resume.profile-link', type: 'resume', weight: 0.6, any: [/linkedin\.com\/in\/|github\.com\//] },
  {
    id: 'bank_statement.iban-period',
    type: 'bank_statement',
    weight: 1.2,
    all: [IBAN],
    any: [/statement period|\bperiod\b|zeitraum|periode|periodo|kontoauszug|releve de compte|extracto/],
  },
  {
    id: 'bank_statement.balances',
    type: 'bank_statement',
    weight: 1.2,
    minAny: 2,
    any: [
      /opening balance|balance brought forward|beginning balance|previous balance|alter kontostand|ancien solde|saldo anterior/,
      /closing balance|ending balance|balance carried forward|new balance|neuer kontostand|nouveau solde|saldo final/,
    ],
  },
  {
    id: 'bank_statement.title',
    type: 'bank_statement',
    weight: 1,
    any: [
      /\b(?:account statement|statement of account|bank statement|card statement|savings account statement|kontoauszug|releve de compte|extracto (?:bancario|de cuenta))\b/,
    ],
  },
  {
    id: 'letter.salutation',
    type: 'letter',
    weight: 0.8,
    any: [/^\W*(?:dear\b|to whom it may concern|sehr geehrte|madame, monsieur|estimad[oa]s? )/m],
  },
  {
    id: 'letter.closing',
    type: 'letter',
    weight: 0.8,
    any: [
      /yours sincerely|yours faithfully|yours truly|kind regards|best regards|mit freundlichen gru|veuillez agreer|atentamente/,
    ],
  },
  {
    id: 'other.recipe',
    type: 'other',
    weight: 1,
    all: [/\bingredients\b/],
    any: [/\b(?:method|instructions|directions|preheat|serves)\b/],
  },
  {
    id: 'other.minutes',
    type: 'other',
    weight: 0.8,
    minAny: 2,
    any: [/\battendees\b|\bpresent:/, /\bapologies\b/, /\baction items?\b|\bactions:/, /\bminutes\b|\bagenda\b/],
  },
  {
    id: 'other.manual',
    type: 'other',
    weight: 0.8,
    any: [/safety instructions|troubleshooting|user manual|quick start guide|operating instructions/],
  },
  {
    id: 'other.quote',
    type: 'other',
    weight: 0.8,
    all: [/\b(?:quotation|estimate|quote)\b/],
    any: [/valid for \d+ days|to accept this quote|prices are estimates/],
  },
  {
    id: 'other.delivery-note',
    type: 'other',
    weight: 0.8,
    any: [/delivery note|packing slip|dispatch note|goods received note/],
  },
];

function fires(rule: ClassificationRule, text: string): boolean {
  if (rule.all && !rule.all.every((re) => re.test(text))) return false;
  if (rule.any && rule.any.length > 0) {
    const need = rule.minAny ?? 1;
    let hits = 0;
    for (const re of rule.any) {
      if (re.test(text) && ++hits >= need) return true;
    }
    return false;
  }
  return true;
}

/**
 * Evaluate rules against a text. Rules for types not in `types` are ignored, so an org model
 * with a reduced type list can share the default rule set.
 */
export function ruleEvidence(
  text: string,
  types: readonly string[],
  rules: readonly ClassificationRule[] = DEFAULT_RULES,
): RuleEvidence {
  const norm = normalizeText(text);
  const offsets = types.map(() => 0);
  const fired: FiredRule[] = [];
  for (const rule of rules) {
    const t = types.indexOf(rule.type);
    if (t < 0 || !fires(rule, norm)) continue;
    offsets[t] += rule.weight;
    fired.push({ id: rule.id, type: rule.type, weight: rule.weight });
  }
  return { offsets, fired };
}
