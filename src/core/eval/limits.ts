/**
 * Bounds that keep evaluation total on hostile input.
 */

/**
 * Deepest condition nesting evaluated. Real guards are 3–5 levels deep; 64 leaves ample room
 * while keeping recursion far from the engine's stack limit (a 1000-deep `not` chain from a
 * generated or corrupted spec must fail closed, not overflow the stack).
 */
export const MAX_CONDITION_DEPTH = 64;
