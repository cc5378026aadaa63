/**
 * Small queries over a validated spec (seed 000's helpers) with the reference's defaults.
 */
import { SPEC_SCHEMA_ID, type CliSpecV4, type FsmState, type FsmTransition, type ModalKind, type StateStatus } from './types.js';

/** True when `raw` declares the spec@4 schema (it says nothing about validity). */
export function isV4Spec(raw: unknown): raw is CliSpecV4 {
  return !!raw && typeof raw === 'object' && (raw as { $schema?: unknown }).$schema === SPEC_SCHEMA_ID;
}

/** The state at spawn: the first with `initial: true`, else the first state. */
export function initialState(spec: CliSpecV4): FsmState {
  return spec.states.find((s) => s.initial) ?? spec.states[0]!;
}

export function stateById(spec: CliSpecV4, id: string): FsmState | undefined {
  return spec.states.find((s) => s.id === id);
}

/** Whether a transition's `from` includes `stateId` (`"*"` includes every state, itself too). */
export function transitionLeaves(t: FsmTransition, stateId: string): boolean {
  if (t.from === '*') return true;
  if (Array.isArray(t.from)) return t.from.includes(stateId);
  return t.from === stateId;
}

/** Outgoing transitions of `stateId`, highest priority first, declaration order for ties. */
export function outgoingTransitions(spec: CliSpecV4, stateId: string): FsmTransition[] {
  return spec.transitions
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => transitionLeaves(t, stateId))
    .sort((a, b) => (b.t.priority ?? 0) - (a.t.priority ?? 0) || a.i - b.i)
    .map((x) => x.t);
}

/** The default debug label of a transition: `<from joined by '|'>→<to>`. */
export function transitionLabel(t: FsmTransition): string {
  if (t.label) return t.label;
  const from = Array.isArray(t.from) ? t.from.join('|') : t.from;
  return `${from}→${t.to}`;
}

/** Explicit status wins; else modal → approval; id busy/generating → generating; else idle. */
export function statusForState(state: FsmState): StateStatus {
  if (state.status) return state.status;
  if (state.modal) return 'approval';
  if (state.id === 'busy' || state.id === 'generating') return 'generating';
  return 'idle';
}

/** A modal state's kind (default `approval`); null for a non-modal state. */
export function modalKindForState(state: FsmState): ModalKind | null {
  if (state.modal_kind) return state.modal_kind;
  if (state.modal) return 'approval';
  return null;
}
