/** A text run from pdf.js (`TextItem`), reduced to what line reconstruction needs. */
export interface RawTextItem {
  str: string;
  /** Text-space to user-space matrix `[a, b, c, d, e, f]`. */
  transform: number[];
  width: number;
  height: number;
  dir?: string;
}

/** Tuning for {@link reconstructLines}; the defaults suit typical business documents. */
export interface LineOptions {
  /** Items whose baselines differ by less than this fraction of the font size share a line. Default 0.5. */
  lineTolerance?: number;
  /** A horizontal gap wider than this many font sizes becomes a tab (a table column). Default 1.5. */
  tabGap?: number;
  /** A gap wider than this many font sizes becomes a space. Default 0.15. */
  spaceGap?: number;
  /** A vertical step larger than this many font sizes starts a new paragraph (blank line). Default 2. */
  paragraphGap?: number;
}

interface Placed {
  str: string;
  x: number;
  y: number;
  size: number;
  width: number;
  rtl: boolean;
  quadrant: number;
  order: number;
}

interface Line {
  items: Placed[];
  y: number;
  size: number;
}

function multiply(m1: number[], m2: number[]): number[] {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/**
 * Rotates a point so that text running in `quadrant` (0 = left-to-right, 1 = top-to-bottom, …
 * in y-down viewport space) runs left to right, with following lines below.
 */
function rotate(x: number, y: number, quadrant: number): [number, number] {
  switch (quadrant) {
    case 1:
      return [y, -x];
    case 2:
      return [-x, -y];
    case 3:
      return [-y, x];
    default:
      return [x, y];
  }
}

function place(items: RawTextItem[], viewportTransform: number[]): Placed[] {
  const placed: Placed[] = [];
  items.forEach((item, order) => {
    if (typeof item.str !== 'string' || item.str.trim() === '' || !Array.isArray(item.transform)) return;
    const m = multiply(viewportTransform, item.transform);
    if (!m.every(Number.isFinite)) return;
    const angle = Math.atan2(m[1], m[0]);
    const quadrant = ((Math.round(angle / (Math.PI / 2)) % 4) + 4) % 4;
    const size = Math.hypot(m[2], m[3]) || Math.abs(item.height) || 1;
    placed.push({
      str: item.str,
      x: m[4],
      y: m[5],
      size,
      width: Math.abs(item.width) || 0,
      rtl: item.dir === 'rtl',
      quadrant,
      order,
    });
  });
  return placed;
}

function clusterLines(items: Placed[], tolerance: number): Line[] {
  const sorted = [...items].sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const item of sorted) {
    if (current && Math.abs(item.y - current.y) <= tolerance * Math.max(item.size, current.size)) {
      current.items.push(item);
      continue;
    }
    current = { items: [item], y: item.y, size: item.size };
    lines.push(current);
  }
  for (const line of lines) line.size = line.items.reduce((m, i) => Math.max(m, i.size), 0);
  return lines;
}

function joinLine(line: Line, o: Required<LineOptions>): string {
  const rtlChars = line.items.filter((i) => i.rtl).reduce((n, i) => n + i.str.length, 0);
  const total = line.items.reduce((n, i) => n + i.str.length, 0);
  const rtl = rtlChars * 2 > total;
  const items = [...line.items].sort((a, b) => (rtl ? b.x + b.width - (a.x + a.width) : a.x - b.x));
  let out = '';
  let prev: Placed | undefined;
  for (const item of items) {
    if (prev) {
      const em = Math.max(prev.size, item.size);
      const gap = rtl ? prev.x - (item.x + item.width) : item.x - (prev.x + prev.width);
      // Same glyphs drawn twice with a small offset is how some producers fake bold.
      if (item.str === prev.str && Math.abs(item.x - prev.x) < 0.3 * em) continue;
      if (gap > o.tabGap * em) out += '\t';
      else if (gap > o.spaceGap * em && !out.endsWith(' ') && !item.str.startsWith(' ')) out += ' ';
    }
    out += item.str;
    prev = item;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/**
 * Rebuilds a page's reading text from positioned text items: items are grouped into lines by
 * baseline (tolerance relative to font size), each line is read left to right (right to left
 * when mostly RTL), and wide gaps become tabs so table rows read row by row. The dominant text
 * direction is normalised first, so rotated pages read normally; runs in other directions
 * (margin stamps, vertical labels) follow as lines of their own.
 * `viewportTransform` is `page.getViewport({ scale: 1 }).transform`.
 */
export function reconstructLines(items: RawTextItem[], viewportTransform: number[], options: LineOptions = {}): string {
  const o: Required<LineOptions> = {
    lineTolerance: options.lineTolerance ?? 0.5,
    tabGap: options.tabGap ?? 1.5,
    spaceGap: options.spaceGap ?? 0.15,
    paragraphGap: options.paragraphGap ?? 2,
  };
  const placed = place(items, viewportTransform);
  if (placed.length === 0) return '';
  const weight = [0, 0, 0, 0];
  for (const p of placed) weight[p.quadrant] += p.str.length;
  const dominant = weight.indexOf(Math.max(...weight));
  const main: Placed[] = [];
  const others: Placed[] = [];
  for (const p of placed) {
    if (p.quadrant === dominant) {
      const [x, y] = rotate(p.x, p.y, dominant);
      main.push({ ...p, x, y });
    } else {
      others.push(p);
    }
  }
  const out: string[] = [];
  let prevLine: Line | undefined;
  for (const line of clusterLines(main, o.lineTolerance)) {
    const text = joinLine(line, o);
    if (text === '') continue;
    if (prevLine && line.y - prevLine.y > o.paragraphGap * Math.max(line.size, prevLine.size)) out.push('');
    out.push(text);
    prevLine = line;
  }
  if (others.length > 0) {
    out.push('');
    others.sort((a, b) => a.order - b.order);
    for (const p of others) out.push(p.str.trim());
  }
  return out.join('\n');
}

/** Text items placed in viewport space (y down), with their direction quadrant; for the layout renderer. */
export function placeItems(
  items: RawTextItem[],
  viewportTransform: number[],
): Array<{ str: string; x: number; y: number; size: number; width: number; quadrant: number }> {
  return place(items, viewportTransform);
}

/** Turns a point so that text running in `quadrant` runs left to right. */
export { rotate as rotatePoint };
