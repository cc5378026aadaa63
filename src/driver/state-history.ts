/**
 * The driver's memory of its transitions: the last HISTORY_LIMIT state entries (why, and how long
 * the previous state lasted) and the last SNAPSHOT_LIMIT evaluation tables that produced a
 * transition (seed 001's `getStateHistory` / `getFsmSnapshotHistory`). Filled on commits only.
 *
 * @module
 */
import type { CondResult, FsmEvaluation, TransitionEval } from '../core/eval/types.js';
import type { DriverHistoryEntry, FsmSnapshotEntry } from './events.js';

/** Enough to see how a session got where it is; a state change costs one entry. */
const HISTORY_LIMIT = 50;
/** Each snapshot holds a whole explained table, so fewer are kept. */
const SNAPSHOT_LIMIT = 20;

export class StateHistory {
  readonly #entries: DriverHistoryEntry[] = [];
  readonly #snapshots: FsmSnapshotEntry[] = [];
  #prevStateAt = 0;

  /** The initial state was entered at `now`. */
  start(now: number): void {
    this.#prevStateAt = now;
  }

  /** Records the commit of `fired` (from `from`, into the state labelled `label`) with the table `ev` that chose it. */
  record(from: string, label: string, fired: TransitionEval, ev: FsmEvaluation, now: number): void {
    const matchedRules = summarizeTransition(fired);
    const durationMs = now - this.#prevStateAt;
    this.#prevStateAt = now;
    this.#entries.push({ stateId: fired.to, label, at: now, durationMs, reason: 'transition', via: `${from}→${fired.to}`, matchedRules });
    if (this.#entries.length > HISTORY_LIMIT) this.#entries.shift();
    this.#snapshots.push({ stateFrom: from, stateTo: fired.to, at: now, firedTo: fired.to, firedLabel: fired.label, reason: matchedRules, transitions: ev.transitions });
    if (this.#snapshots.length > SNAPSHOT_LIMIT) this.#snapshots.shift();
  }

  entries(): ReadonlyArray<DriverHistoryEntry> {
    return this.#entries;
  }

  snapshots(): ReadonlyArray<FsmSnapshotEntry> {
    return this.#snapshots;
  }
}

/** `"<label> fired"` then one line per condition node, indented two spaces per depth. */
export function summarizeTransition(t: TransitionEval): string[] {
  const out = [`${t.label} fired`];
  const walk = (c: CondResult, depth: number): void => {
    const left = c.remainingMs ? ` (${c.remainingMs}ms left)` : '';
    const matched = c.matchedText ? ` matched=${JSON.stringify(c.matchedText)}` : '';
    out.push(`${'  '.repeat(depth)}${c.kind} ${c.detail} = ${c.result}${left}${matched}`);
    for (const child of c.children ?? []) walk(child, depth + 1);
  };
  if (t.cond) walk(t.cond, 1);
  return out;
}
