/**
 * Inspection: the driver's read-only debug surface (seed 001) — the live transition table
 * (`getFsmDebug`), the spec's sections on the current viewport, the idle-debounce and hold
 * questions asked of the last evaluation, and the current view in its public shape. Nothing here
 * changes the driver or runs on the evaluation path: each read works from what the driver kept.
 *
 * @module
 */
import type { CliSpecV4, StateStatus } from '../core/spec/types.js';
import { stateById, statusForState } from '../core/spec/model.js';
import type { CondResult, FsmClock, FsmEvaluation } from '../core/eval/types.js';
import { evaluateFsmLines, resolveSections } from '../core/eval/index.js';
import type { TerminalScreen } from '../terminal/index.js';
import type { ControlView, ModalView, StateView } from './events.js';
import { toModalView, type CurrentView } from './derived-view.js';

/** What inspection reads from the driver. */
export interface InspectionHost {
  spec(): CliSpecV4;
  stateId(): string;
  stateEnteredAt(): number;
  status(): StateStatus;
  now(): number;
  /** The machine clock at `now` (state entry, region clocks). */
  clock(now: number): FsmClock;
  /** The previous guard frame's lines, for `changed` conditions. */
  prevLines(): string[] | undefined;
  /** The last evaluation's explained table, or null before any. */
  lastEvaluation(): FsmEvaluation | null;
  view(): CurrentView | null;
  /** Evaluations so far, and how many of them were re-decided. */
  evalCounts(): { evalCount: number; reusedEvalCount: number };
}

export class Inspection {
  readonly #host: InspectionHost;
  readonly #screen: TerminalScreen;

  constructor(host: InspectionHost, screen: TerminalScreen) {
    this.#host = host;
    this.#screen = screen;
  }

  /** The current state and its modal as last emitted. */
  currentView(): { state: StateView; modal: ModalView | null; controls: ControlView[] } | null {
    const c = this.#host.view();
    return c ? { state: c.state, modal: toModalView(c.modal), controls: c.controls } : null;
  }

  sections(): Array<{ id: string; text: string }> | null {
    const spec = this.#host.spec();
    if (!spec.sections) return null;
    const lines = this.#screen.viewportLines() as string[];
    return resolveSections(spec.sections, lines).map((s) => ({ id: s.id, text: s.text }));
  }

  /** Some outgoing transition has a true guard but its hold has not elapsed. */
  idleHoldPending(): boolean {
    return (this.#host.lastEvaluation()?.transitions ?? []).some((t) => t.condResult && !t.holdSatisfied);
  }

  completionIdleDebounceState(): { active: boolean; ageMs: number; holdMs: number; forceAfterMs: number } | null {
    const ev = this.#host.lastEvaluation();
    if (!ev) return null;
    const spec = this.#host.spec();
    for (const t of ev.transitions) {
      const st = stateById(spec, t.to);
      if (!st || statusForState(st) !== 'idle' || !t.cond) continue;
      const stable = findStable(t.cond);
      if (!stable) continue;
      const m = /(\d+)ms \/ (\d+)ms/.exec(stable.detail);
      const ageMs = m ? Number(m[1]) : 0;
      const holdMs = m ? Number(m[2]) : 0;
      return { active: !stable.result, ageMs, holdMs, forceAfterMs: 0 };
    }
    return null;
  }

  /** Live debug table for the current instant, against the same guard frame as real evaluation. */
  fsmDebug() {
    const host = this.#host;
    const now = host.now();
    const spec = host.spec();
    const stateId = host.stateId();
    // The frame guards see: viewport + bounded scrollback, cursor rebased (§9.4).
    const frame = this.#screen.guardFrame();
    const ev = evaluateFsmLines(spec, stateId, frame.lines, undefined, frame.cursor, host.prevLines(), host.clock(now), {
      windowTitle: this.#screen.windowTitle,
      osc: this.#screen.osc.values,
      viewportStartRow: frame.viewportStartRow,
    });
    const state = stateById(spec, stateId);
    const { evalCount, reusedEvalCount } = host.evalCounts();
    return {
      currentState: stateId,
      label: state?.label ?? stateId,
      stateAgeMs: now - host.stateEnteredAt(),
      status: host.status(),
      cursor: this.#screen.cursor(),
      transitions: ev.transitions,
      sections: ev.sections,
      evalCount,
      reusedEvalCount,
    };
  }
}

function findStable(c: CondResult): CondResult | null {
  if (c.kind === 'stable') return c;
  for (const child of c.children ?? []) {
    const r = findStable(child);
    if (r) return r;
  }
  return null;
}
