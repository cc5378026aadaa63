/**
 * Compile-once regex cache plus stateless test/exec helpers.
 *
 * Evaluation runs on every frame of many sessions; compiling a spec's regexes per frame
 * would dominate the cost. Compiled `RegExp` objects are shared between callers, so every
 * use goes through `testRegex`/`execRegex`, which reset `lastIndex` first: a `g`/`y` flag
 * can then never make `test()` stateful (the reference bug, spec-format §13.27).
 */
import { memoizeByPattern } from './pattern-memo.js';

/**
 * Returns the compiled regex for `source` with `flags`, or `null` when either is invalid
 * (bad syntax, unknown or repeated flag, non-string input). Results — including `null`
 * for an invalid pattern — are memoized per (source, flags), so a frame never compiles.
 *
 * The returned object is shared: use {@link testRegex} / {@link execRegex} (or reset
 * `lastIndex` yourself) instead of calling `test`/`exec` on it directly.
 */
export function compileRegex(source: string, flags: string): RegExp | null {
  if (typeof source !== 'string' || typeof flags !== 'string') return null;
  return compileMemo(source, flags);
}

const compileMemo = memoizeByPattern(1024, (source, flags): RegExp | null => {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
});

/**
 * `re.test(text)` from position 0, whatever `g`/`y` and earlier uses left in `lastIndex`.
 * Never throws (a pathological pattern that exhausts the regex stack counts as no match).
 */
export function testRegex(re: RegExp, text: string): boolean {
  try {
    re.lastIndex = 0;
    return re.test(text);
  } catch {
    return false;
  }
}

/** The last row each regex was run on, and what it found there. */
const lastRowExec = new WeakMap<RegExp, { row: string; match: RegExpExecArray | null }>();

/**
 * `execRegex(re, row)`, remembered for the last row per regex: the row a leaf or a signal rule
 * matches in usually stays the same frame after frame. Treat the result as read-only.
 */
export function execRow(re: RegExp, row: string): RegExpExecArray | null {
  const hit = lastRowExec.get(re);
  if (hit && hit.row === row) return hit.match;
  const match = execRegex(re, row);
  lastRowExec.set(re, { row, match });
  return match;
}

/** `re.exec(text)` from position 0 (see {@link testRegex}); `null` on no match or failure. */
export function execRegex(re: RegExp, text: string): RegExpExecArray | null {
  try {
    re.lastIndex = 0;
    return re.exec(text);
  } catch {
    return null;
  }
}

/**
 * Every match of `re` over `text` in order, as `exec` with a `g` flag would yield them,
 * but never looping forever on an empty match (the index is advanced past it).
 * `re` must carry the `g` flag; without it only the first match is returned.
 */
export function execAll(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  try {
    re.lastIndex = 0;
    if (!re.global) {
      const m = re.exec(text);
      if (m) out.push(m);
      return out;
    }
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      out.push(m);
      if (m[0] === '') re.lastIndex = advanceIndex(text, re.lastIndex, re.unicode || re.flags.includes('v'));
    }
  } catch {
    // A regex-engine failure mid-way keeps what was found so far.
  } finally {
    re.lastIndex = 0;
  }
  return out;
}

/** Next index after an empty match: one code point in unicode mode, else one code unit. */
function advanceIndex(text: string, index: number, unicode: boolean): number {
  if (unicode && index < text.length) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) return index + 2;
  }
  return index + 1;
}
