// Locale-aware formatting of dates, amounts, identifiers and simple text tables.

const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};

export function langOf(loc) {
  return loc === 'de' || loc === 'fr' || loc === 'es' ? loc : 'en';
}

/** A random day between 2021 and 2025 as a plain {y, m, d} (m 1-12). */
export function randomDate(rng) {
  return { y: rng.int(2021, 2025), m: rng.int(1, 12), d: rng.int(1, 28) };
}

export function addDays(dt, days) {
  const t = new Date(Date.UTC(dt.y, dt.m - 1, dt.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

const p2 = (n) => String(n).padStart(2, '0');

export function fmtDate(rng, dt, loc = 'us') {
  const { y, m, d } = dt;
  const lang = langOf(loc);
  const mon = MONTHS[lang][m - 1];
  const opts = {
    us: [`${p2(m)}/${p2(d)}/${y}`, `${mon} ${d}, ${y}`, `${mon.slice(0, 3)} ${d}, ${y}`, `${y}-${p2(m)}-${p2(d)}`, `${m}/${d}/${String(y).slice(2)}`],
    en: [`${p2(d)}/${p2(m)}/${y}`, `${d} ${mon} ${y}`, `${d}-${mon.slice(0, 3)}-${String(y).slice(2)}`, `${y}-${p2(m)}-${p2(d)}`, `${d} ${mon.slice(0, 3)} ${y}`],
    de: [`${p2(d)}.${p2(m)}.${y}`, `${d}. ${mon} ${y}`, `${p2(d)}.${p2(m)}.${String(y).slice(2)}`, `${y}-${p2(m)}-${p2(d)}`],
    fr: [`${p2(d)}/${p2(m)}/${y}`, `${d} ${mon} ${y}`, `${p2(d)}.${p2(m)}.${y}`],
    es: [`${p2(d)}/${p2(m)}/${y}`, `${d} de ${mon} de ${y}`, `${p2(d)}-${p2(m)}-${y}`],
  };
  const key = loc === 'us' || loc === 'ca' ? 'us' : lang;
  return rng.pick(opts[key]);
}

/** Month name + year, e.g. for billing periods. */
export function monthYear(dt, loc = 'us') {
  return `${MONTHS[langOf(loc)][dt.m - 1]} ${dt.y}`;
}

export const CURRENCY = { us: '$', ca: '$', au: '$', uk: '£', ie: '€', de: '€', fr: '€', es: '€', nl: '€' };
export const CODE = { us: 'USD', ca: 'CAD', au: 'AUD', uk: 'GBP', ie: 'EUR', de: 'EUR', fr: 'EUR', es: 'EUR', nl: 'EUR' };

/** Format a number with the locale's separators (no currency). */
export function num(v, loc = 'us') {
  const neg = v < 0;
  const [int, dec] = Math.abs(v).toFixed(2).split('.');
  const lang = langOf(loc);
  const thou = lang === 'en' ? ',' : lang === 'fr' ? ' ' : '.';
  const decSep = lang === 'en' ? '.' : ',';
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, thou);
  return `${neg ? '-' : ''}${grouped}${decSep}${dec}`;
}

/** Amount with a currency marker in one of several common placements. */
export function money(rng, v, loc = 'us', style) {
  const s = style ?? rng.int(0, 3);
  const n = num(v, loc);
  const sym = CURRENCY[loc];
  const lang = langOf(loc);
  if (s === 0) return lang === 'en' ? `${sym}${n}` : `${n} ${sym}`;
  if (s === 1) return `${CODE[loc]} ${n}`;
  if (s === 2) return `${n} ${CODE[loc]}`;
  return n;
}

const IBAN_LEN = { DE: 18, FR: 23, ES: 20, GB: 18, IE: 18, NL: 14 };

/** IBAN with a valid mod-97 check so IBAN-aware code treats it as real. */
export function iban(rng, cc = 'DE', spaced = true) {
  let bban;
  if (cc === 'GB' || cc === 'IE') bban = rng.letters(4) + rng.digits(14);
  else if (cc === 'NL') bban = rng.letters(4) + rng.digits(10);
  else bban = rng.digits(IBAN_LEN[cc] ?? 18);
  const rearranged = bban + cc + '00';
  const numeric = rearranged.replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of numeric) rem = (rem * 10 + Number(ch)) % 97;
  const check = String(98 - rem).padStart(2, '0');
  const raw = cc + check + bban;
  return spaced ? raw.replace(/(.{4})/g, '$1 ').trim() : raw;
}

export function ibanCountry(loc) {
  return { de: 'DE', fr: 'FR', es: 'ES', uk: 'GB', ie: 'IE', nl: 'NL' }[loc] ?? 'DE';
}

export function bic(rng) {
  return `${rng.letters(4)}${rng.pick(['DE', 'FR', 'ES', 'GB', 'NL', 'IE'])}${rng.letters(2)}${rng.chance(0.5) ? 'XXX' : ''}`;
}

export function vatId(rng, loc) {
  switch (loc) {
    case 'de': return `DE${rng.digits(9)}`;
    case 'fr': return `FR${rng.digits(11)}`;
    case 'es': return `ES${rng.letters(1)}${rng.digits(8)}`;
    case 'uk': return `GB ${rng.digits(3)} ${rng.digits(4)} ${rng.digits(2)}`;
    case 'ie': return `IE${rng.digits(7)}${rng.letters(1)}`;
    case 'nl': return `NL${rng.digits(9)}B01`;
    case 'au': return `ABN ${rng.digits(2)} ${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)}`;
    default: return `EIN ${rng.digits(2)}-${rng.digits(7)}`;
  }
}

/**
 * Render rows as a plain-text table in one of several layouts: padded columns, pipes, tabs, or
 * "label ... value" lines, the way text extracted from PDFs tends to look.
 */
export function table(rng, header, rows, layoutArg) {
  const layout = layoutArg ?? rng.int(0, 3);
  const all = header ? [header, ...rows] : rows;
  if (layout === 0) {
    const widths = all[0].map((_, i) => Math.max(...all.map((r) => String(r[i] ?? '').length)));
    return all.map((r) => r.map((c, i) => String(c).padEnd(widths[i] + 2)).join('').trimEnd()).join('\n');
  }
  if (layout === 1) return all.map((r) => `| ${r.join(' | ')} |`).join('\n');
  if (layout === 2) return all.map((r) => r.join('\t')).join('\n');
  return rows.map((r) => r.join(' ')).join('\n');
}

/** "Label: value" with random alignment, separators and case. */
export function kv(rng, label, value, style) {
  const s = style ?? rng.int(0, 4);
  if (s === 0) return `${label}: ${value}`;
  if (s === 1) return `${label.padEnd(22)}${value}`;
  if (s === 2) return `${label.toUpperCase()}: ${value}`;
  if (s === 3) return `${label} ${value}`;
  return `${label} - ${value}`;
}

export function round2(v) {
  return Math.round(v * 100) / 100;
}
