// Filenames in mail are attacker-controlled: they may carry paths, control characters,
// absurd lengths or nothing at all. Everything that leaves this module is a plain basename.

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/csv': 'csv',
  'text/calendar': 'ics',
  'message/rfc822': 'eml',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'image/webp': 'webp',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/ms-tnef': 'dat',
};

/** File extension (without dot) for a declared content type; `bin` when unknown. */
export function extensionFor(contentType: string | undefined): string {
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return EXTENSIONS[base] ?? 'bin';
}

const MAX_NAME_CHARS = 180;

/**
 * Reduces a name to a safe basename: last path segment, no control or reserved characters,
 * no leading dots, bounded length with the extension kept. Returns '' when nothing is left.
 */
export function sanitizeFilename(name: string | undefined | null): string {
  if (!name) return '';
  let n = name.normalize('NFC');
  n = n.split(/[\\/]/).pop() ?? '';
  n = n
    .replace(/\ufffd/g, '')
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  n = n.replace(/^\.+/, '').trim();
  if (Array.from(n).length > MAX_NAME_CHARS) {
    const dot = n.lastIndexOf('.');
    const ext = dot > 0 && n.length - dot <= 12 ? n.slice(dot) : '';
    n =
      Array.from(n.slice(0, n.length - ext.length))
        .slice(0, MAX_NAME_CHARS - ext.length)
        .join('')
        .trim() + ext;
  }
  return n;
}

/** Makes `name` unique within `taken` (case-insensitive) by inserting ` (2)`, ` (3)`, … before the extension. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${stem} (${i})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
