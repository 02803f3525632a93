// Running text from templates: `{slot}` is replaced by a pick from the slot's word list, `{a|b|c}`
// by one of the alternatives. Used for the long documents (papers, agreements, CVs, e-mails)
// whose bulk is prose rather than fields.

/** Fill one template. `slots` maps names to arrays of strings (or functions of rng). */
export function fill(rng, template, slots = {}) {
  let out = template;
  // Inner groups first so alternatives may contain slots and slots may contain alternatives.
  for (let guard = 0; guard < 8 && /\{[^{}]*\}/.test(out); guard++) {
    out = out.replace(/\{([^{}]*)\}/g, (m, body) => {
      if (body.includes('|')) return rng.pick(body.split('|'));
      const v = slots[body];
      if (v === undefined) return m.replace(/[{}]/g, '');
      const picked = typeof v === 'function' ? v(rng) : Array.isArray(v) ? rng.pick(v) : String(v);
      return String(picked);
    });
  }
  return out;
}

/** Capitalise the first letter. */
export function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A paragraph of `n` sentences, each from a randomly chosen template. */
export function paragraph(rng, templates, slots, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(cap(fill(rng, rng.pick(templates), slots).trim()));
  return out.join(' ');
}

/**
 * Hard-wrap text at about `width` characters, as text extracted from a PDF column comes out;
 * occasionally hyphenates a long word across the break.
 */
export function wrap(rng, text, width, hyphenate = 0) {
  const words = text.split(/\s+/).filter(Boolean);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      if (hyphenate > 0 && w.length >= 8 && rng.chance(hyphenate)) {
        const cut = rng.int(3, w.length - 4);
        lines.push(`${line} ${w.slice(0, cut)}-`);
        line = w.slice(cut);
        continue;
      }
      lines.push(line);
      line = w;
    } else {
      line = line ? `${line} ${w}` : w;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** Split text into pages of about `linesPerPage` lines, joined by the parser's page separator. */
export function paginate(rng, text, linesPerPage, furniture) {
  const lines = text.split('\n');
  const pages = [];
  for (let i = 0; i < lines.length; i += linesPerPage) pages.push(lines.slice(i, i + linesPerPage));
  return pages
    .map((p, i) => {
      const f = furniture ? furniture(i + 1, pages.length) : null;
      if (!f) return p.join('\n');
      return [f.top, ...p, f.bottom].filter((x) => x !== undefined && x !== null && x !== '').join('\n');
    })
    .join('\n\f\n');
}
