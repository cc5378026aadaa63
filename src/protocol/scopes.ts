/**
 * Token scopes. They are ordered: a token holding a scope may do everything the scopes
 * below it allow. `input` sits above `approve` because raw keystrokes can answer any prompt.
 * @module
 */

/** What a token may do: read < approve < input < admin. */
export type Scope = 'read' | 'approve' | 'input' | 'admin';

/** Every scope, lowest first (the order is the privilege order). */
export const SCOPES = ['read', 'approve', 'input', 'admin'] as const satisfies readonly Scope[];

/** Whether a token holding `held` may call a route that needs `needed`. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}
