/**
 * FSM evaluation: which outgoing transition fires on this frame, and why every one did or
 * did not (spec-format §4.3).
 */
import type { CliSpecV4, FsmState, FsmTransition } from '../spec/types.js';
import { transitionLabel } from '../spec/model.js';
import { splitScreenLines } from '../screen/lines.js';
import type { CondResult, Cursor, EvalExtras, FsmClock, FsmEvaluation, ResolvedSection, TraceEntry, TransitionEval } from './types.js';
import { frameDecider, frameEvaluator, type ConditionContext } from './conditions.js';
import { selectOutgoing } from './outgoing.js';
import { resolveSections } from './sections.js';

/**
 * Evaluates every outgoing transition of `currentStateId` against one frame.
 *
 * Sections are resolved once. Transitions are visited highest priority first (declaration
 * order for ties) and ALL of them are evaluated, for debugging. `fires = holdSatisfied &&
 * condResult`, where the hold counts from state entry. `fired` is the first firing one; if
 * its target is not a defined state, `fired` is null and there is deliberately NO fallback
 * to the next firing transition (§13.30).
 *
 * Pure: the clock, previous frame and extras are inputs. Never throws.
 */
export function evaluateFsm(
  spec: CliSpecV4,
  currentStateId: string,
  screenText: string,
  cursor: Cursor | undefined,
  prevLines: string[] | undefined,
  clock: FsmClock,
  extras?: EvalExtras,
): FsmEvaluation {
  const lines = splitScreenLines(screenText);
  return evaluateFsmLines(spec, currentStateId, lines, lines.join('\n'), cursor, prevLines, clock, extras);
}

/**
 * `evaluateFsm` over a frame that is already split: `lines` must hold no `\r`; `screen`, when
 * given (or a function returning it), must equal `lines.join('\n')` (otherwise it is joined only
 * if a condition needs it).
 * The driver's hot path.
 */
export function evaluateFsmLines(
  spec: CliSpecV4,
  currentStateId: string,
  lines: string[],
  screen: string | (() => string) | undefined,
  cursor: Cursor | undefined,
  prevLines: string[] | undefined,
  clock: FsmClock,
  extras?: EvalExtras,
): FsmEvaluation {
  const trace: TraceEntry[] = [];
  const { validSpec, sections, heldFor, ctx } = frameSetup([spec, currentStateId, lines, screen, cursor, prevLines, clock, extras], extras?.collectTrace === false ? undefined : trace);
  const transitions: TransitionEval[] = [];
  let fired: TransitionEval | null = null;
  const evaluate = frameEvaluator(ctx);
  for (const { transition: t, priority } of validSpec ? selectOutgoing(spec, currentStateId) : []) {
    const holdMs = holdOf(t);
    const holdSatisfied = heldFor >= holdMs;
    let cond: CondResult | undefined;
    let condResult = true;
    // Truthiness, as the reference: `when: null` means "no guard".
    if (t.when) {
      // The label only names trace lines: not built when nobody collects them.
      cond = evaluate(t.when, ctx.trace ? `${currentStateId}→${String(t.to)}` : undefined);
      condResult = cond.result;
    }
    const te: TransitionEval = {
      to: t.to,
      label: safeLabel(t),
      eligible: true,
      holdSatisfied,
      holdRemainingMs: holdSatisfied ? 0 : holdMs - heldFor,
      condResult,
      fires: holdSatisfied && condResult,
      priority,
    };
    if (cond) te.cond = cond;
    transitions.push(te);
    if (te.fires && !fired) fired = te;
  }

  if (fired && !hasState(spec, fired.to)) {
    trace.push({ kind: 'state_skip', text: `transition target ${String(fired.to)} not found` });
    fired = null;
  }
  return { sections, transitions, fired, trace };
}

/**
 * The soonest a transition of the table that does not fire could flip by time alone: its hold's
 * remaining time when unmet, its guard's countdown when positive; Infinity when none can. A
 * driver re-evaluates then (spec-format §10.1).
 */
export function soonestFlipMs(ev: FsmEvaluation): number {
  let soonest = Infinity;
  for (const t of ev.transitions) {
    if (t.fires) continue;
    if (!t.holdSatisfied) soonest = Math.min(soonest, t.holdRemainingMs);
    const condRemain = t.cond?.remainingMs ?? Infinity;
    if (Number.isFinite(condRemain) && condRemain > 0) soonest = Math.min(soonest, condRemain);
  }
  return soonest;
}

/** The arguments of {@link evaluateFsmLines}, which {@link decideFsmLines} takes too. */
export type FsmFrameArgs = Parameters<typeof evaluateFsmLines>;

/** What a driver needs of an evaluation to act on it: see {@link decideFsmLines}. */
export interface FsmDecision {
  /** The first firing transition's target (a defined state), or null — as `FsmEvaluation.fired`. */
  firedTo: string | null;
  /** {@link soonestFlipMs} of the table. */
  soonestMs: number;
}

/**
 * `evaluateFsmLines` reduced to the decision: the same transitions in the same order, the same
 * leaves and holds, but no table, no trees and no strings. `firedTo` equals
 * `evaluateFsmLines(…).fired?.to ?? null` and `soonestMs` its `soonestFlipMs` (the core property
 * tests check both).
 */
export function decideFsmLines(...args: FsmFrameArgs): FsmDecision {
  const [spec, currentStateId] = args;
  // No copy of the extras with `explain: false`: the decider never explains (and a spread of
  // caller-shaped objects cost a microsecond per frame).
  const { validSpec, heldFor, ctx } = frameSetup(args, undefined);
  const decide = frameDecider(ctx);
  let firedTo: string | null = null;
  let found = false;
  let soonestMs = Infinity;
  for (const { transition: t } of validSpec ? selectOutgoing(spec, currentStateId) : []) {
    const holdMs = holdOf(t);
    const holdSatisfied = heldFor >= holdMs;
    let condResult = true;
    let condRemaining = Infinity;
    if (t.when) {
      const d = decide(t.when);
      condResult = d.result;
      condRemaining = d.remainingMs ?? Infinity;
    }
    if (holdSatisfied && condResult) {
      if (!found) {
        found = true;
        firedTo = t.to;
      }
      continue;
    }
    if (!holdSatisfied) soonestMs = Math.min(soonestMs, holdMs - heldFor);
    if (Number.isFinite(condRemaining) && condRemaining > 0) soonestMs = Math.min(soonestMs, condRemaining);
  }
  // No fallback to the next firing transition when the target is unknown (§13.30).
  if (firedTo !== null && !hasState(spec, firedTo)) firedTo = null;
  return { firedTo, soonestMs };
}

/**
 * What evaluating one frame starts from: sections resolved once, the time in the state, and one
 * condition context for the whole frame (only the trace label changes), so leaves shared by
 * several transitions and the per-frame memos are computed once.
 */
function frameSetup(
  [spec, , lines, screen, cursor, prevLines, clock, extras]: FsmFrameArgs,
  trace: TraceEntry[] | undefined,
): { validSpec: boolean; sections: ResolvedSection[]; heldFor: number; ctx: ConditionContext } {
  const validSpec = !!spec && typeof spec === 'object';
  const ctx = new FrameContext(lines, screen, cursor, prevLines, clock, extras, trace);
  ctx.sections = extras?.sections ?? resolveSections(validSpec ? spec.sections : undefined, lines, () => ctx.screen);
  const heldFor = finiteOr(clock?.now, 0) - finiteOr(clock?.stateEnteredAt, 0);
  return { validSpec, sections: ctx.sections, heldFor, ctx };
}

/**
 * One frame's condition context; `screen` is joined only when a leaf asks for it. A class, for
 * its prototype getter: an object literal with its own getter is a new closure per frame that
 * V8 holds from the old generation, so every frame it closed over (240 lines) survived the
 * young-generation GC (promoted, freed only by a full GC).
 */
class FrameContext implements ConditionContext {
  sections: ResolvedSection[] = [];
  readonly traceLabel = '';
  #screen: string | undefined;

  constructor(
    readonly lines: string[],
    private readonly given: string | (() => string) | undefined,
    readonly cursor: Cursor | undefined,
    readonly prevLines: string[] | undefined,
    readonly clock: FsmClock,
    readonly extras: EvalExtras | undefined,
    readonly trace: TraceEntry[] | undefined,
  ) {
    if (typeof given === 'string') this.#screen = given;
  }

  get screen(): string {
    return (this.#screen ??= typeof this.given === 'function' ? this.given() : this.lines.join('\n'));
  }
}

/** A transition's `min_hold_ms`, 0 when absent or not a number. */
function holdOf(t: FsmTransition): number {
  return typeof t.min_hold_ms === 'number' && !Number.isNaN(t.min_hold_ms) ? t.min_hold_ms : 0;
}

function hasState(spec: CliSpecV4, id: string): boolean {
  const states: unknown = spec?.states;
  if (!Array.isArray(states)) return false;
  return states.some((s: FsmState | null) => !!s && typeof s === 'object' && s.id === id);
}

/** Labels per transition object and its fields, built once (every evaluation reports them). */
const labels = new WeakMap<object, { label: unknown; from: unknown; to: unknown; text: string }>();

function safeLabel(t: Parameters<typeof transitionLabel>[0]): string {
  const known = labels.get(t);
  if (known && known.label === t.label && known.from === t.from && known.to === t.to) return known.text;
  let text: string;
  try {
    text = transitionLabel(t);
  } catch {
    text = `?→${String(t.to)}`;
  }
  labels.set(t, { label: t.label, from: t.from, to: t.to, text });
  return text;
}

function finiteOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}
