/**
 * Content-keyed structured detections (spec-format §7.3): "usage limit reached",
 * "401 unauthorized" … found on screen and reported as `signal_detected`. Signals never
 * move the FSM; a per-rule gate keeps them from repeating every frame.
 */
import type { ResolvedSection } from '../core/eval/types.js';
import type { SignalRule } from '../core/spec/types.js';
import { compileRegex, execRow, RowCache, sectionText } from '../core/eval/index.js';

const DEFAULT_COOLDOWN_MS = 60_000;
const MAX_PARAMS = 8;
const MAX_PARAM_CHARS = 120;

export interface SignalHit {
  id: string;
  kind: string;
  params: Record<string, string>;
  text: string;
}

interface Compiled {
  rule: SignalRule;
  re: RegExp;
  lastAt: number | null;
  lastParamsKey: string | null;
}

function cleanParam(value: string): string {
  return value.replace(/[\x00-\x1f\x7f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_PARAM_CHARS);
}

/** Compiled signal rules with their emission gates. Rules are assumed validated. */
export class SignalRuleSet {
  #rules: Compiled[];
  /** Per-row rule results carried across frames (rules run on every evaluation; rows repeat). */
  readonly #rows: RowCache;
  /** Whether a rule reads a section: only then does `evaluate` need the viewport's sections (else pass []). */
  readonly needsSections: boolean;

  /**
   * @param rules - the spec's signal rules.
   * @param rows - the viewport row cache to share (a driver's, so viewport frames are diffed once
   *   for every reader of the viewport); a cache of its own by default.
   */
  constructor(rules: readonly SignalRule[] | undefined, rows: RowCache = new RowCache()) {
    this.#rows = rows;
    this.#rules = [];
    for (const rule of rules ?? []) {
      const flags = (rule.flags ?? '').replace(/g/g, '');
      const re = compileRegex(rule.pattern, flags);
      if (re) this.#rules.push({ rule, re, lastAt: null, lastParamsKey: null });
    }
    this.needsSections = this.#rules.some((c) => c.rule.section !== undefined);
  }

  /**
   * Evaluates every rule on the viewport (its rows, and its text joined on demand) and returns
   * the hits the gates let through.
   */
  evaluate(sections: ResolvedSection[], viewportLines: readonly string[], viewportText: () => string, now: number): SignalHit[] {
    const hits: SignalHit[] = [];
    for (const c of this.#rules) {
      // An unscoped per-line rule reads the rows directly: no join, no split.
      const m = c.rule.section === undefined && !c.rule.multiline
        ? this.#matchLines(c, viewportLines)
        : this.#match(c, sectionText(sections, c.rule.section, viewportText()));
      if (!m) continue;
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {}).slice(0, MAX_PARAMS)) if (typeof v === 'string') params[k] = cleanParam(v);
      const key = JSON.stringify(params);
      const cooldown = c.rule.cooldown_ms ?? DEFAULT_COOLDOWN_MS;
      // Identical params never repeat; changed params re-emit only after the cooldown.
      if (c.lastParamsKey === key) continue;
      if (c.lastAt !== null && now - c.lastAt < cooldown) continue;
      c.lastAt = now;
      c.lastParamsKey = key;
      hits.push({ id: c.rule.id, kind: c.rule.kind, params, text: cleanParam(m[0]) });
    }
    return hits;
  }

  #match(c: Compiled, hay: string): RegExpExecArray | null {
    c.re.lastIndex = 0;
    if (c.rule.multiline) return c.re.exec(hay);
    return this.#matchLines(c, hay.split('\n'));
  }

  #matchLines(c: Compiled, lines: readonly string[]): RegExpExecArray | null {
    const i = this.#rows.regex(c.re, lines).firstMatch(0, lines.length);
    return i === -1 ? null : execRow(c.re, lines[i]!);
  }
}
