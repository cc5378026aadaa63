/**
 * Condition evaluation: one guard tree → a `CondResult` tree (spec-format §3).
 *
 * Pure and total: the clock is a parameter, regexes come from the compile-once cache, and
 * any input — odd objects, non-array `all`, nesting past {@link MAX_CONDITION_DEPTH} —
 * yields a false/unknown result rather than an exception.
 */
import type {
  ChangedCondition,
  Condition,
  ElapsedCondition,
  OscCondition,
  RegexCondition,
  SignalCondition,
  StableCondition,
  WindowTitleCondition,
} from '../spec/types.js';
import type { CondResult, Cursor, EvalExtras, FsmClock, OscValue, RegexMemo, ResolvedSection, TraceEntry } from './types.js';
import { conditionKind } from './condition-kind.js';
import { MAX_CONDITION_DEPTH } from './limits.js';
import { sameJoinedLines } from './line-compare.js';
import { compileRegex, execRegex, execRow } from './regex-cache.js';
import { DEFAULT_ROW_CACHE, type RowCache } from './row-tester.js';
import type { FrameReads, StaleLeaves } from './frame-reads.js';
import { isLineLocal } from './line-local.js';
import { requiredLiteral } from './required-literal.js';
import { findSection, sectionText } from './sections.js';
import { stableRegionKey } from './stable-regions.js';

export { MAX_CONDITION_DEPTH } from './limits.js';

/** Everything one condition evaluation may look at. */
export interface ConditionContext {
  /** Screen lines (split by `splitScreenLines`). */
  lines: string[];
  /** The cleaned screen: `lines.join('\n')`. */
  screen: string;
  /** Sections resolved over `lines`. */
  sections: ResolvedSection[];
  /** Cursor in `lines` coordinates; cursor bounds and `changed` need it. */
  cursor?: Cursor;
  /** The previous evaluation's lines, for `changed`. */
  prevLines?: string[];
  clock: FsmClock;
  extras?: EvalExtras;
  /** When given, regex/changed/title leaves append legacy trace lines here. */
  trace?: TraceEntry[];
  /** Label used in trace lines (`state[<label>] …`); the FSM passes `<from>→<to>`. */
  traceLabel?: string;
}

/** Longest `matchedText` kept (debug only). */
const MATCHED_TEXT_MAX_CHARS = 160;

/** Thrown internally when nesting passes the cap; caught at the API boundary. */
class DepthExceeded extends Error {}

/** One evaluation's inputs, normalised, plus its per-frame memos. */
class EvalState {
  /** Viewport-clipped haystacks by section id ('' = whole screen), built at most once (the map only when one is). */
  clipped: Map<string, string> | undefined;
  #screen: string | undefined;

  constructor(
    private readonly ctx: Partial<ConditionContext>,
    readonly lines: string[],
    readonly sections: ResolvedSection[],
    readonly cursor: Cursor | undefined,
    readonly prevLines: string[] | undefined,
    readonly now: number,
    readonly enteredAt: number,
    readonly regionLastChangedAt: Map<number | string, number> | undefined,
    readonly windowTitle: string,
    readonly osc: ReadonlyMap<number, OscValue> | undefined,
    readonly viewportStartRow: number,
    readonly trace: TraceEntry[] | undefined,
    public label: string,
    readonly regexMemo: RegexMemo | undefined,
    readonly rowCache: RowCache,
    /** Build `detail` and `matchedText` (false: results and countdowns only, see `EvalExtras.explain`). */
    readonly explain: boolean,
    /** Where this evaluation notes what it reads (see FrameReads). */
    readonly reads: FrameReads | undefined,
    /** Leaf results to take instead of reading the frame (a re-decision, see `EvalExtras.reuse`). */
    readonly reuse: FrameReads | undefined,
    /** Leaves of `reuse` to evaluate afresh all the same. */
    readonly stale: StaleLeaves | undefined,
  ) {}

  /** The cleaned screen, joined only if a leaf needs it (line-local leaves read rows). */
  get screen(): string {
    this.reads?.whole();
    if (this.#screen === undefined) {
      const given = this.ctx.screen;
      this.#screen = typeof given === 'string' ? given : this.lines.join('\n');
    }
    return this.#screen;
  }
}

/**
 * Evaluates `cond` against the context. Classification follows the reference evaluator's
 * order (see `conditionKind`); an unrecognised object is `{kind:'all', result:false,
 * detail:'unknown condition'}`.
 *
 * @example
 * evaluateCondition({ matches: 'Working \\(' }, ctx).result // true while the spinner shows
 */
export function evaluateCondition(cond: Condition, ctx: ConditionContext): CondResult {
  return evaluateWith(cond, buildState(ctx));
}

/**
 * An evaluator for several guards over one frame: per-frame work (the joined screen, clipped
 * haystacks) is shared between them. The FSM evaluates every outgoing transition of a frame
 * with one; only the trace label changes.
 */
export function frameEvaluator(ctx: ConditionContext): (cond: Condition, traceLabel?: string) => CondResult {
  const st = buildState(ctx);
  return (cond, traceLabel) => {
    if (traceLabel !== undefined) st.label = traceLabel;
    return evaluateWith(cond, st);
  };
}

/** A guard's decision: its result and countdown, exactly as in its `CondResult`. */
export interface CondDecision {
  result: boolean;
  remainingMs: number | undefined;
}

/**
 * Like {@link frameEvaluator}, but each call gives only what a decision needs — the result and
 * the countdown of the guard's `CondResult` — without building the tree or any debug string.
 * The object returned is reused by the next call.
 */
export function frameDecider(ctx: ConditionContext): (cond: Condition) => CondDecision {
  // A decision has no use for debug strings, whatever the extras say.
  const st = buildState(ctx, false);
  const out: CondDecision = { result: false, remainingMs: undefined };
  return (cond) => {
    try {
      decideNode(cond, st, 1, 0, out);
    } catch {
      // As evaluateWith: too deep, or a throwing getter — fail closed, no countdown.
      out.result = false;
      out.remainingMs = undefined;
    }
    return out;
  };
}

/**
 * `evalNode` reduced to (result, remainingMs), written into `out`: the composites mirror the tree
 * builder's (no short-circuit either: the same leaves run, so the same memos fill), and leaves
 * are evaluated by the tree builder itself.
 */
function decideNode(cond: unknown, st: EvalState, depth: number, negations: number, out: CondDecision): void {
  if (depth > MAX_CONDITION_DEPTH) throw new DepthExceeded();
  const c = cond as Record<string, unknown>;
  switch (conditionKind(cond)) {
    case 'all': {
      const list = c.all;
      if (!Array.isArray(list)) return decided(out, false, undefined);
      let result = true;
      let remainingMs = 0;
      let hole = false;
      for (let i = 0; i < list.length; i += 1) {
        // A hole is skipped by the tree builder's map/every, then fails it when the result is false.
        if (!(i in list)) { hole = true; continue; }
        decideNode(list[i], st, depth + 1, negations, out);
        if (!out.result) {
          result = false;
          remainingMs = Math.max(remainingMs, out.remainingMs ?? 0);
        }
      }
      if (hole && !result) throw new TypeError('hole in all()');
      return decided(out, result, result ? 0 : remainingMs);
    }
    case 'any': {
      const list = c.any;
      if (!Array.isArray(list)) return decided(out, false, undefined);
      let result = false;
      let soonest = Infinity;
      let hole = false;
      for (let i = 0; i < list.length; i += 1) {
        if (!(i in list)) { hole = true; continue; }
        decideNode(list[i], st, depth + 1, negations, out);
        if (out.result) result = true;
        else soonest = Math.min(soonest, out.remainingMs ?? Infinity);
      }
      if (hole && !result) throw new TypeError('hole in any()');
      return decided(out, result, result || !Number.isFinite(soonest) ? 0 : soonest);
    }
    case 'not': {
      const inner = c.not;
      if (!inner || typeof inner !== 'object') return decided(out, false, 0);
      decideNode(inner, st, depth + 1, negations + 1, out);
      return decided(out, !out.result, 0);
    }
    default: {
      // Leaves (and unknown objects) are the tree builder's own; with explain off they build no strings.
      const leaf = evalNode(cond, st, depth, negations);
      return decided(out, leaf.result, leaf.remainingMs);
    }
  }
}

function decided(out: CondDecision, result: boolean, remainingMs: number | undefined): void {
  out.result = result;
  out.remainingMs = remainingMs;
}

function evaluateWith(cond: Condition, st: EvalState): CondResult {
  try {
    return evalNode(cond, st, 1, 0);
  } catch (err) {
    if (err instanceof DepthExceeded) {
      return {
        kind: 'all',
        result: false,
        detail: `condition nested deeper than ${MAX_CONDITION_DEPTH} levels; flatten the guard`,
      };
    }
    // Last-resort guard (e.g. a Proxy or getter that throws): fail closed, never crash.
    return { kind: 'all', result: false, detail: `condition could not be evaluated: ${String(err)}` };
  }
}

function buildState(ctx: ConditionContext, explainOverride?: boolean): EvalState {
  const c = (ctx && typeof ctx === 'object' ? ctx : {}) as Partial<ConditionContext>;
  const lines = Array.isArray(c.lines) ? c.lines : [];
  const clock = (c.clock && typeof c.clock === 'object' ? c.clock : {}) as Partial<FsmClock>;
  const extras = (c.extras && typeof c.extras === 'object' ? c.extras : {}) as EvalExtras;
  const vsr = extras.viewportStartRow;
  const explain = explainOverride ?? extras.explain !== false;
  const cursor = c.cursor && typeof c.cursor === 'object' ? c.cursor : undefined;
  return new EvalState(
    c,
    lines,
    Array.isArray(c.sections) ? c.sections : [],
    cursor,
    Array.isArray(c.prevLines) ? c.prevLines : undefined,
    finiteOr(clock.now, 0),
    finiteOr(clock.stateEnteredAt, 0),
    clock.regionLastChangedAt instanceof Map ? clock.regionLastChangedAt : undefined,
    typeof extras.windowTitle === 'string' ? extras.windowTitle : '',
    extras.osc instanceof Map ? extras.osc : undefined,
    typeof vsr === 'number' && Number.isFinite(vsr) && vsr > 0 ? Math.floor(vsr) : 0,
    Array.isArray(c.trace) ? c.trace : undefined,
    typeof c.traceLabel === 'string' ? c.traceLabel : 'condition',
    extras.regexMemo instanceof Map ? extras.regexMemo : undefined,
    extras.rowCache ?? DEFAULT_ROW_CACHE,
    explain,
    extras.reads,
    // Recorded results carry no matchedText: they serve only a decision.
    explain ? undefined : extras.reuse,
    extras.stale,
  );
}

/** `negations` = how many `not`s sit above this node (odd = an absence check). */
function evalNode(cond: unknown, st: EvalState, depth: number, negations: number): CondResult {
  if (depth > MAX_CONDITION_DEPTH) throw new DepthExceeded();
  const c = cond as Record<string, unknown>;
  switch (conditionKind(cond)) {
    case 'all':
      return evalAll(c.all, st, depth, negations);
    case 'any':
      return evalAny(c.any, st, depth, negations);
    case 'not':
      return evalNot(c.not, st, depth, negations);
    case 'signal':
      return evalSignal(c as unknown as SignalCondition, st);
    case 'elapsed':
      return evalElapsed(c as unknown as ElapsedCondition, st);
    case 'stable':
      return evalStable(c as unknown as StableCondition, st);
    case 'regex':
      return evalRegex(c as unknown as RegexCondition, st, negations % 2 === 1);
    case 'title':
      return evalTitle(c as unknown as WindowTitleCondition, st);
    case 'osc':
      return evalOsc(c as unknown as OscCondition, st);
    case 'changed':
      return evalChanged(c as unknown as ChangedCondition, st);
    default:
      return { kind: 'all', result: false, detail: 'unknown condition' };
  }
}

// ── Composites ──────────────────────────────────────────────────────────────

function evalAll(list: unknown, st: EvalState, depth: number, negations: number): CondResult {
  if (!Array.isArray(list)) {
    return { kind: 'all', result: false, detail: `invalid all: expected an array of conditions, got ${describe(list)}` };
  }
  // No short-circuit: every child is evaluated so the debug tree is complete.
  const children = list.map((child) => evalNode(child, st, depth + 1, negations));
  const result = children.every((ch) => ch.result);
  let remainingMs = 0;
  if (!result) for (const ch of children) if (!ch.result) remainingMs = Math.max(remainingMs, ch.remainingMs ?? 0);
  return { kind: 'all', result, detail: st.explain ? `all(${children.length})` : '', remainingMs, children };
}

function evalAny(list: unknown, st: EvalState, depth: number, negations: number): CondResult {
  if (!Array.isArray(list)) {
    return { kind: 'any', result: false, detail: `invalid any: expected an array of conditions, got ${describe(list)}` };
  }
  const children = list.map((child) => evalNode(child, st, depth + 1, negations));
  const result = children.some((ch) => ch.result);
  // The soonest failing child that could flip true; a child without a countdown never will.
  let soonest = Infinity;
  if (!result) for (const ch of children) if (!ch.result) soonest = Math.min(soonest, ch.remainingMs ?? Infinity);
  const remainingMs = result || !Number.isFinite(soonest) ? 0 : soonest;
  return { kind: 'any', result, detail: st.explain ? `any(${children.length})` : '', remainingMs, children };
}

function evalNot(inner: unknown, st: EvalState, depth: number, negations: number): CondResult {
  if (!inner || typeof inner !== 'object') {
    // Fail closed: negating garbage must not produce an always-true guard.
    return { kind: 'not', result: false, detail: `invalid not: expected a condition object, got ${describe(inner)}`, remainingMs: 0 };
  }
  const child = evalNode(inner, st, depth + 1, negations + 1);
  return { kind: 'not', result: !child.result, detail: 'not', remainingMs: 0, children: [child] };
}

// ── Leaves ──────────────────────────────────────────────────────────────────

/** Shadow-only: always true for the FSM (spec-format §3.6). */
function evalSignal(c: SignalCondition, st: EvalState): CondResult {
  const equals = c.equals === false ? 'false' : 'true';
  return { kind: 'signal', result: true, detail: st.explain ? `signal ${String(c.signal)}=${equals} (shadow only, passes)` : '' };
}

function evalElapsed(c: ElapsedCondition, st: EvalState): CondResult {
  const age = st.now - st.enteredAt;
  const n: unknown = c.elapsed_ms;
  const detail = st.explain ? `elapsed ${age}ms / ${String(n)}ms` : '';
  if (typeof n !== 'number' || Number.isNaN(n)) return { kind: 'elapsed', result: false, detail };
  const result = age >= n;
  return { kind: 'elapsed', result, detail, remainingMs: result ? 0 : n - age };
}

function evalStable(c: StableCondition, st: EvalState): CondResult {
  const key = stableRegionKey(c);
  // Never seen changing in this state → stable since state entry (§3.4).
  const lastChanged = st.regionLastChangedAt?.get(key) ?? st.enteredAt;
  const stableFor = st.now - lastChanged;
  const n: unknown = c.stable_ms;
  const detail = st.explain ? stableDetail(c, stableFor, n) : '';
  if (typeof n !== 'number' || Number.isNaN(n)) return { kind: 'stable', result: false, detail };
  const result = stableFor >= n;
  return { kind: 'stable', result, detail, remainingMs: result ? 0 : n - stableFor };
}

function stableDetail(c: StableCondition, stableFor: number, n: unknown): string {
  const where =
    typeof c.section === 'string' && c.section
      ? `section=${c.section}`
      : typeof c.cursor_above === 'number' && c.cursor_above > 0
        ? `cursor_above=${c.cursor_above}`
        : 'screen';
  const ignore = typeof c.ignore_lines === 'string' && c.ignore_lines ? ' (ignore_lines)' : '';
  return `stable ${where}${ignore} ${stableFor}ms / ${String(n)}ms`;
}

/** What a regex leaf needs that depends only on its own fields, computed once per leaf object. */
interface RegexLeafFacts {
  section: unknown;
  matches: unknown;
  flagsField: unknown;
  where: unknown;
  detail: string;
  flags: string | null;
  re: RegExp | null;
  lineLocal: boolean;
  literal: string | null;
  /** `regexMemo` keys, by absence slot (present, absent). */
  memoKeys: [string, string];
}

const leafFacts = new WeakMap<object, RegexLeafFacts>();

function regexLeafFacts(c: RegexCondition): RegexLeafFacts {
  const known = leafFacts.get(c);
  // Checked against the leaf's fields, so an object edited in place is never read stale.
  if (known && known.section === c.section && known.matches === c.matches && known.flagsField === c.flags) return known;
  const where = c.section ?? '*';
  const flags = flagsOrDefault(c.flags);
  const re = typeof c.matches === 'string' && flags !== null ? compileRegex(c.matches, flags) : null;
  const facts: RegexLeafFacts = {
    section: c.section,
    matches: c.matches,
    flagsField: c.flags,
    where,
    detail: `${String(where)}~/${String(c.matches)}/`,
    flags,
    re,
    lineLocal: re !== null && isLineLocal(c.matches, flags!),
    literal: re !== null ? requiredLiteral(c.matches, flags!) : null,
    memoKeys: [0, 1].map((slot) => `${String(where)}\u0000${slot}\u0000${flags}\u0000${String(c.matches)}`) as [string, string],
  };
  leafFacts.set(c, facts);
  return facts;
}

function evalRegex(c: RegexCondition, st: EvalState, isAbsenceCheck: boolean): CondResult {
  const facts = regexLeafFacts(c);
  const reused = st.reuse && !st.stale?.has(c, isAbsenceCheck) ? st.reuse.leafResult(c, isAbsenceCheck) : undefined;
  if (reused !== undefined) return { kind: 'regex', result: reused, detail: facts.detail };
  const r = readRegex(c, facts, st, isAbsenceCheck);
  st.reads?.leaf(c, isAbsenceCheck, r.result);
  return r;
}

function readRegex(c: RegexCondition, facts: RegexLeafFacts, st: EvalState, isAbsenceCheck: boolean): CondResult {
  const { detail, re, lineLocal, literal } = facts;
  let m: string | null = null;
  const range = re ? haystackRange(c.section, st, isAbsenceCheck) : null;
  if (re && range && lineLocal) {
    // Same answer as testing the joined text (see line-local.ts), but unchanged rows reuse
    // last frame's result.
    const i = st.rowCache.regex(re, st.lines).firstMatch(range.from, range.to);
    if (i !== -1) m = st.explain ? execRow(re, st.lines[i]!)?.[0] ?? '' : '';
  } else if (re && range && !rowsContain(st, range, literal)) {
    // Every match must contain a literal that no row holds (it has no line break, so it cannot
    // straddle rows): no match, without joining the rows or running the regex.
    m = null;
  } else if (re) {
    // One exec serves both the decision and matchedText (the first match of exec is exactly
    // what test() would have found), so a true leaf costs one regex run, not two.
    st.reads?.leafText(c, isAbsenceCheck, range ? range.from : 0, range ? range.to : Infinity);
    m = memoizedMatch(st, facts.memoKeys[isAbsenceCheck ? 1 : 0], re, range, () => regexHaystack(c.section, st, isAbsenceCheck));
    st.reads?.leafTextDone();
  }
  if (m === null) {
    if (st.trace) pushTrace(st, 'state_skip', `state[${st.label}] regex cond ${detail} no match`);
    return { kind: 'regex', result: false, detail };
  }
  const cur = st.cursor;
  if (cur) {
    if (st.reads && hasCursorBounds(c)) st.reads.usesCursor = true;
    const violation = cursorViolation(c, cur);
    if (violation) {
      if (st.trace) pushTrace(st, 'state_skip', `state[${st.label}] ${violation}`);
      return { kind: 'regex', result: false, detail };
    }
  }
  if (!st.explain) return { kind: 'regex', result: true, detail };
  const at = cur ? ` cursor=(${cur.row},${cur.col})` : '';
  if (st.trace) pushTrace(st, 'state_match', `state[${st.label}] regex cond ${detail} matched${at}`);
  return withMatchedText({ kind: 'regex', result: true, detail }, m);
}

/**
 * The first match's text, or null. Reuses the caller's memo when the leaf's haystack is
 * unchanged: for a run of rows, when it is the same rows as last time, wherever they now stand
 * (rows come from the screen's row cache, so an unchanged row is the same string and compares
 * in O(1)) — the text is then not even joined; otherwise when the text is equal.
 */
function memoizedMatch(st: EvalState, key: string, re: RegExp, range: { from: number; to: number } | null, haystackOf: () => string): string | null {
  const memo = st.regexMemo;
  const hit = memo?.get(key);
  if (hit) {
    if (range && hit.lines && hit.to! - hit.from! === range.to - range.from && sameRowsAt(hit.lines, hit.from!, st.lines, range.from, range.to - range.from)) return hit.match;
    if (!range && hit.haystack !== undefined && hit.haystack === haystackOf()) return hit.match;
  }
  const haystack = haystackOf();
  const m = execRegex(re, haystack);
  const match = m ? m[0] : null;
  memo?.set(key, range ? { lines: st.lines, from: range.from, to: range.to, match } : { haystack, match });
  return match;
}

/** Whether some row in the range contains `literal` (true when there is no literal to check). */
function rowsContain(st: EvalState, range: { from: number; to: number }, literal: string | null): boolean {
  if (literal === null) return true;
  return st.rowCache.literal(literal, st.lines).firstMatch(range.from, range.to) !== -1;
}

/** Whether `a[aFrom..aFrom+n)` and `b[bFrom..bFrom+n)` are the same rows. */
function sameRowsAt(a: readonly string[], aFrom: number, b: readonly string[], bFrom: number, n: number): boolean {
  if (a === b && aFrom === bFrom) return true;
  if (aFrom + n > a.length || bFrom + n > b.length) return false;
  for (let k = 0; k < n; k += 1) if (a[aFrom + k] !== b[bFrom + k]) return false;
  return true;
}

/** specterm extension: a regex over the terminal window title (empty when unknown). */
function evalTitle(c: WindowTitleCondition, st: EvalState): CondResult {
  if (st.reads) st.reads.usesTitle = true;
  const detail = `title~/${String(c.window_title)}/`;
  const flags = flagsOrDefault(c.flags);
  const re = typeof c.window_title === 'string' && flags !== null ? compileRegex(c.window_title, flags) : null;
  const m = re ? execRegex(re, st.windowTitle) : null;
  if (st.trace) pushTrace(st, m ? 'state_match' : 'state_skip', `state[${st.label}] title cond ${detail} ${m ? 'matched' : 'no match'}`);
  return m ? withMatchedText({ kind: 'title', result: true, detail }, m[0]) : { kind: 'title', result: false, detail };
}

/**
 * specterm extension: a regex over the last payload of one OSC number, optionally held for
 * `held_ms` (its countdown then wakes the driver). No payload of that number yet: false.
 * Always evaluated afresh (never taken from a re-decision's reads): it reads no frame rows.
 */
function evalOsc(c: OscCondition, st: EvalState): CondResult {
  const detail = st.explain ? `osc${String(c.osc)}~/${String(c.payload)}/${typeof c.held_ms === 'number' ? ` held ${c.held_ms}ms` : ''}` : '';
  const flags = flagsOrDefault(c.flags);
  const re = typeof c.payload === 'string' && flags !== null ? compileRegex(c.payload, flags) : null;
  const value = typeof c.osc === 'number' ? st.osc?.get(c.osc) : undefined;
  const m = re && value ? execRegex(re, value.payload) : null;
  const held = typeof c.held_ms === 'number' && Number.isFinite(c.held_ms) ? c.held_ms : 0;
  const age = value ? st.now - value.at : 0;
  const result = m !== null && age >= held;
  if (st.trace) pushTrace(st, result ? 'state_match' : 'state_skip', `state[${st.label}] osc cond ${detail} ${result ? 'matched' : m ? `held ${age}ms of ${held}ms` : 'no match'}`);
  // Matched but not held long enough yet: it flips by time alone unless another payload comes.
  const remainingMs = m !== null && !result ? held - age : undefined;
  const r: CondResult = { kind: 'osc', result, detail, ...(remainingMs !== undefined ? { remainingMs } : {}) };
  return result && st.explain && m ? withMatchedText(r, m[0]) : r;
}

function evalChanged(c: ChangedCondition, st: EvalState): CondResult {
  if (st.reads) {
    st.reads.usesPrevLines = true;
    st.reads.usesCursor = true;
  }
  const detail = `cursor_above=${String(c.cursor_above)} changed=${String(c.changed)}`;
  const cur = st.cursor;
  const prev = st.prevLines;
  if (!cur || !prev || prev.length === 0) return { kind: 'changed', result: false, detail };
  const n = typeof c.cursor_above === 'number' && Number.isFinite(c.cursor_above) ? Math.floor(c.cursor_above) : 0;
  const row = typeof cur.row === 'number' && Number.isFinite(cur.row) ? Math.max(0, Math.floor(cur.row)) : 0;
  const startRow = Math.max(0, row - n);
  const endRow = row;
  const didChange = !sameJoinedLines(st.lines, startRow, endRow, prev, startRow, endRow);
  const result = c.changed ? didChange : !didChange;
  if (st.trace) pushTrace(
    st,
    result ? 'state_match' : 'state_skip',
    `state[${st.label}] changed cond cursor_above=${String(c.cursor_above)} rows[${startRow},${endRow}) changed=${didChange} expected=${String(c.changed)} result=${result}`,
  );
  return { kind: 'changed', result, detail };
}

// ── Helpers ─────────────────────────────────────────────────────────────────

/**
 * The text a regex leaf tests. Presence checks see the whole guard frame; an absence check
 * (odd number of `not`s above) sees only rows at or below `viewportStartRow`, so a stale
 * spinner copy in scrollback cannot hold a session busy (spec-format §13.6).
 */
function regexHaystack(section: unknown, st: EvalState, isAbsenceCheck: boolean): string {
  const id = typeof section === 'string' ? section : undefined;
  if (!isAbsenceCheck || st.viewportStartRow === 0) {
    if (section && typeof section !== 'string') return '';
    // The whole joined frame only when the leaf reads it: a section leaf must not pay for it.
    return id ? sectionText(st.sections, id, '') : st.screen;
  }
  if (section && typeof section !== 'string') return '';
  const memoKey = id ?? '';
  const memo = st.clipped?.get(memoKey);
  if (memo !== undefined) return memo;
  const vsr = st.viewportStartRow;
  let text: string;
  if (!id) {
    text = st.lines.slice(vsr).join('\n');
  } else {
    const s = findSection(st.sections, id);
    if (!s) text = '';
    else {
      const from = Math.max(s.fromLine, vsr);
      text = from < s.toLine ? st.lines.slice(from, s.toLine).join('\n') : '';
    }
  }
  (st.clipped ??= new Map()).set(memoKey, text);
  return text;
}

/**
 * The rows of `st.lines` a regex leaf's haystack is made of, or null when the haystack is not
 * a non-empty run of rows (an unknown section, an empty section): those take the string path.
 */
function haystackRange(section: unknown, st: EvalState, isAbsenceCheck: boolean): { from: number; to: number } | null {
  if (section !== undefined && typeof section !== 'string') return null;
  let from = 0;
  let to = st.lines.length;
  if (typeof section === 'string') {
    const s = findSection(st.sections, section);
    if (!s) return null;
    from = s.fromLine;
    to = s.toLine;
  }
  if (isAbsenceCheck && st.viewportStartRow > 0) from = Math.max(from, st.viewportStartRow);
  return to > from ? { from, to } : null;
}

function hasCursorBounds(c: RegexCondition): boolean {
  return c.cursor_row_min !== undefined || c.cursor_row_max !== undefined || c.cursor_col_min !== undefined || c.cursor_col_max !== undefined;
}

function cursorViolation(c: RegexCondition, cur: Cursor): string | null {
  if (typeof c.cursor_row_min === 'number' && cur.row < c.cursor_row_min) return `cursor row ${cur.row} < cursor_row_min ${c.cursor_row_min}`;
  if (typeof c.cursor_row_max === 'number' && cur.row > c.cursor_row_max) return `cursor row ${cur.row} > cursor_row_max ${c.cursor_row_max}`;
  if (typeof c.cursor_col_min === 'number' && cur.col < c.cursor_col_min) return `cursor col ${cur.col} < cursor_col_min ${c.cursor_col_min}`;
  if (typeof c.cursor_col_max === 'number' && cur.col > c.cursor_col_max) return `cursor col ${cur.col} > cursor_col_max ${c.cursor_col_max}`;
  return null;
}

/** `flags` replaces the default `i` (§13.28); null/absent → `i`; a non-string is invalid. */
function flagsOrDefault(flags: unknown): string | null {
  if (flags === undefined || flags === null) return 'i';
  return typeof flags === 'string' ? flags : null;
}

function withMatchedText(r: CondResult, whole: string): CondResult {
  const text = whole.replace(/\s+/g, ' ').trim().slice(0, MATCHED_TEXT_MAX_CHARS);
  if (text) r.matchedText = text;
  return r;
}

function pushTrace(st: EvalState, kind: string, text: string): void {
  if (st.trace) st.trace.push({ kind, text });
}

function finiteOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
