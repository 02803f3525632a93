/** allowed_file_types entries: an extension (`pdf`, `.pdf`) or a MIME type (`application/pdf`, `image/*`). */
export function validateFileTypeEntry(entry: string): string | null {
  const e = entry.trim().toLowerCase();
  if (/^\.?[a-z0-9]{1,10}$/.test(e)) return null;
  if (/^[a-z]+\/([a-z0-9.+-]+|\*)$/.test(e)) return null;
  return 'must be an extension such as "pdf" or a MIME type such as "application/pdf" or "image/*"';
}

export function normaliseFileTypes(entries: string[]): string[] {
  return [...new Set(entries.map((e) => e.trim().toLowerCase()))];
}
