/**
 * The live spec debugger's wire shapes (the dashboard's `#/sessions/:id/debug`): the explained
 * transition table with absolute due times (so a browser ticks countdowns on its own clock,
 * corrected by the server's `server_now`), the resolved sections as row ranges, the spec's state
 * graph, and the history and snapshot rings with the screen each transition was decided on.
 * @module
 */
import { z } from 'zod';
import type { CondResult, TransitionEval } from '../core/eval/types.js';
import { EpochMs } from './common.js';
import { StateStatus } from './sessions.js';

/** One node of a guard's result tree. */
export interface DebugCondition {
  kind: string;
  result: boolean;
  detail: string;
  /** The whole window of a time leaf (`elapsed` / `stable`), when its detail names it. */
  window_ms: number | null;
  /** When a false time leaf (or a composite waiting on one) turns true if nothing changes. */
  due_at: number | null;
  matched_text: string | null;
  children: DebugCondition[];
}
export const DebugCondition: z.ZodType<DebugCondition> = z.lazy(() => z.strictObject({
  kind: z.string(),
  result: z.boolean(),
  detail: z.string(),
  window_ms: z.number().int().nonnegative().nullable(),
  due_at: EpochMs.nullable(),
  matched_text: z.string().nullable(),
  children: z.array(DebugCondition),
}));

/** One outgoing transition, evaluated. */
export const DebugTransition = z.strictObject({
  to: z.string(),
  label: z.string(),
  priority: z.number(),
  eligible: z.boolean(),
  guard: z.boolean().meta({ description: 'the guard is true now' }),
  fires: z.boolean(),
  /** The transition's `min_hold_ms` (0 = none). */
  hold_ms: z.number().int().nonnegative(),
  hold_due_at: EpochMs.nullable().meta({ description: 'guard true, hold not yet met: when it fires if the guard stays true' }),
  cond: DebugCondition.nullable(),
});
export type DebugTransition = z.infer<typeof DebugTransition>;

/** `GET …/debug/live`: the table at `server_now`. */
export const LiveDebug = z.strictObject({
  server_now: EpochMs,
  state: z.strictObject({ id: z.string(), label: z.string(), status: StateStatus }),
  state_entered_at: EpochMs,
  transitions: z.array(DebugTransition),
  sections: z.array(z.strictObject({ id: z.string(), from_row: z.number().int(), to_row: z.number().int() }))
    .meta({ description: 'viewport rows (0 = top), end exclusive; a section in scrollback has negative rows' }),
  cursor: z.strictObject({ row: z.number().int(), col: z.number().int().nonnegative() }),
  rows: z.number().int().positive(),
  eval_count: z.number().int().nonnegative(),
  last_edge: z.strictObject({ from: z.string(), to: z.string(), at: EpochMs }).nullable(),
});
export type LiveDebug = z.infer<typeof LiveDebug>;

/** `GET …/graph`: the spec's state machine (the model `specterm graph` renders). */
export const SpecGraph = z.strictObject({
  spec_id: z.string(),
  nodes: z.array(z.strictObject({ key: z.string(), id: z.string(), lines: z.array(z.string()), modal: z.boolean(), status: StateStatus, initial: z.boolean() })),
  edges: z.array(z.strictObject({ from: z.string(), to: z.string(), lines: z.array(z.string()), wildcard: z.boolean() })),
  missing: z.array(z.strictObject({ id: z.string(), key: z.string() })),
});
export type SpecGraph = z.infer<typeof SpecGraph>;

/** `GET …/debug/moments`: the driver's rings (newest last) with the screen of each transition. */
export const DebugMoments = z.strictObject({
  history: z.array(z.strictObject({ state: z.string(), label: z.string(), at: EpochMs, duration_ms: z.number().int().nonnegative(), via: z.string().nullable() })),
  snapshots: z.array(z.strictObject({
    at: EpochMs, from: z.string(), to: z.string(), label: z.string(), reason: z.array(z.string()),
    screen: z.array(z.string()).nullable().meta({ description: 'the viewport when it fired; null if it fired before the daemon watched' }),
  })),
});
export type DebugMoments = z.infer<typeof DebugMoments>;

/** A driver transition table as `GET …/explain` carries it (loosely: only what the debugger reads). */
const RawCondition: z.ZodType<CondResult> = z.lazy(() => z.looseObject({
  kind: z.string(), result: z.boolean(), detail: z.string(),
  remainingMs: z.number().optional(), matchedText: z.string().optional(), children: z.array(RawCondition).optional(),
})) as unknown as z.ZodType<CondResult>;
export const RawTransitionEval = z.looseObject({
  to: z.string(), label: z.string(), eligible: z.boolean(), holdSatisfied: z.boolean(), holdRemainingMs: z.number(),
  condResult: z.boolean(), cond: RawCondition.optional(), fires: z.boolean(), priority: z.number(),
});
export const RawTransitionTable = z.array(RawTransitionEval);

const WINDOW = /(\d+)ms \/ (\d+)ms$/;

/** A condition's result tree as the debugger shows it, remaining times made due times at `at`. */
export function toDebugCondition(c: CondResult, at: number): DebugCondition {
  const window = WINDOW.exec(c.detail);
  const waiting = !c.result && c.remainingMs !== undefined && c.remainingMs > 0 && Number.isFinite(c.remainingMs);
  return {
    kind: c.kind, result: c.result, detail: c.detail,
    window_ms: window ? Number(window[2]) : null,
    due_at: waiting ? at + c.remainingMs! : null,
    matched_text: c.matchedText || null,
    children: (c.children ?? []).map((child) => toDebugCondition(child, at)),
  };
}

/**
 * The driver's explained table at instant `at` as the debugger shows it: remaining times become
 * due times. `holdMs(t)` is the transition's `min_hold_ms` (the table carries only what is left).
 * The daemon uses it for the live view and the dashboard for a past moment (`…/explain?at=`).
 */
export function toDebugTransitions(transitions: readonly TransitionEval[], at: number, holdMs: (t: TransitionEval) => number): DebugTransition[] {
  return transitions.map((t) => ({
    to: t.to, label: t.label, priority: t.priority, eligible: t.eligible, guard: t.condResult, fires: t.fires,
    hold_ms: Math.max(0, Math.round(holdMs(t))),
    hold_due_at: t.condResult && !t.holdSatisfied && t.holdRemainingMs > 0 ? at + t.holdRemainingMs : null,
    cond: t.cond ? toDebugCondition(t.cond, at) : null,
  }));
}
