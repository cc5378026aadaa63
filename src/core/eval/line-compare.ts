/**
 * Equality of two line windows as the reference defines it: the `\n`-joined texts are equal.
 */

/**
 * Whether `a[aFrom..aTo)` and `b[bFrom..bTo)` join to the same text. Same-length windows are
 * compared line by line without building strings (the per-frame common case); windows of
 * different lengths fall back to joining, because `[]` and `['']` both join to `''`.
 */
export function sameJoinedLines(
  a: readonly string[],
  aFrom: number,
  aTo: number,
  b: readonly string[],
  bFrom: number,
  bTo: number,
): boolean {
  const aStart = Math.max(0, Math.min(aFrom, a.length));
  const aEnd = Math.max(aStart, Math.min(aTo, a.length));
  const bStart = Math.max(0, Math.min(bFrom, b.length));
  const bEnd = Math.max(bStart, Math.min(bTo, b.length));
  if (aEnd - aStart === bEnd - bStart) {
    // From the bottom: a TUI's changes (spinner, prompt, streamed text) are nearest the end.
    for (let i = aEnd - aStart - 1; i >= 0; i -= 1) if (a[aStart + i] !== b[bStart + i]) return false;
    return true;
  }
  // Texts of different lengths differ: checked without joining (a frame that grew by a row is
  // the common case). Equal lengths are rare ([] and [''] both join to '') and joined to decide.
  if (joinedLength(a, aStart, aEnd) !== joinedLength(b, bStart, bEnd)) return false;
  return a.slice(aStart, aEnd).join('\n') === b.slice(bStart, bEnd).join('\n');
}

/** `lines.slice(from, to).join('\n').length`, without building the text. */
function joinedLength(lines: readonly string[], from: number, to: number): number {
  let n = Math.max(0, to - from - 1);
  for (let i = from; i < to; i += 1) {
    const line: unknown = lines[i];
    n += line === undefined || line === null ? 0 : String(line).length; // as join() reads them
  }
  return n;
}
