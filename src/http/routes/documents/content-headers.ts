/**
 * Headers for serving a stored file. The file is whatever someone uploaded or mailed in, served
 * from the API's own origin, so a browser must never run or render it as a page there: always
 * an attachment, no type sniffing, a CSP that sandboxes it and loads nothing, and types a
 * browser would execute (HTML, SVG, XML, scripts) replaced by a type it only downloads.
 */
const ACTIVE =
  /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[a-z0-9.+-]*\+xml|(?:text|application)\/(?:x-)?(?:javascript|ecmascript)|text\/xsl|application\/xslt\+xml)$/i;

export function servedContentType(mime: string): string {
  const base = mime.split(';')[0].trim().toLowerCase();
  return ACTIVE.test(base) || base === '' ? 'application/octet-stream' : mime;
}

export function contentHeaders(file: { mimeType: string; filename: string; size: number }): Record<string, string> {
  return {
    'Content-Type': servedContentType(file.mimeType),
    'Content-Length': String(file.size),
    'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
