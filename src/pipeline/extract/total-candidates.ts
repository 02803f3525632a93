/**
 * The grand total by candidate scoring rather than first match. Every money amount of the
 * document is a candidate; each is scored on evidence that holds for receipts and invoices in
 * general:
 * - a total-like label on its line, or on a label line just above it (scanned receipts and
 *   column layouts put "TOTAL" and its figure on separate lines, sometimes as a block of labels
 *   followed by a block of figures);
 * - no component label (subtotal, tax, rounding, discount, cash tendered, change, quantity);
 * - arithmetic: it is the sum of a subtotal and a tax, or cash tendered minus change;
 * - it is the largest amount short of the cash tendered, and it is repeated (totals are printed
 *   twice or three times: total, amount paid, tax summary);
 * - it sits in the lower part of the document.
 * The best score wins; its confidence comes from how much evidence it has and how far it leads.
 */
import { findAmounts, roundMoney } from './amounts.js';
import type { Doc } from './label-scan.js';

type Kind = 'total' | 'subtotal' | 'tax' | 'rounding' | 'tender' | 'change' | 'discount' | 'count' | 'other';

interface Label {
  kind: Kind;
  /** 3 for unmistakable total wording, 2 for a bare "Total"/"Amount". */
  strength: number;
  line: number;
}

/** One money amount where it appears. */
interface Occurrence {
  value: number;
  line: number;
  /** A label on the same line, before the amount. */
  sameLine: Label | null;
  /** A label from a label line above, paired by position in a block. */
  paired: Label | null;
  /** Has cents, or a currency next to it: an amount of money, not a count or an id. */
  money: boolean;
}

const STRONG_TOTAL = new RegExp(
  [
    'grand\\s*tota[l1i]',
    'tota[l1i]\\s*(?:amount|amt|sales?|payable|due|to\\s+pay|price|rm|myr|sgd|usd|eur|incl|inc\\b|inclusive|\\(\\s*(?:rm|myr|incl|inc))',
    'amount\\s*(?:due|payable|to\\s+pay)',
    'n[e3]tt?\\s*tota[l1i]',
    'round(?:ed|ing)?\\s*d?\\s*tota[l1i]|tota[l1i]\\s*(?:after\\s+)?round(?:ed|ing)',
    'balance\\s+due',
    'gesamtbetrag(?!\\s+der\\s+(?:zu|ab)schl)|rechnungsbetrag|endbetrag|gesamtsumme|bruttosumme|bruttobetrag|zu\\s+zahlen|zahlbetrag',
    'montant\\s+(?:total\\s+)?ttc|total\\s+ttc|net\\s+[àa]\\s+payer|total\\s+[àa]\\s+payer',
    'importe\\s+total|total\\s+a\\s+pagar|totale\\s+(?:fattura|documento|da\\s+pagare)|totaalbedrag|te\\s+betalen',
  ].join('|'),
  'iu',
);
const PLAIN_TOTAL =
  /(?<![\p{L}])(?:tota[l1i]|amount|amt|due|summe|gesamt|jumlah|montant|totale|totaal|importe)(?![\p{L}])/iu;

// Components of a total, checked before the total words ("TOTAL GST", "SUB TOTAL").
const COMPONENTS: ReadonlyArray<readonly [Kind, RegExp]> = [
  [
    'subtotal',
    /sub\s*-?\s*tota[l1i]|positionssumme|warenwert|(?:ohne|exkl\.?|zzgl\.?)\s*(?:ust|mwst|steuer)|tota[l1i]\s*(?:sales?\s*)?\(?\s*(?:excl|excluding|exclusive|ex\b|before)|(?:excl(?:uding|\.)?|before|w\/o)\s*(?:gst|sst|vat|tax)|net\s+(?:amount|total)(?!\s+(?:due|payable))|zwischensumme|nettobetrag|netto|sous[\s-]*total|total\s+ht\b|montant\s+ht|base\s+imponible|subtotaal/iu,
  ],
  ['rounding', /round(?:ing|lng|ding|d)?\s*(?:adj(?:ustment)?)?(?!.*tota[l1i])|rounding|adjustment/iu],
  ['tax', /(?<![\p{L}])(?:gst|sst|vat|tax|mwst|ust|tva|iva|btw|service\s+(?:charge|tax)|svc\s+chg)(?![\p{L}])/iu],
  ['change', /(?<![\p{L}])(?:change|changes|chnage|kembali|baki|r[üu]ckgeld|rendu|cambio)(?![\p{L}])/iu],
  [
    'tender',
    /(?<![\p{L}])(?:cash|tender(?:ed)?|pay|paid|payment|received|prepaid|deposit|anzahlungen?|acompte|visa|master(?:\s*card)?|credit\s*card|debit|card|amex|e-?wallet|boost|grabpay|cheque|voucher|bayar|gegeben|bar)(?![\p{L}])/iu,
  ],
  [
    'discount',
    /disc(?:ount)?|saving|promo|(?<![\p{L}])less(?![\p{L}])|rabatt|skonto|zuschl[äa]g|abschl[äa]g|surcharge|remise|descuento|sconto|korting/iu,
  ],
  ['count', /(?<![\p{L}])(?:qty|quantity|items?|pcs|units?|count|no\.?\s+of|menge|anzahl)(?![\p{L}])/iu],
];

/** What a piece of label text announces. "TOTAL INCL GST" is a total, "TOTAL GST" tax. */
function classify(text: string, line: number): Label | null {
  const t = text.trim();
  if (t === '' || !/\p{L}/u.test(t)) return null;
  // "GST @6% INCLUDED IN TOTAL 2.88", "(TOTAL INCLUDED GST @ 6% : 1.42)": the tax inside the total.
  if (/included\s+in\s+(?:the\s+)?tota[l1i]|^\W*\(.*(?:gst|sst|vat|tax).*%/iu.test(t))
    return { kind: 'tax', strength: 0, line };
  const inclusive = /incl|inclusive|inc\.?\s*(?:gst|vat|tax)|\(\s*inc/iu.test(t);
  if (STRONG_TOTAL.test(t) && (inclusive || !/excl|excluding|exclusive|before/iu.test(t))) {
    // "TOTAL SALES (EXCLUDING GST)" is matched as a sales total above but is a subtotal.
    return { kind: 'total', strength: 3, line };
  }
  for (const [kind, re] of COMPONENTS) {
    if (kind === 'tax' && inclusive) continue;
    if (re.test(t)) return { kind, strength: 0, line };
  }
  if (PLAIN_TOTAL.test(t)) return { kind: 'total', strength: 2, line };
  return { kind: 'other', strength: 0, line };
}

const CURRENCY_TOKEN = /(?<![\p{L}])(?:rm|myr|sgd|usd|eur|gbp|chf|idr|thb|rs|inr|aud|cad|\$|€|£|¥|₹)(?![\p{L}])/iu;

/** Text left on a line once its amounts, currencies and punctuation are taken out. */
function residue(line: string, amounts: Array<{ raw: string }>): string {
  let s = line;
  for (const a of amounts) s = s.replace(a.raw, ' ');
  return s
    .replace(new RegExp(CURRENCY_TOKEN.source, 'giu'), ' ')
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
}

function occurrences(doc: Doc): { occ: Occurrence[]; labels: Label[] } {
  const occ: Occurrence[] = [];
  const labels: Label[] = [];
  let labelRun: Label[] = [];
  let valueRun: Occurrence[] = [];
  const flush = (): void => {
    // A block of labels then a block of figures pairs in order; fewer figures than labels pair
    // with the last labels (the first ones had no figure of their own).
    if (labelRun.length > 0 && valueRun.length > 0) {
      const skip = Math.max(0, labelRun.length - valueRun.length);
      valueRun.forEach((v, i) => {
        if (i + skip < labelRun.length) v.paired = labelRun[i + skip];
      });
    }
    labelRun = [];
    valueRun = [];
  };
  doc.lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const found = findAmounts(line, doc.amountOpts).filter((a) => {
      // A number inside a date, a time, a phone number or a code ("XXXX0000") is not an amount;
      // one glued to a currency ("RM7.72") is.
      const before = line.slice(Math.max(0, a.index - 1), a.index);
      const after = line.slice(a.index + a.raw.length, a.index + a.raw.length + 1);
      if (/\p{L}/u.test(before) && !CURRENCY_TOKEN.test(line.slice(Math.max(0, a.index - 3), a.index + 1)))
        return false;
      return (
        !/[/:-]/.test(before) &&
        !/[/:\p{L}]/u.test(after.replace(/[a-z]/i, (c) => (/[sz]/i.test(c) ? '' : c))) &&
        !/^\d{5,}$/.test(a.raw)
      );
    });
    const rest = residue(line, found);
    // A line of three letters or fewer is a currency or a stray mark, unless it is a label ("DUE", "PAY").
    const short = rest.length <= 3 && classify(rest, i)?.kind === 'other';
    if (found.length === 0) {
      if (rest.length === 0 || short) return;
      const label = classify(line, i);
      if (label && label.kind !== 'other') {
        if (valueRun.length > 0) flush();
        labelRun.push(label);
        labels.push(label);
      } else flush();
      return;
    }
    const money = (raw: string, idx: number): boolean =>
      /[.,]\d{2}$/.test(raw) || CURRENCY_TOKEN.test(line.slice(Math.max(0, idx - 4), idx + raw.length + 4));
    if (rest.length === 0 || short) {
      // A line of figures only: it answers the labels above.
      for (const a of found) valueRun.push(pushOcc(a.value, i, null, money(a.raw, a.index)));
      return;
    }
    flush();
    const first = found[0];
    const label = classify(line.slice(0, first.index), i);
    if (label && label.kind !== 'other') labels.push(label);
    found.forEach((a, k) => {
      // The label speaks for the last figure on its line ("Total 3 items 9.00").
      const own = k === found.length - 1 && label && label.kind !== 'other' ? label : null;
      pushOcc(a.value, i, own, money(a.raw, a.index));
    });
  });
  flush();
  return { occ, labels };

  function pushOcc(value: number, line: number, sameLine: Label | null, money: boolean): Occurrence {
    const o: Occurrence = { value, line, sameLine, paired: null, money };
    occ.push(o);
    return o;
  }
}

export interface TotalPick {
  value: number;
  confidence: number;
  /** The total was read next to a total label (else picked by arithmetic and size alone). */
  labelled: boolean;
  line: number;
  /** The winning candidate's evidence (inputs of the calibrated confidence). */
  features: TotalFeatures;
}

export interface TotalFeatures {
  /** Label strength: 3 unmistakable total wording, 2 a bare "Total", half a point less from a label line above. */
  label: number;
  /** 2 = subtotal + tax or tendered − change; 0.7 = two other figures sum to it; 0 = none. */
  arith: number;
  /** How many more times the figure is printed (0–2). */
  repeats: number;
  /** Score lead over the best candidate of a different value (capped at 6). */
  margin: number;
  /** Amounts larger than it, short of the cash tendered. */
  larger: number;
  /** Distinct money figures in the document. */
  candidates: number;
}

const near = (a: number, b: number): boolean => Math.abs(a - b) < 0.006;

/** Candidate scoring; null when the document has no plausible total. */
export function pickTotal(doc: Doc): TotalPick | null {
  const { occ } = occurrences(doc);
  const money = occ.filter((o) => o.money && o.value > 0 && o.value < 10_000_000);
  if (money.length === 0) return null;
  const kindOf = (o: Occurrence): Label | null => o.sameLine ?? o.paired;
  const byValue = new Map<number, Occurrence[]>();
  for (const o of money) {
    const k = roundMoney(o.value);
    byValue.set(k, [...(byValue.get(k) ?? []), o]);
  }
  // Arithmetic also needs zero figures ("CHANGE 0.00").
  const valuesOf = (kind: Kind): number[] =>
    occ.filter((o) => o.value >= 0 && kindOf(o)?.kind === kind).map((o) => roundMoney(o.value));
  const tenders = valuesOf('tender');
  const changes = valuesOf('change');
  const subtotals = valuesOf('subtotal');
  const taxes = valuesOf('tax');
  const distinct = [...byValue.keys()];
  const lines = Math.max(1, doc.lines.length - 1);
  const maxTender = tenders.length ? Math.max(...tenders) : Infinity;
  const debug = process.env.DOCPIPE_DEBUG_TOTAL === '1';

  type Scored = {
    value: number;
    score: number;
    labelled: boolean;
    line: number;
    first: number;
    evidence: number;
    label: number;
    arith: number;
    repeats: number;
    larger: number;
  };
  const scored: Scored[] = [];
  for (const [value, os] of byValue) {
    let label = 0;
    let component = 0;
    for (const o of os) {
      const l = kindOf(o);
      if (!l) continue;
      if (l.kind === 'total') label = Math.max(label, l.strength - (o.sameLine ? 0 : 0.5));
      // "ROUNDING 22.90": a rounding adjustment is a few cents; a whole figure is the rounded total.
      else if (l.kind === 'rounding' && value >= 0.1) label = Math.max(label, 2 - (o.sameLine ? 0 : 0.5));
      else if (l.kind !== 'other') component++;
    }
    const onlyComponent = component > 0 && component === os.length && label === 0;
    let score = label * 1.6;
    if (onlyComponent) score -= 3;
    // Arithmetic: subtotal + tax, cash tendered − change, or any two other figures summing to it.
    let arith = 0;
    if (subtotals.some((s) => taxes.some((t) => near(s + t, value)))) arith = 2;
    if (tenders.some((c) => changes.some((ch) => c >= value - 0.005 && near(c - ch, value))))
      arith = Math.max(arith, 2);
    if (
      arith === 0 &&
      distinct.some((a) => a < value && distinct.some((b) => b < value && b !== a && near(a + b, value)))
    )
      arith = 0.7;
    score += arith;
    const repeats = Math.min(os.length, 3) - 1;
    score += repeats * 0.5;
    const last = os[os.length - 1].line / lines;
    score += last > 0.4 ? 0.6 : last > 0.2 ? 0 : -0.8;
    // The total is the largest amount below what was handed over; a larger one is a tender or noise.
    const larger = distinct.filter((d) => d > value + 0.005 && d < maxTender + 0.005 && !tenders.includes(d));
    score += larger.length === 0 ? 1.2 : larger.length === 1 ? 0.3 : -0.4 * Math.min(larger.length, 4);
    if (value > maxTender + 0.005) score -= 1.5;
    const evidence = (label > 0 ? 1 : 0) + (arith >= 2 ? 1 : 0) + (repeats > 0 ? 0.5 : 0);
    scored.push({
      value,
      score,
      labelled: label > 0,
      line: os[os.length - 1].line,
      first: os[0].line,
      evidence,
      label,
      arith,
      repeats,
      larger: larger.length,
    });
    if (debug)
      console.log('total candidate', value, {
        label,
        component,
        onlyComponent,
        arith,
        repeats,
        last: +last.toFixed(2),
        larger: larger.length,
        score: +score.toFixed(2),
      });
  }
  scored.sort((a, b) => b.score - a.score || b.line - a.line);
  let best = scored[0];
  if (!best || best.score < 0.5) return null;
  // Cash rounding (to 5 cents): the rounded figure printed after the exact total is what was paid.
  const cents = (v: number) => Math.round(v * 100);
  if (cents(best.value) % 5 !== 0) {
    const rounded = scored.find(
      (c) =>
        c !== best &&
        Math.abs(c.value - best.value) < 0.046 &&
        cents(c.value) % 5 === 0 &&
        c.line >= best.first &&
        c.score > 0,
    );
    if (rounded) {
      best = {
        ...rounded,
        labelled: rounded.labelled || best.labelled,
        evidence: Math.max(rounded.evidence, best.evidence),
        label: Math.max(rounded.label, best.label),
        arith: Math.max(rounded.arith, best.arith),
      };
    }
  }
  const margin = best.score - (scored.find((c) => c !== best && Math.abs(c.value - best.value) >= 0.046)?.score ?? 0);
  const confidence = Math.min(
    0.97,
    0.35 + 0.12 * best.evidence + 0.06 * Math.min(margin, 4) + (best.labelled ? 0.12 : 0),
  );
  const features: TotalFeatures = {
    label: best.label,
    arith: best.arith,
    repeats: best.repeats,
    margin: Math.min(6, margin),
    larger: best.larger,
    candidates: distinct.length,
  };
  return { value: best.value, confidence, labelled: best.labelled, line: best.line, features };
}
