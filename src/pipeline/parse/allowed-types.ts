import type { SniffedType } from './sniff.js';

/** Extensions people write for the same type; each maps to the canonical one sniffing returns. */
const EXT_ALIASES: Record<string, string> = {
  jpeg: 'jpg',
  jpe: 'jpg',
  jfif: 'jpg',
  tif: 'tiff',
  htm: 'html',
  xhtml: 'html',
  text: 'txt',
  tsv: 'csv',
  mime: 'eml',
};

function canonicalExt(ext: string): string {
  const e = ext.toLowerCase();
  return EXT_ALIASES[e] ?? e;
}

function mimeMatches(pattern: string, mime: string): boolean {
  if (pattern === '*/*' || pattern === '*') return true;
  const [type, sub] = pattern.split('/');
  const [mType, mSub] = mime.split('/');
  return type === mType && (sub === '*' || sub === mSub);
}

/**
 * Whether a sniffed type is in a project's `allowed_file_types`. Entries are extensions
 * (`pdf`, `.PDF`, `jpeg`) or MIME types (`application/pdf`, `image/*`; parameters ignored).
 * An empty or missing list allows everything, including unrecognised files (null), which the
 * parse stage then fails as UNSUPPORTED_TYPE; a non-empty list never admits null.
 */
export function matchesAllowedTypes(sniffed: SniffedType | null, allowed: readonly string[] | undefined): boolean {
  const entries = (allowed ?? []).map((a) => a.trim()).filter((a) => a !== '');
  if (entries.length === 0) return true;
  if (!sniffed) return false;
  const mime = sniffed.mime.toLowerCase();
  const ext = canonicalExt(sniffed.ext);
  return entries.some((entry) => {
    const e = entry.toLowerCase().split(';')[0].trim();
    if (e.includes('/')) return mimeMatches(e, mime);
    return canonicalExt(e.replace(/^\*?\./, '')) === ext;
  });
}
