/**
 * Cheap template choice. Choosing among hundreds of templates used to prepare the text for
 * each template's options and run each keyword regex; most of that time went into `replace`
 * options. Two things make it cheap without changing which template is chosen:
 *
 * - A plan per template (made once per template object): for each keyword, strings every match
 *   must contain, kept only where the template's `replace` rules provably cannot create them.
 *   Such a string missing from the text before replacements rules the template out with an
 *   `includes`, before any text is prepared or any regex runs.
 * - Prepared texts shared within a document: each base option set and each prefix of a
 *   `replace` list is computed once, so templates with the same rules share the work.
 */
import {
  compileUserRegex,
  foldCase,
  matchUniverse,
  parseReplacement,
  requiredLiterals,
  topLevelItems,
  universeHas,
  type RegexBudget,
  type TopItem,
} from '../../lib/user-regex/index.js';
import { applyReplace, prepareBase } from './template-prepare.js';
import type { TemplateDef, TemplateOptions } from './template-schema.js';

/** A string keyword `keyword` needs in the text before replacements. */
export interface KeywordCheck {
  keyword: number;
  literal: string;
  /** Look in the case-folded text. */
  caseless: boolean;
  /**
   * The last replace rule that could create the literal (-1: none). The check holds when rules
   * 0 to this one change nothing in the document (none of their patterns occurs in it).
   */
  unsafeUpTo: number;
}

export interface TemplatePlan {
  base: Pick<TemplateOptions, 'remove_whitespace' | 'remove_accents' | 'lowercase'>;
  baseKey: string;
  rules: ReadonlyArray<readonly [string, string]>;
  /** Each rule as a key. */
  ruleKeys: string[];
  /** Key of the text after rules[0..i]. */
  stepKeys: string[];
  /** Sound literal requirements: those needing no rule test first, then the most selective (longest). */
  checks: KeywordCheck[];
}

/** Whether `a` and `b` can overlap by at least one character anywhere (b shifted along a). */
function overlaps(a: string, b: string): boolean {
  for (let s = -(b.length - 1); s < a.length; s++) {
    let ok = true;
    for (let j = Math.max(0, s); j < Math.min(a.length, s + b.length) && ok; j++) ok = a[j] === b[j - s];
    if (ok) return true;
  }
  return false;
}

/**
 * Whether each copied group in a replacement sits next to what it sat next to in the text:
 * a group that opens the pattern after the text before the match, a group that closes it before
 * the text after, and a group right after the group it followed in the pattern. Runs of such
 * pieces are contiguous text of the input.
 */
function copiesStayContiguous(parts: ReadonlyArray<string | number>, items: TopItem[]): boolean {
  const solid = items.filter((it) => !it.zeroWidth);
  const at = (g: number): number => solid.findIndex((it) => it.group === g && !it.quantified);
  // null stands for the text before or after the match.
  const seq: Array<string | number | null> = [null, ...parts, null];
  for (let k = 1; k < seq.length; k++) {
    const [left, right] = [seq[k - 1], seq[k]];
    if (typeof left === 'string' || typeof right === 'string') continue; // fixed text separates
    if (left === null && right === null) return false; // an empty replacement joins text
    if (left === null) {
      if (!(right === 0 || at(right as number) === 0)) return false;
    } else if (right === null) {
      if (!(left === 0 || (solid.length > 0 && at(left) === solid.length - 1))) return false;
    } else {
      const a = at(left);
      if (a < 0 || left === 0 || right === 0 || at(right) !== a + 1) return false;
    }
  }
  return true;
}

/**
 * Whether applying `rule` can never make `literal` appear where it was not: then the literal in
 * the text after the rule implies the literal in the text before it. Three ways to know:
 * - the replacement is fixed text the literal cannot overlap, so an occurrence lies wholly in
 *   text the rule copied unchanged;
 * - the literal has no character of the replacement's fixed text, and every copied group stays
 *   next to what it was next to (see {@link copiesStayContiguous});
 * - the literal has no character of the fixed text nor any a match can hold.
 * An empty replacement can join text: never safe.
 */
export function ruleCannotCreate(rule: readonly [string, string], literal: string, caseless: boolean): boolean {
  const [pattern, repl] = rule;
  const r = compileUserRegex(pattern);
  if (!r.ok) return true; // the rule is skipped
  if (typeof repl !== 'string') return false;
  const parts = parseReplacement(repl, r.regex);
  const fixed = parts.filter((p): p is string => typeof p === 'string').join('');
  if (fixed === '') return false;
  const out = caseless ? foldCase(fixed) : fixed;
  if (parts.every((p) => typeof p === 'string')) return !overlaps(literal, out);
  if ([...literal].some((ch) => out.includes(ch))) return false;
  const items = topLevelItems(pattern);
  if (items && copiesStayContiguous(parts, items)) return true;
  const universe = matchUniverse(pattern);
  return ![...literal].some((ch) => universeHas(universe, ch));
}

const plans = new WeakMap<TemplateDef, TemplatePlan>();

/**
 * The selection plan of a template, made once per template object (template definitions are
 * treated as immutable once used for extraction).
 */
export function templatePlan(t: TemplateDef): TemplatePlan {
  const cached = plans.get(t);
  if (cached) return cached;
  const o = t.options ?? {};
  const base = { remove_whitespace: o.remove_whitespace, remove_accents: o.remove_accents, lowercase: o.lowercase };
  const baseKey = `${o.remove_whitespace ? 1 : 0}${o.remove_accents ? 1 : 0}${o.lowercase ? 1 : 0}`;
  const rules = Array.isArray(o.replace) ? o.replace : [];
  const ruleKeys = rules.map((r) => JSON.stringify(r));
  const stepKeys = ruleKeys.map((_, i) => `${baseKey}\u0000${ruleKeys.slice(0, i + 1).join(',')}`);
  const checks: KeywordCheck[] = [];
  (Array.isArray(t.keywords) ? t.keywords : []).forEach((k, keyword) => {
    const req = requiredLiterals(k);
    for (const literal of req?.parts ?? []) {
      let unsafeUpTo = -1;
      rules.forEach((r, i) => {
        if (!Array.isArray(r) || !ruleCannotCreate(r, literal, req!.caseless)) unsafeUpTo = i;
      });
      checks.push({ keyword, literal, caseless: req!.caseless, unsafeUpTo });
    }
  });
  checks.sort((a, b) => a.unsafeUpTo - b.unsafeUpTo || b.literal.length - a.literal.length);
  const plan = { base, baseKey, rules, ruleKeys, stepKeys, checks };
  plans.set(t, plan);
  return plan;
}

/** One document's text as each template sees it, each distinct preparation computed once. */
export class PreparedTexts {
  private readonly texts = new Map<string, string>();
  private readonly folded = new Map<string, string>();
  private readonly found = new Map<string, Map<string, boolean>>();
  /** Whether a rule's pattern occurs in a base text, by base key and rule. */
  private readonly effective = new Map<string, boolean>();

  constructor(
    readonly source: string,
    private readonly budget?: RegexBudget,
  ) {}

  private base(plan: TemplatePlan): string {
    let s = this.texts.get(plan.baseKey);
    if (s === undefined) {
      s = prepareBase(this.source, plan.base);
      this.texts.set(plan.baseKey, s);
    }
    return s;
  }

  /** The text prepared by all the template's options. */
  text(t: TemplateDef): string {
    const plan = templatePlan(t);
    let s = this.base(plan);
    for (let i = 0; i < plan.rules.length; i++) {
      const key = plan.stepKeys[i];
      const next = this.texts.get(key) ?? applyReplace(s, plan.rules[i], this.budget);
      this.texts.set(key, next);
      s = next;
    }
    return s;
  }

  /**
   * Whether rules 0..`upTo` all leave the document unchanged: each pattern is absent from the
   * base text (which then is also the text each of them receives).
   */
  unchangedThrough(plan: TemplatePlan, upTo: number): boolean {
    for (let i = 0; i <= upTo; i++) {
      const rule = plan.rules[i];
      const key = `${plan.baseKey}\u0000${plan.ruleKeys[i]}`;
      let hit = this.effective.get(key);
      if (hit === undefined) {
        const r = Array.isArray(rule) ? compileUserRegex(rule[0]) : null;
        // A pattern that does not compile is skipped by the preparation: it changes nothing.
        hit = r === null ? true : r.ok ? r.regex.test(this.base(plan), this.budget) : false;
        this.effective.set(key, hit);
      }
      if (hit) return false;
    }
    return true;
  }

  /** Whether the check's literal is in the text before replacements. */
  has(plan: TemplatePlan, check: KeywordCheck): boolean {
    const variant = check.caseless ? `${plan.baseKey}i` : plan.baseKey;
    let memo = this.found.get(variant);
    if (!memo) this.found.set(variant, (memo = new Map()));
    let hit = memo.get(check.literal);
    if (hit === undefined) {
      let s = this.base(plan);
      if (check.caseless) {
        const f = this.folded.get(plan.baseKey) ?? foldCase(s);
        this.folded.set(plan.baseKey, f);
        s = f;
      }
      hit = s.includes(check.literal);
      memo.set(check.literal, hit);
    }
    return hit;
  }
}

/** A keyword of `t` certainly absent from the document (its index), or null when the regexes must decide. */
export function ruledOut(t: TemplateDef, texts: PreparedTexts): number | null {
  const plan = templatePlan(t);
  // Checks come in order of the rules they depend on: once a rule changes the text, no later
  // check can be used.
  for (const c of plan.checks) {
    if (c.unsafeUpTo >= 0 && !texts.unchangedThrough(plan, c.unsafeUpTo)) return null;
    if (!texts.has(plan, c)) return c.keyword;
  }
  return null;
}
