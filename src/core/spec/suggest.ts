/**
 * "Did you mean" helpers for validation messages: the closest known name to a typo,
 * and a compact rendering of the known names.
 */

/** Longest list of known names spelled out in a message before it is shortened. */
const MAX_LISTED_NAMES = 12;

/** Edit distance (insert/delete/substitute = 1, adjacent swap = 1), capped for speed. */
function measureEditDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prevPrev[j - 2]! + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    // Every later row is at least this row's minimum, so the cap is already exceeded.
    if (rowMin > cap) return cap + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known name closest to `input`, or undefined when nothing is plausibly meant.
 *
 * A case-insensitive equal wins; otherwise the smallest edit distance within a third of
 * the input's length (at least 1, at most 4); otherwise a name the input is a prefix of.
 *
 * @example suggestName('budy', ['idle', 'busy']) // 'busy'
 */
export function suggestName(input: string, candidates: Iterable<string>): string | undefined {
  if (typeof input !== 'string' || input.length === 0 || input.length > 200) return undefined;
  const lower = input.toLowerCase();
  const cap = Math.min(4, Math.max(1, Math.floor(input.length / 3)));
  let best: string | undefined;
  let bestDistance = cap + 1;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    if (candidate.toLowerCase() === lower) return candidate;
    // A truncated name ("stable" for "stable_ms") is a likely typo even when far by edits.
    if (lower.length >= 4 && candidate.toLowerCase().startsWith(lower) && best === undefined) {
      best = candidate;
      continue;
    }
    const d = measureEditDistance(lower, candidate.toLowerCase(), cap);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** `a, b, c` — or the first names and `… (+N more)` when the list is long. */
export function formatKnownNames(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  if (names.length <= MAX_LISTED_NAMES) return names.join(', ');
  return `${names.slice(0, MAX_LISTED_NAMES).join(', ')}, … (+${names.length - MAX_LISTED_NAMES} more)`;
}

/** `; did you mean "x"?` for a typo, or '' when no name is close enough. */
export function formatDidYouMean(input: string, candidates: Iterable<string>): string {
  const s = suggestName(input, candidates);
  return s === undefined ? '' : `; did you mean "${s}"?`;
}
