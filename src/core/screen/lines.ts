/**
 * Screen text → lines, the one way every consumer splits a rendered screen.
 */

/**
 * Splits rendered screen text into lines on `\n` and strips ONE trailing `\r` per line,
 * so regexes anchored with `$` behave the same for `\n` and `\r\n` output (spec-format §2.2).
 *
 * Never throws: a non-string input yields `[]`.
 *
 * @example splitScreenLines('a\r\nb\r\r') // → ['a', 'b\r']
 */
export function splitScreenLines(screen: string): string[] {
  if (typeof screen !== 'string') return [];
  const lines = screen.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    // charCodeAt is cheaper than endsWith on the per-frame hot path.
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  return lines;
}
