/**
 * A bounded memo for facts about a (regex source, flags) pair — its compiled form, whether it
 * is line-local, the literal it requires. Each is computed once per pattern, never per frame.
 */

/**
 * Wraps `compute` so each (source, flags) pair is computed once. The memo is emptied when it
 * reaches `maxEntries` (a spec holds well under a hundred patterns; the bound only stops
 * unbounded growth from editor previews of ad-hoc patterns).
 */
export function memoizeByPattern<T>(maxEntries: number, compute: (source: string, flags: string) => T): (source: string, flags: string) => T {
  const memo = new Map<string, T>();
  return (source, flags) => {
    // NUL cannot appear in a flags string, so the key is unambiguous.
    const key = `${flags}\u0000${source}`;
    if (memo.has(key)) return memo.get(key) as T;
    const value = compute(source, flags);
    if (memo.size >= maxEntries) memo.clear();
    memo.set(key, value);
    return value;
  };
}
