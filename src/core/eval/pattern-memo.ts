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
  // By flags, then by source: a lookup builds no key string (callers ask on every frame).
  const memo = new Map<string, Map<string, T>>();
  let size = 0;
  return (source, flags) => {
    let bySource = memo.get(flags);
    if (bySource?.has(source)) return bySource.get(source) as T;
    const value = compute(source, flags);
    if (size >= maxEntries) {
      memo.clear();
      size = 0;
      bySource = undefined;
    }
    if (!bySource) memo.set(flags, (bySource = new Map()));
    bySource.set(source, value);
    size += 1;
    return value;
  };
}
