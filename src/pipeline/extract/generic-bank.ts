/** Bank statement fields: statement period and opening/closing balances. */
import { findDates } from './dates.js';
import { amountReader, bestHit, scanLabels, type Doc } from './label-scan.js';
import { CLOSING_BALANCE, OPENING_BALANCE, STATEMENT_PERIOD } from './labels.js';
import { field, type ExtractedFields } from './types.js';

interface Period {
  start: string;
  end: string;
}

function periodReader(doc: Doc) {
  return (s: string): Period | null => {
    const d = findDates(s, doc.dateOpts);
    if (d.length < 2 || d[0].iso > d[1].iso) return null;
    return { start: d[0].iso, end: d[1].iso };
  };
}

// "from 01.03.2024 to 31.03.2024", "vom … bis …", "du … au …", "… - …".
const RANGE_JOINER = /^\s*(?:to|until|through|bis|au|jusqu['’]au|al|a|tot|-|–|—)\s*$/iu;

function unlabelledPeriod(doc: Doc): Period | null {
  for (const line of doc.lines) {
    const d = findDates(line, doc.dateOpts);
    for (let i = 0; i + 1 < d.length; i++) {
      const between = line.slice(d[i].index + d[i].raw.length, d[i + 1].index);
      if (RANGE_JOINER.test(between) && d[i].iso <= d[i + 1].iso) return { start: d[i].iso, end: d[i + 1].iso };
    }
  }
  return null;
}

/** Debit markers after a balance ("1.234,56 S", "120.00 DR") make it negative. */
function balanceReader(doc: Doc) {
  const amount = amountReader(doc);
  return (s: string): number | null => {
    const v = amount(s);
    if (v === null) return null;
    return /\d\s*(?:S|Soll|DR|Dr\.?|debit|d[ée]bit(?:eur)?)\s*$/u.test(s) ? -Math.abs(v) : v;
  };
}

export function bankStatement(doc: Doc): ExtractedFields {
  const out: ExtractedFields = {};
  const hit = bestHit(scanLabels(doc, STATEMENT_PERIOD, periodReader(doc)));
  const period = hit?.value ?? unlabelledPeriod(doc);
  if (period) {
    const c = hit ? 0.88 : 0.6;
    const method = hit ? 'label' : 'heuristic';
    out.statement_period = field(`${period.start}/${period.end}`, c, method);
    out.period_start = field(period.start, c, method);
    out.period_end = field(period.end, c, method);
  }
  const opening = bestHit(scanLabels(doc, OPENING_BALANCE, balanceReader(doc)));
  if (opening) out.opening_balance = field(opening.value, 0.88 * opening.weight, 'label');
  const closing = bestHit(scanLabels(doc, CLOSING_BALANCE, balanceReader(doc)), 'last');
  if (closing) out.closing_balance = field(closing.value, 0.88 * closing.weight, 'label');
  return out;
}
