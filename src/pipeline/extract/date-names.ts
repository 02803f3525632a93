/**
 * Month names (full and abbreviated) in English, German, French, Spanish, Italian, Dutch and
 * Portuguese. Keys are lower-case without accents; the regex alternation also carries the
 * accented spellings so matching needs no position-shifting normalisation.
 */
import { stripAccents } from './text.js';

const MONTHS: ReadonlyArray<readonly string[]> = [
  [
    'january',
    'jan',
    'januar',
    'janner',
    'jänner',
    'janvier',
    'janv',
    'enero',
    'ene',
    'gennaio',
    'gen',
    'januari',
    'janeiro',
  ],
  [
    'february',
    'feb',
    'februar',
    'fevrier',
    'février',
    'fevr',
    'févr',
    'fev',
    'fév',
    'febrero',
    'febbraio',
    'februari',
    'fevereiro',
  ],
  ['march', 'mar', 'mär', 'marz', 'märz', 'maerz', 'mrz', 'mars', 'marzo', 'maart', 'mrt', 'marco', 'março'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mayo', 'maggio', 'mag', 'mei', 'maio'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho'],
  ['august', 'aug', 'aout', 'août', 'agosto', 'ago', 'augustus'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro'],
  ['december', 'dec', 'dezember', 'dez', 'decembre', 'décembre', 'déc', 'diciembre', 'dic', 'dicembre', 'dezembro'],
];

const MONTH_INDEX: ReadonlyMap<string, number> = new Map(
  MONTHS.flatMap((names, i) => names.map((n) => [stripAccents(n), i + 1] as const)),
);

/** Regex source matching any month name (longest first so "september" beats "sep"). */
export const MONTH_NAME_SOURCE = [...new Set(MONTHS.flat())].sort((a, b) => b.length - a.length).join('|');

/** 1-12 for a recognised month name (case and accents ignored, trailing dot allowed), else null. */
export function monthFromName(name: string): number | null {
  const key = stripAccents(name.toLowerCase()).replace(/\.$/, '');
  return MONTH_INDEX.get(key) ?? null;
}

/** Weekday names that may surround a date ("Tuesday, 5 March 2024"); they carry no information. */
export const WEEKDAY_SOURCE =
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|' +
  'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|' +
  'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|' +
  'lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo';
