/**
 * The evaluator's view of a condition's kind: the spec model's classification (one source of
 * truth for the key order, spec-format §3), with the CondResult name for the title leaf.
 */
import { classifyCondition } from '../spec/condition-kind.js';

/** What a condition object evaluates as. `unknown` evaluates false. */
export type ConditionKindName = 'all' | 'any' | 'not' | 'signal' | 'elapsed' | 'stable' | 'regex' | 'title' | 'osc' | 'changed' | 'unknown';

/**
 * The kind a condition evaluates as, in the reference EVALUATOR's order (not its validator's):
 * all, any, not, signal, elapsed_ms, stable_ms, matches, window_title, osc, cursor_above+changed.
 */
export function conditionKind(cond: unknown): ConditionKindName {
  const kind = classifyCondition(cond);
  return kind === 'window_title' ? 'title' : kind;
}
