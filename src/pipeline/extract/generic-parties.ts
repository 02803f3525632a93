/**
 * Who is who: vendor (issuer), customer, a résumé's candidate name, contract parties, a
 * letter's subject. These are the least regular fields, so confidences stay moderate.
 */
import { findDates } from './dates.js';
import { attachEvidence } from './evidence.js';
import { bestHit, scanLabels, textReader, type Doc } from './label-scan.js';
import { CUSTOMER, NAME, PARTY_ROLES, SUBJECT, VENDOR } from './labels.js';
import { hasLetter } from './text.js';
import { field, type ExtractedField, type FieldRow } from './types.js';

// Legal forms that end a company name (European, American, Asian). The short ones ("AG", "SA")
// are also ordinary words, so they count only as written; the long ones count in any case.
const LEGAL_FORM_EXACT =
  '(?:GmbH(?:\\s*&\\s*Co\\.?\\s*KG)?|AG|KG|OHG|UG(?:\\s*\\(haftungsbeschränkt\\))?|e\\.\\s?K\\.|e\\.\\s?V\\.|Co\\.|PLC|plc|LLP|SARL|S\\.A\\.R\\.L\\.|SAS|S\\.A\\.S\\.|SA|S\\.A\\.|SNC|EURL|B\\.V\\.|BV|N\\.V\\.|NV|S\\.r\\.l\\.|SRL|S\\.p\\.A\\.|SpA|S\\.L\\.|AB|A\\/S|ApS|Oy|GbR|K\\.?K\\.?)';
const LEGAL_FORM_ANY_CASE =
  '(?:Ltd\\.?|Limited|LLC|L\\.L\\.C\\.|Inc\\.?|Incorporated|Corp\\.?|Corporation|Company|Pty\\.?(?:\\s+Ltd\\.?)?|Sdn\\.?\\s*B[hn]d\\.?|S\\/B|Bhd\\.?|Berhad|Pte\\.?\\s*Ltd\\.?|Pvt\\.?\\s*Ltd\\.?)';
const COMPANY_SUFFIX = {
  test: (s: string): boolean =>
    new RegExp(`(?:^|\\s)${LEGAL_FORM_EXACT}$`, 'u').test(s) ||
    new RegExp(`(?:^|\\s)${LEGAL_FORM_ANY_CASE}$`, 'iu').test(s),
};
const LEGAL_ONLY = {
  test: (s: string): boolean =>
    new RegExp(`^${LEGAL_FORM_EXACT}$`, 'u').test(s) || new RegExp(`^${LEGAL_FORM_ANY_CASE}$`, 'iu').test(s),
};
// Words that name a kind of business: weaker than a legal form, stronger than any capitalised line.
const BUSINESS_WORD =
  /(?<![\p{L}])(?:enterprise|trading|store|stores|mart|supermarket|hypermarket|restaurant|restoran|cafe|café|bakery|bakeries|pharmacy|farmasi|hardware|stationery|bookstore|hotel|clinic|services|solutions|systems|technologies|holdings|industries|group|kedai|shop|boutique|b[äa]ckerei|apotheke|h[öo]tel|pharmacie|boulangerie)(?![\p{L}])/iu;

const TITLE_WORDS =
  /^(?:(?:tax\s+|pro[-\s]?forma\s+|commercial\s+)?invoice|rechnung|gutschrift|facture|factura|fattura|factuur|receipt|quittung|kassenbon|kassenbeleg|beleg|bon|ticket|re[çc]u|credit\s+note|statement|bank\s+statement|account\s+statement|kontoauszug|relev[ée](?:\s+de\s+compte)?|purchase\s+order|bestellung|bon\s+de\s+commande|order|contract|agreement|vertrag|contrat|page\s+\d+.*|seite\s+\d+.*|original|copy|kopie|duplicate)$/iu;

/** A segment of a header line that could be an organisation or person name. */
function plausibleName(seg: string): boolean {
  const s = seg.trim();
  if (s.length < 2 || s.length > 80 || !hasLetter(s)) return false;
  if (TITLE_WORDS.test(s) || s.includes('@') || /^(?:www\.|https?:)/i.test(s) || s.includes(':')) return false;
  const digits = (s.match(/\d/g) ?? []).length;
  const letters = (s.match(/\p{L}/gu) ?? []).length;
  if (digits > letters / 3) return false;
  return findDates(s).length === 0;
}

function segments(line: string): string[] {
  // A registration number after the name ("SDN BHD (139386 X)", "Co. Reg. 1234") is not part of it.
  const bare = line
    .replace(/\s*\((?=[^)]*\d)[^)]{1,30}\)\s*$/u, '')
    .replace(/\s+(?:co\.?\s*(?:reg\.?\s*)?no\.?|reg\.?\s*no\.?)\s*:?\s*[\w-]+$/iu, '');
  const parts = bare
    .split(/\s+[·|•]\s+|\s+[-–]\s+|\t| {2,}|,\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  // "Cobalt Cloud Services, Inc.": the legal form belongs to the name before it.
  const out: string[] = [];
  for (const p of parts) {
    if (out.length > 0 && LEGAL_ONLY.test(p)) out[out.length - 1] = `${out[out.length - 1]}, ${p}`;
    else out.push(p);
  }
  return out;
}

/** First line index of a customer block ("Bill to:"), so the vendor search stops there. */
function customerLine(doc: Doc): number {
  const end = Math.min(doc.lines.length, 40);
  for (let i = 0; i < end; i++) if (CUSTOMER.any.test(doc.lines[i])) return i;
  return end;
}

/**
 * The issuer: a "Vendor:"/"From:" label, else the document's letterhead — the first name-like
 * segment near the top (a company suffix such as GmbH or Ltd makes it much more certain).
 */
export function vendor(doc: Doc): ExtractedField | null {
  const party = (f: ExtractedField, source: string, seen: number): ExtractedField =>
    attachEvidence(f, { kind: 'party', source, features: { seen, words: String(f.value).split(/\s+/).length } });
  const hit = bestHit(scanLabels(doc, VENDOR, textReader(80)));
  if (hit) {
    // "Verkäufer:" over "Nummer : 549910" and then the name: skip the key-value lines.
    // (A next-line hit's line is the value's line.)
    if (hit.placement !== 'next-line' || !/:\s*\S/.test(doc.lines[hit.line] ?? ''))
      return party(field(hit.value, 0.85 * hit.weight, 'label'), 'label', 0);
    for (let i = hit.line + 1; i < Math.min(doc.lines.length, hit.line + 5); i++) {
      const line = doc.lines[i].trim();
      if (line && !line.includes(':') && plausibleName(line))
        return party(field(line, 0.75 * hit.weight, 'label'), 'label', 0);
    }
  }
  const stop = Math.min(customerLine(doc), 25);
  let first: { name: string; seen: number } | null = null;
  let business: { name: string; seen: number } | null = null;
  let seen = 0;
  for (let i = 0; i < stop && seen < 12; i++) {
    const line = doc.lines[i].trim();
    if (line === '') continue;
    seen++;
    for (const seg of segments(line)) {
      if (!plausibleName(seg)) continue;
      // The top-most line with a legal form is the issuer (a brand or a person's name may precede it).
      // Lower down, a company name is as often the customer's as the issuer's.
      if (COMPANY_SUFFIX.test(seg))
        return party(field(seg, seen <= 3 ? 0.9 : seen <= 6 ? 0.5 : 0.3, 'heuristic'), 'legal-form', seen);
      if (!business && BUSINESS_WORD.test(seg) && seg.split(/\s+/).length <= 6) business = { name: seg, seen };
      // A name is short; a sentence on the first line is not a letterhead.
      if (seen <= 3 && seg.split(/\s+/).length <= 5 && /^\p{Lu}/u.test(seg)) first ??= { name: seg, seen };
    }
  }
  if (business)
    return party(field(business.name, business.seen <= 3 ? 0.75 : 0.45, 'heuristic'), 'business-word', business.seen);
  return first ? party(field(first.name, 0.6, 'heuristic'), 'first-line', first.seen) : null;
}

/** The customer: the text after "Bill to:", "Kunde:", "Facturé à:" or on the following line. */
export function customer(doc: Doc): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, CUSTOMER, textReader(80)));
  return hit ? field(hit.value, 0.82 * hit.weight, 'label') : null;
}

const NOT_A_NAME = /^(?:curriculum\s+vitae|cv|resume|résumé|lebenslauf|profile|profil|contact|kontakt|summary)$/iu;
const PERSON_NAME = /^(?:\p{Lu}[\p{L}'’-]*\.?\s+){1,3}\p{Lu}[\p{L}'’-]+$/u;

/** A résumé's candidate: "Name:" label, else a 2-4 word capitalised line near the top. */
export function personName(doc: Doc): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, NAME, textReader(60)));
  if (hit) return field(hit.value, 0.85, 'label');
  let seen = 0;
  for (const raw of doc.lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (++seen > 5) break;
    for (const seg of segments(line)) {
      if (NOT_A_NAME.test(seg)) continue;
      if (PERSON_NAME.test(seg)) return field(seg, seen === 1 ? 0.72 : 0.6, 'heuristic');
    }
  }
  return null;
}

const QUOTED = /[“"„«‚']\s*([^“”"»'‘’]{2,40}?)\s*[”"“»'‘’]/u;

function cleanParty(raw: string): FieldRow | null {
  const roleText = /\(([^)]*)\)/.exec(raw)?.[1] ?? /(?:hereinafter|nachfolgend|ci-après)[^,;]*/iu.exec(raw)?.[0] ?? '';
  const role = QUOTED.exec(roleText)?.[1] ?? null;
  const name = raw
    .replace(/\([^)]*\)/g, ' ')
    .replace(/(?:hereinafter|nachfolgend|ci-après).*$/iu, '')
    .split(/,|;|\s+(?:a|an|eine?|une?)\s+(?:company|corporation|gesellschaft|soci[ée]t[ée])\b/iu)[0]
    .replace(/^(?:the\s+|der\s+|die\s+|la\s+|le\s+|l['’])/iu, '')
    .replace(/[\s:]+$/, '')
    .trim();
  if (name.length < 2 || name.length > 120 || !hasLetter(name)) return null;
  return { name, role };
}

// The second party ends after its parenthetical role, at a sentence end or at a clause word.
const PARTY_END = '(?:(?<=\\))|\\.\\s+(?=[\\p{Lu}\\d])|;|$)';
const BETWEEN = [
  new RegExp(`(?:by\\s+and\\s+)?between\\s*:?\\s+(.{2,200}?)\\s+and\\s+(.{2,200}?)${PARTY_END}`, 'iu'),
  new RegExp(`zwischen\\s*:?\\s+(.{2,200}?)\\s+und\\s+(.{2,200}?)${PARTY_END}`, 'iu'),
  new RegExp(`entre\\s*(?:les\\s+soussign[ée]s\\s*)?:?\\s+(.{2,200}?)\\s+et\\s+(.{2,200}?)${PARTY_END}`, 'iu'),
];

/** Contract parties from "between A and B" wording, or from role labels ("Landlord: …"). */
export function contractParties(doc: Doc): ExtractedField | null {
  const flat = doc.text.slice(0, 5000).replace(/\s+/g, ' ');
  for (const re of BETWEEN) {
    const m = re.exec(flat);
    if (!m) continue;
    const a = cleanParty(m[1]);
    const b = cleanParty(m[2]);
    if (a && b) return field([a, b], 0.75, 'label');
  }
  const hits = scanLabels(doc, PARTY_ROLES, textReader(100));
  const rows: FieldRow[] = [];
  for (const h of hits) {
    const role =
      /^\s*([\p{L} ]+?)\s*:?\s*$/u.exec(
        h.labelLine.slice(0, h.labelLine.indexOf(':') >= 0 ? h.labelLine.indexOf(':') : undefined),
      )?.[1] ?? null;
    if (!rows.some((r) => r.name === h.value)) rows.push({ name: h.value, role });
    if (rows.length >= 4) break;
  }
  return rows.length >= 2 ? field(rows, 0.7, 'label') : null;
}

export function subject(doc: Doc): ExtractedField | null {
  const hit = bestHit(scanLabels(doc, SUBJECT, textReader(200)));
  return hit ? field(hit.value, 0.85, 'label') : null;
}
