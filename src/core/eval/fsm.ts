/**
 * FSM evaluation: which outgoing transition fires on this frame, and why every one did or
 * did not (spec-format §4.3).
 */
import type { CliSpecV4, FsmState } from '../spec/types.js';
import { transitionLabel } from '../spec/model.js';
import { splitScreenLines } from '../screen/lines.js';
import type { CondResult, Cursor, EvalExtras, FsmClock, FsmEvaluation, TraceEntry, TransitionEval } from './types.js';
import { frameEvaluator, type ConditionContext } from './conditions.js';
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
  const validSpec = spec && typeof spec === 'object';
  let joined = typeof screen === 'string' ? screen : undefined;
  const screenOf = (): string => (joined ??= typeof screen === 'function' ? screen() : lines.join('\n'));
  const sections = extras?.sections ?? resolveSections(validSpec ? spec.sections : undefined, lines, screenOf);
  const now = finiteOr(clock?.now, 0);
  const heldFor = now - finiteOr(clock?.stateEnteredAt, 0);

  const transitions: TransitionEval[] = [];
  let fired: TransitionEval | null = null;
  // One context for the whole frame (only the trace label changes), so leaves shared by several
  // transitions and the per-frame memos are computed once.
  const ctx: ConditionContext = {
    lines,
    get screen() { return screenOf(); },
    sections,
    cursor,
    prevLines,
    clock,
    extras,
    trace: extras?.collectTrace === false ? undefined : trace,
    traceLabel: '',
  };
  const evaluate = frameEvaluator(ctx);
  for (const { transition: t, priority } of validSpec ? selectOutgoing(spec, currentStateId) : []) {
    const holdMs = typeof t.min_hold_ms === 'number' && !Number.isNaN(t.min_hold_ms) ? t.min_hold_ms : 0;
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
