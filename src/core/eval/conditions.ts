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
import type { CondResult } from './types.js';
import { conditionKind } from './condition-kind.js';
import { buildState, flagsOrDefault, pushTrace, withMatchedText, type ConditionContext, type EvalState } from './eval-state.js';
import { MAX_CONDITION_DEPTH } from './limits.js';
import { sameJoinedLines } from './line-compare.js';
import { compileRegex, execRegex } from './regex-cache.js';
import { evalRegex } from './regex-leaf.js';
import { stableRegionKey } from './stable-regions.js';

export { MAX_CONDITION_DEPTH } from './limits.js';
export type { ConditionContext } from './eval-state.js';

/** Thrown internally when nesting passes the cap; caught at the API boundary. */
class DepthExceeded extends Error {}

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

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
