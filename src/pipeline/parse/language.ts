// Frequent function words per language. Short words that two languages share (e.g. "de",
// "en", "in") are kept only where they are far more frequent; ties are broken by the margin rule.
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'is', 'in', 'that', 'for', 'with', 'this', 'you', 'are', 'be', 'on', 'not', 'have', 'it', 'as', 'was', 'from', 'or', 'by', 'will', 'your', 'we', 'our', 'please', 'which', 'has', 'at'],
  de: ['der', 'die', 'das', 'und', 'ist', 'nicht', 'mit', 'ein', 'eine', 'den', 'dem', 'zu', 'für', 'auf', 'sie', 'ich', 'wir', 'sich', 'auch', 'es', 'im', 'von', 'bitte', 'oder', 'wird', 'sind', 'bei', 'nach', 'ihre', 'uns'],
  fr: ['le', 'la', 'les', 'et', 'des', 'est', 'une', 'un', 'du', 'pour', 'que', 'qui', 'dans', 'pas', 'vous', 'nous', 'sur', 'avec', 'au', 'aux', 'ce', 'cette', 'sont', 'votre', 'par', 'il', 'elle', 'mais', 'ou', 'être'],
  es: ['el', 'la', 'los', 'las', 'y', 'que', 'es', 'una', 'del', 'por', 'para', 'con', 'no', 'su', 'se', 'al', 'lo', 'como', 'más', 'pero', 'sus', 'este', 'esta', 'usted', 'son', 'está', 'muy', 'sin', 'sobre', 'entre'],
  nl: ['de', 'het', 'een', 'en', 'van', 'is', 'dat', 'niet', 'op', 'te', 'voor', 'met', 'zijn', 'die', 'ook', 'aan', 'er', 'maar', 'om', 'wij', 'jij', 'u', 'uw', 'ons', 'naar', 'bij', 'worden', 'wordt', 'deze', 'hebben'],
};

const LOOKUP = new Map<string, string[]>();
for (const [lang, words] of Object.entries(STOPWORDS)) {
  for (const w of words) LOOKUP.set(w, [...(LOOKUP.get(w) ?? []), lang]);
}

/**
 * A cheap language guess from stopword counts over the first 20,000 characters: 'en', 'de',
 * 'fr', 'es' or 'nl', or undefined when the text is too short or no language clearly leads.
 */
export function guessLanguage(text: string): string | undefined {
  const words = text.slice(0, 20_000).toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 8) return undefined;
  const scores = new Map<string, number>();
  for (const w of words) {
    for (const lang of LOOKUP.get(w) ?? []) scores.set(lang, (scores.get(lang) ?? 0) + 1);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || first[1] < 4 || first[1] < words.length * 0.05) return undefined;
  if (second && first[1] < second[1] * 1.3) return undefined;
  return first[0];
}
