/**
 * Line-local regexes: patterns that can never match across a line break, so testing them on
 * a multi-line haystack gives the same answer as testing them on each line and OR-ing.
 *
 * Regex leaves are tested once against a whole section (spec-format §3.1); on a 240-line
 * guard frame that is ~25 KB of text per leaf per evaluation. For a line-local pattern the
 * engine instead tests the rows one by one and reuses last frame's result for every row that
 * did not change — usually all but two or three. The analysis is conservative: anything it is
 * not sure about is treated as not line-local and tested the reference way.
 */

import { memoizeByPattern } from './pattern-memo.js';

/** The reference's line-boundary idioms: equivalent per line without the `m` flag. */
const LINE_IDIOMS = ['(?:^|\\n)', '(?:\\n|^)', '(?=\\n|$)', '(?=$|\\n)', '(?:\\n|$)', '(?:$|\\n)'];

/** Escapes that can match a line feed. */
const NEWLINE_ESCAPES = new Set(['n', 's', 'W', 'D', 'c', 'p', 'P']);


/**
 * True when `source` with `flags` cannot match a `\n`, and its `^`/`$` anchors mean the same
 * thing on one line as inside a `\n`-joined text. Then for every text `t` made of lines `L`:
 * `re.test(t) === L.some((l) => re.test(l))`, and the first match lies in the first matching line.
 */
export const isLineLocal: (source: string, flags: string) => boolean = memoizeByPattern(2048, analyse);

function analyse(source: string, flags: string): boolean {
  // Sticky matches only at index 0 of the whole text; dotAll lets `.` cross lines; `v` class
  // syntax (set operations) is not analysed.
  if (flags.includes('y') || flags.includes('s') || flags.includes('v')) return false;
  const multiline = flags.includes('m');
  let rest = source;
  for (const idiom of LINE_IDIOMS) rest = rest.split(idiom).join('');
  let i = 0;
  while (i < rest.length) {
    const ch = rest[i]!;
    if (ch === '\\') {
      const next = rest[i + 1];
      if (next === undefined) return false;
      if (NEWLINE_ESCAPES.has(next)) return false;
      if (next === 'x' && rest.slice(i + 2, i + 4).toLowerCase() === '0a') return false;
      if (next === 'u') {
        const hex = rest[i + 2] === '{' ? rest.slice(i + 3, rest.indexOf('}', i)) : rest.slice(i + 2, i + 6);
        if (parseInt(hex, 16) === 10) return false;
      }
      if (next === '0') return false; // octal-ish escapes: not worth the risk
      i += 2;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(rest, i);
      if (end < 0) return false;
      if (!classExcludesNewline(rest.slice(i + 1, end))) return false;
      i = end + 1;
      continue;
    }
    if ((ch === '^' || ch === '$') && !multiline) return false;
    i += 1;
  }
  return true;
}

/** Index of the `]` closing the class opened at `start`, or -1. */
function classEnd(s: string, start: number): number {
  let i = start + 1;
  if (s[i] === '^') i += 1;
  for (; i < s.length; i += 1) {
    if (s[i] === '\\') { i += 1; continue; }
    if (s[i] === ']') return i;
  }
  return -1;
}

/** Whether a class body (between the brackets) can never match `\n`. */
function classExcludesNewline(body: string): boolean {
  const negated = body.startsWith('^');
  const inner = negated ? body.slice(1) : body;
  const mentionsNewline = /\\n|\\x0a|\\u000a|\\u\{a\}|\\s/i.test(inner);
  if (negated) {
    // [^…] matches a line feed unless it lists one explicitly (e.g. [^\n]).
    return /\\n|\\x0a|\\u000a/i.test(inner);
  }
  if (mentionsNewline || /\\[WDpPc]/.test(inner)) return false;
  // A range that spans U+000A (e.g. [\x00-\x1f], [\t-\r]) includes it.
  for (const m of inner.matchAll(/(\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\t|\\[0-9]|.)-(\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\r|\\f|\\v|.)/g)) {
    const lo = codeOf(m[1]!);
    const hi = codeOf(m[2]!);
    if (lo === null || hi === null || (lo <= 10 && hi >= 10)) return false;
  }
  return true;
}

function codeOf(token: string): number | null {
  if (token.length === 1) return token.charCodeAt(0);
  if (/^\\x/.test(token) || /^\\u/.test(token)) return parseInt(token.slice(2), 16);
  if (token === '\\t') return 9;
  if (token === '\\r') return 13;
  if (token === '\\f') return 12;
  if (token === '\\v') return 11;
  return null;
}
