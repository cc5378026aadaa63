/**
 * What the live spec debugger shows of a driver: the explained transition table with due
 * times, the spec's graph, and the viewport as it was at each announced state change (the
 * driver keeps each transition's evaluation but not its screen; the event is emitted
 * synchronously on the driver's commit, so that is the screen the transition fired on).
 *
 * @module
 */
import type { TransitionEval } from '../core/eval/types.js';
import { buildGraphModel } from '../core/spec/index.js';
import { outgoingTransitions, stateById, statusForState, transitionLabel } from '../core/spec/model.js';
import type { CliSpecV4 } from '../core/spec/types.js';
import type { FsmDriver } from '../driver/fsm-driver.js';
import { toDebugTransitions, type LiveDebug, type SpecGraph } from '../protocol/index.js';

/** As many screens as the driver keeps snapshots (state-history.ts SNAPSHOT_LIMIT). */
const SCREENS_KEPT = 20;
/** A screen captured this long after a snapshot's time still belongs to it (same commit). */
const SAME_COMMIT_MS = 50;

/** The viewport at each announced state change, per session. */
export class TransitionScreens {
  readonly #screens = new Map<string, Array<{ at: number; lines: string[] }>>();

  capture(sessionId: string, at: number, lines: string[]): void {
    const ring = this.#screens.get(sessionId) ?? [];
    ring.push({ at, lines });
    if (ring.length > SCREENS_KEPT) ring.shift();
    this.#screens.set(sessionId, ring);
  }

  /** The screen captured at the commit made at `at` (the first capture at or just after it). */
  at(sessionId: string, at: number): string[] | null {
    const hit = this.#screens.get(sessionId)?.find((s) => s.at >= at && s.at - at <= SAME_COMMIT_MS);
    return hit ? hit.lines : null;
  }

  forget(sessionId: string): void {
    this.#screens.delete(sessionId);
  }
}

/** The `min_hold_ms` of the spec transition an evaluated row came from (0 when none). */
export function holdMsIn(spec: CliSpecV4, stateId: string): (t: TransitionEval) => number {
  const outgoing = outgoingTransitions(spec, stateId);
  return (t) => {
    const source = outgoing.find((s) => s.to === t.to && transitionLabel(s) === t.label);
    return typeof source?.min_hold_ms === 'number' ? source.min_hold_ms : 0;
  };
}

export function liveDebugOf(driver: FsmDriver, now: number): LiveDebug {
  const debug = driver.getFsmDebug();
  const spec = driver.getSpec();
  const frame = driver.screen.guardFrame();
  const state = stateById(spec, debug.currentState);
  const last = driver.getStateHistory().at(-1);
  const from = last?.via?.split('→')[0];
  const start = frame.viewportStartRow;
  return {
    server_now: now,
    state: { id: debug.currentState, label: debug.label, status: state ? statusForState(state) : debug.status },
    state_entered_at: Math.max(0, now - debug.stateAgeMs),
    transitions: toDebugTransitions(debug.transitions, now, holdMsIn(spec, debug.currentState)),
    sections: debug.sections.map((s) => ({ id: s.id, from_row: s.fromLine - start, to_row: s.toLine - start })),
    cursor: { row: debug.cursor.row, col: debug.cursor.col },
    rows: frame.lines.length - start,
    eval_count: debug.evalCount,
    last_edge: last && from !== undefined ? { from, to: last.stateId, at: last.at } : null,
  };
}

export function specGraphOf(spec: CliSpecV4): SpecGraph {
  const model = buildGraphModel(spec);
  return {
    spec_id: String(spec.id),
    nodes: model.nodes,
    edges: model.edges,
    missing: [...model.missing].map(([id, key]) => ({ id, key })),
  };
}

