/**
 * Outgoing transitions of a state, tolerant of malformed specs (evaluation never throws).
 */
import type { CliSpecV4, FsmTransition } from '../spec/types.js';
import { transitionLeaves } from '../spec/model.js';

/** A transition with its sanitized priority. */
export interface OutgoingTransition {
  transition: FsmTransition;
  priority: number;
}

/**
 * Transitions leaving `stateId` (`"*"`, equal id, or a list containing it), highest priority
 * first and declaration order for ties — the same order as `outgoingTransitions` in
 * `spec/model.ts`, but skipping non-object entries and treating a non-numeric priority as 0.
 */
export function selectOutgoing(spec: CliSpecV4, stateId: string): OutgoingTransition[] {
  const list: unknown = spec && typeof spec === 'object' ? spec.transitions : undefined;
  if (!Array.isArray(list)) return [];
  // Every evaluation asks this; the answer is a function of the transition list (spec objects are
  // not edited once evaluated — a reload builds new ones), so it is worked out once per state.
  let perState = outgoingCache.get(list);
  if (!perState || perState.length !== list.length) {
    perState = { length: list.length, byState: new Map() };
    outgoingCache.set(list, perState);
  }
  const known = perState.byState.get(stateId);
  if (known) return known;
  const picked = pickOutgoing(list, stateId);
  if (perState.byState.size < MAX_CACHED_STATES) perState.byState.set(stateId, picked);
  return picked;
}

/** Bounds the per-list cache against unbounded distinct state ids (hot-reload experiments). */
const MAX_CACHED_STATES = 256;

const outgoingCache = new WeakMap<unknown[], { length: number; byState: Map<string, OutgoingTransition[]> }>();

function pickOutgoing(list: unknown[], stateId: string): OutgoingTransition[] {
  const picked: Array<OutgoingTransition & { order: number }> = [];
  for (let i = 0; i < list.length; i += 1) {
    const t = list[i] as FsmTransition | null;
    if (!t || typeof t !== 'object') continue;
    const from: unknown = t.from;
    if (from !== '*' && typeof from !== 'string' && !Array.isArray(from)) continue;
    if (!transitionLeaves(t, stateId)) continue;
    const p: unknown = t.priority;
    picked.push({ transition: t, priority: typeof p === 'number' && Number.isFinite(p) ? p : 0, order: i });
  }
  picked.sort((a, b) => b.priority - a.priority || a.order - b.order);
  return picked.map(({ transition, priority }) => ({ transition, priority }));
}
