/**
 * Condition classification by key presence, in the EVALUATOR's order (spec-format §3):
 * all, any, not, signal, elapsed_ms, stable_ms, matches, window_title, osc, cursor_above+changed.
 * (`osc` is a specterm extension the reference does not know; its selecting key collides with none
 * of the reference's.) The reference validator used another order (§13.29); we validate what will run.
 */

/** What a condition object is evaluated as. */
export type ConditionKind =
  | 'all'
  | 'any'
  | 'not'
  | 'signal'
  | 'elapsed'
  | 'stable'
  | 'regex'
  | 'window_title'
  | 'osc'
  | 'changed'
  | 'unknown';

/** The fields each kind reads. Anything else on the object is ignored by the engine. */
export const CONDITION_FIELDS: Readonly<Record<Exclude<ConditionKind, 'unknown'>, readonly string[]>> = {
  all: ['all'],
  any: ['any'],
  not: ['not'],
  signal: ['signal', 'equals'],
  elapsed: ['elapsed_ms'],
  stable: ['stable_ms', 'section', 'cursor_above', 'ignore_lines', 'changed'],
  regex: ['matches', 'section', 'flags', 'cursor_row_min', 'cursor_row_max', 'cursor_col_min', 'cursor_col_max'],
  window_title: ['window_title', 'flags'],
  osc: ['osc', 'payload', 'flags', 'held_ms'],
  changed: ['cursor_above', 'changed'],
};

/** The key that selects each kind, in evaluator order (changed needs two keys). */
export const CONDITION_DISCRIMINATORS: ReadonlyArray<readonly [Exclude<ConditionKind, 'unknown' | 'changed'>, string]> = [
  ['all', 'all'],
  ['any', 'any'],
  ['not', 'not'],
  ['signal', 'signal'],
  ['elapsed', 'elapsed_ms'],
  ['stable', 'stable_ms'],
  ['regex', 'matches'],
  ['window_title', 'window_title'],
  ['osc', 'osc'],
];

/** The name a spec author knows each kind by. */
export const CONDITION_KIND_NAMES: Readonly<Record<ConditionKind, string>> = {
  all: 'all',
  any: 'any',
  not: 'not',
  signal: 'signal',
  elapsed: 'elapsed_ms',
  stable: 'stable_ms',
  regex: 'matches',
  window_title: 'window_title',
  osc: 'osc',
  changed: 'cursor_above+changed',
  unknown: 'unknown',
};

function has(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Classifies a condition object exactly as the evaluator does. Non-objects are `unknown`. */
export function classifyCondition(cond: unknown): ConditionKind {
  if (typeof cond !== 'object' || cond === null || Array.isArray(cond)) return 'unknown';
  for (const [kind, key] of CONDITION_DISCRIMINATORS) if (has(cond, key)) return kind;
  if (has(cond, 'cursor_above') && has(cond, 'changed')) return 'changed';
  return 'unknown';
}

/** Every kind whose selecting key(s) the object carries, in evaluator order. */
export function listMatchingKinds(cond: object): ConditionKind[] {
  const kinds: ConditionKind[] = [];
  for (const [kind, key] of CONDITION_DISCRIMINATORS) if (has(cond, key)) kinds.push(kind);
  if (has(cond, 'cursor_above') && has(cond, 'changed')) kinds.push('changed');
  return kinds;
}
