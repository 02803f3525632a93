/**
 * The `tables` plugin, with invoice2data's semantics: the body runs from the first `start` match
 * to the first `end` match (both searched from the top); each line matching `body` adds its named
 * groups to the output — a name starting or ending with `date` is a date, one starting with
 * `amount` a number, others follow `types` or the table's `fields.X.type`. A name seen on several
 * lines becomes a list, which `fields.X.group` can combine. A date that does not parse discards
 * the table.
 */
import { combineValues } from './template-regex.js';
import { compiled, splitBy, type EngineContext } from './template-lines.js';
import type { TemplateTable } from './template-schema.js';

export type TableValue = string | number | null | Array<string | number | null>;

/** The columns one table yields, or null when it yields nothing (with the reason in warnings). */
export function readTable(
  table: TemplateTable,
  text: string,
  ctx: EngineContext,
  label: string,
): Record<string, TableValue> | null {
  const start = compiled(ctx, `${label}.start`, table.start);
  const end = compiled(ctx, `${label}.end`, table.end);
  const body = compiled(ctx, `${label}.body`, table.body);
  if (!start || !end || !body) return null;
  const s = start.exec(text, ctx.budget);
  const e = end.exec(text, ctx.budget);
  if (!s || !e) return null;
  const sep =
    table.line_separator !== undefined ? compiled(ctx, `${label}.line_separator`, table.line_separator) : null;
  const out: Record<string, TableValue> = {};
  for (const line of splitBy(text.slice(s.end, Math.max(s.end, e.index)), sep, ctx.budget)) {
    if (ctx.overBudget()) break;
    if (line.replace(/^\n+|\n+$/g, '') === '' || line.trim() === '') continue;
    const m = body.exec(line, ctx.budget);
    if (!m) continue;
    for (const [name, raw] of Object.entries(m.named)) {
      const text2 = raw ?? '';
      let value: string | number | null = text2;
      const type =
        name.startsWith('date') || name.endsWith('date')
          ? 'date'
          : name.startsWith('amount')
            ? 'float'
            : (table.types?.[name] ?? table.fields?.[name]?.type);
      if (type) {
        const c = ctx.convert(text2, type);
        if (!c.ok) {
          ctx.warnings.push(`${label}: column ${name}: ${c.reason}`);
          return null;
        }
        if (type === 'date' && c.value === null) {
          ctx.warnings.push(
            `${label}: column ${name}: "${text2.slice(0, 40)}" is not a date; the table is discarded (as invoice2data does)`,
          );
          return null;
        }
        value = c.value;
      }
      const prev = out[name];
      if (prev === undefined) out[name] = value;
      else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
  }
  for (const [name, f] of Object.entries(table.fields ?? {})) {
    if (!f.group || out[name] === undefined) continue;
    const values = Array.isArray(out[name])
      ? (out[name] as Array<string | number | null>)
      : [out[name] as string | number | null];
    const combined = combineValues(values, f.group, ctx, `${label}.fields.${name}`);
    if (combined !== undefined) out[name] = combined;
  }
  return Object.keys(out).length > 0 ? out : null;
}
