/**
 * The agent's own work still running, read off the live screen with the spec's
 * `background_work` rules (./../core/spec/background-work.ts): a background shell, a sub-agent.
 * Read on every evaluation and reported beside the state, so an agent idle at its prompt with
 * work of its own under way is not taken for done (docs/spec-format.md, "Background work").
 *
 * @module
 */
import type { ResolvedSection } from '../core/eval/types.js';
import type { BackgroundWorkRule } from '../core/spec/index.js';
import { compileRegex, execRow, type RowCache } from '../core/eval/index.js';

/** What runs in the background: the total, in words ("1 background shell"), and per rule. */
export interface BackgroundWork {
  count: number;
  what: string;
  items: Array<{ id: string; count: number }>;
}

interface Compiled {
  rule: BackgroundWorkRule;
  re: RegExp;
  noun: string;
}

/** Compiled rules (assumed validated) and the last answer, kept while the work stays the same. */
export class BackgroundWorkReader {
  readonly #rules: Compiled[] = [];
  /** Shares the driver's viewport row cache: rows that did not change are not tested again. */
  readonly #rows: RowCache;
  #last: BackgroundWork | null = null;
  /** Whether a rule reads a section: only then does `read` need the viewport's sections. */
  readonly needsSections: boolean;

  constructor(rules: readonly BackgroundWorkRule[] | undefined, rows: RowCache) {
    this.#rows = rows;
    for (const rule of rules ?? []) {
      const re = compileRegex(rule.pattern, (rule.flags ?? '').replace(/[gy]/g, ''));
      if (re) this.#rules.push({ rule, re, noun: rule.noun ?? `background ${rule.id}` });
    }
    this.needsSections = this.#rules.some((c) => c.rule.section !== undefined);
  }

  /** True when the spec declares no background work (nothing to read). */
  get isEmpty(): boolean {
    return this.#rules.length === 0;
  }

  /**
   * The background work the viewport shows, or null. `sections` are resolved over `viewport`
   * (pass [] when {@link needsSections} is false); a rule's section missing from the screen shows none.
   */
  read(sections: readonly ResolvedSection[], viewport: readonly string[]): BackgroundWork | null {
    const items: BackgroundWork['items'] = [];
    for (const c of this.#rules) {
      const count = this.#count(c, sections, viewport);
      if (count > 0) items.push({ id: c.rule.id, count });
    }
    return this.#keep(items);
  }

  #count(c: Compiled, sections: readonly ResolvedSection[], viewport: readonly string[]): number {
    let from = 0;
    let to = viewport.length;
    if (c.rule.section !== undefined) {
      const s = sections.find((x) => x.id === c.rule.section);
      if (!s) return 0;
      from = s.fromLine;
      to = Math.min(s.toLine, viewport.length);
    }
    const tester = this.#rows.regex(c.re, viewport);
    let count = 0;
    for (let i = from; i < to; i += 1) {
      if (!tester.test(i)) continue;
      const group = c.rule.count_group === undefined ? undefined : execRow(c.re, viewport[i]!)?.[c.rule.count_group];
      // A row whose group holds no whole number ("two shells") still shows work: it counts one.
      count += group !== undefined && /^\d{1,6}$/.test(group) ? Number(group) : 1;
    }
    return count;
  }

  /** The answer for `items`: the previous object when nothing changed. */
  #keep(items: BackgroundWork['items']): BackgroundWork | null {
    const last = this.#last;
    if (items.length === 0) return (this.#last = null);
    if (last && last.items.length === items.length && last.items.every((it, i) => it.id === items[i]!.id && it.count === items[i]!.count)) return last;
    const nouns = new Map(this.#rules.map((c) => [c.rule.id, c.noun]));
    const what = items.map((it) => `${it.count} ${nouns.get(it.id)}${it.count === 1 ? '' : 's'}`).join(', ');
    return (this.#last = { count: items.reduce((n, it) => n + it.count, 0), what, items });
  }
}
