/**
 * Classifies a condition object by key presence, in the evaluator's order (spec-format §3).
 */

/** What a condition object evaluates as. `unknown` evaluates false. */
export type ConditionKindName =
  | 'all'
  | 'any'
  | 'not'
  | 'signal'
  | 'elapsed'
  | 'stable'
  | 'regex'
  | 'title'
  | 'changed'
  | 'unknown';

/**
 * The kind a condition evaluates as. The order matters for mixed objects and is the
 * reference EVALUATOR's (not its validator's): all, any, not, signal, elapsed_ms, stable_ms,
 * matches, window_title (our extension), cursor_above+changed; anything else — including
 * non-objects and arrays — is `unknown`.
 */
export function conditionKind(cond: unknown): ConditionKindName {
  if (!cond || typeof cond !== 'object' || Array.isArray(cond)) return 'unknown';
  if ('all' in cond) return 'all';
  if ('any' in cond) return 'any';
  if ('not' in cond) return 'not';
  if ('signal' in cond) return 'signal';
  if ('elapsed_ms' in cond) return 'elapsed';
  if ('stable_ms' in cond) return 'stable';
  if ('matches' in cond) return 'regex';
  if ('window_title' in cond) return 'title';
  if ('cursor_above' in cond && 'changed' in cond) return 'changed';
  return 'unknown';
}
