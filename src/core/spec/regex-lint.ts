/**
 * Regex checks shared by the validator: flag strings, compilation, capture-group counts
 * and the reference's "^/$ without m" lint (spec-format §8).
 */

/** Every flag a JavaScript RegExp accepts. */
export const REGEX_FLAGS = 'dgimsuyv';

/** What is wrong with a flag string, or null when it is usable. */
export function describeFlagProblem(flags: string): string | null {
  const seen = new Set<string>();
  for (const ch of flags) {
    if (!REGEX_FLAGS.includes(ch)) return `unknown regex flag "${ch}"`;
    if (seen.has(ch)) return `regex flag "${ch}" is repeated`;
    seen.add(ch);
  }
  if (seen.has('u') && seen.has('v')) return 'regex flags "u" and "v" cannot be combined';
  return null;
}

/** The compile error message of `new RegExp(source, flags)`, or null when it compiles. */
export function describeCompileError(source: string, flags: string): string | null {
  try {
    new RegExp(source, flags);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Number of capture groups in a pattern that compiles, or -1 if it does not.
 * An alternation with the empty pattern always matches '' and reports every group.
 */
export function countCaptureGroups(source: string, flags: string): number {
  try {
    const safeFlags = flags.replace(/[gy]/g, '');
    const m = new RegExp(`(?:${source})|`, safeFlags).exec('');
    return m ? m.length - 1 : -1;
  } catch {
    return -1;
  }
}

/** Line-boundary idioms the reference lint accepts in a pattern without `m` (spec-format §8). */
const SANCTIONED_IDIOMS = ['(?:^|\\n)', '(?:\\n|^)', '(?=\\n|$)', '(?=$|\\n)', '(?:\\n|$)', '(?:$|\\n)'];

/**
 * True when `source` contains an unescaped `^` or `$` outside a character class once the
 * sanctioned idioms are removed — the reference's trigger for the "without m" lint.
 */
export function hasBareLineAnchor(source: string): boolean {
  let s = source;
  for (const idiom of SANCTIONED_IDIOMS) s = s.split(idiom).join('');
  let inClass = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '^' || ch === '$') return true;
  }
  return false;
}
