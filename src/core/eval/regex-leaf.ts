/**
 * The regex leaf (`matches`, spec-format §3.2): which rows or text it tests (a section, the
 * whole frame, clipped to the viewport for an absence check), the fast paths that give the same
 * answer without joining rows (line-local regexes per row, a required literal no row holds, the
 * memo of an unchanged haystack), and the cursor bounds.
 * @module
 */
import type { RegexCondition } from '../spec/types.js';
import type { CondResult, Cursor } from './types.js';
import { flagsOrDefault, pushTrace, withMatchedText, type EvalState } from './eval-state.js';
import { isLineLocal } from './line-local.js';
import { compileRegex, execRegex, execRow } from './regex-cache.js';
import { requiredLiteral } from './required-literal.js';
import { findSection, sectionText } from './sections.js';

/** What a regex leaf needs that depends only on its own fields, computed once per leaf object. */
interface RegexLeafFacts {
  section: unknown;
  matches: unknown;
  flagsField: unknown;
  where: unknown;
  detail: string;
  flags: string | null;
  re: RegExp | null;
  lineLocal: boolean;
  literal: string | null;
  /** `regexMemo` keys, by absence slot (present, absent). */
  memoKeys: [string, string];
}

const leafFacts = new WeakMap<object, RegexLeafFacts>();

function regexLeafFacts(c: RegexCondition): RegexLeafFacts {
  const known = leafFacts.get(c);
  // Checked against the leaf's fields, so an object edited in place is never read stale.
  if (known && known.section === c.section && known.matches === c.matches && known.flagsField === c.flags) return known;
  const where = c.section ?? '*';
  const flags = flagsOrDefault(c.flags);
  const re = typeof c.matches === 'string' && flags !== null ? compileRegex(c.matches, flags) : null;
  const facts: RegexLeafFacts = {
    section: c.section,
    matches: c.matches,
    flagsField: c.flags,
    where,
    detail: `${String(where)}~/${String(c.matches)}/`,
    flags,
    re,
    lineLocal: re !== null && isLineLocal(c.matches, flags!),
    literal: re !== null ? requiredLiteral(c.matches, flags!) : null,
    memoKeys: [0, 1].map((slot) => `${String(where)}\u0000${slot}\u0000${flags}\u0000${String(c.matches)}`) as [string, string],
  };
  leafFacts.set(c, facts);
  return facts;
}

export function evalRegex(c: RegexCondition, st: EvalState, isAbsenceCheck: boolean): CondResult {
  const facts = regexLeafFacts(c);
  const reused = st.reuse && !st.stale?.has(c, isAbsenceCheck) ? st.reuse.leafResult(c, isAbsenceCheck) : undefined;
  if (reused !== undefined) return { kind: 'regex', result: reused, detail: facts.detail };
  const r = readRegex(c, facts, st, isAbsenceCheck);
  st.reads?.leaf(c, isAbsenceCheck, r.result);
  return r;
}

function readRegex(c: RegexCondition, facts: RegexLeafFacts, st: EvalState, isAbsenceCheck: boolean): CondResult {
  const { detail, re, lineLocal, literal } = facts;
  let m: string | null = null;
  const range = re ? haystackRange(c.section, st, isAbsenceCheck) : null;
  if (re && range && lineLocal) {
    // Same answer as testing the joined text (see line-local.ts), but unchanged rows reuse
    // last frame's result.
    const i = st.rowCache.regex(re, st.lines).firstMatch(range.from, range.to);
    if (i !== -1) m = st.explain ? execRow(re, st.lines[i]!)?.[0] ?? '' : '';
  } else if (re && range && !rowsContain(st, range, literal)) {
    // Every match must contain a literal that no row holds (it has no line break, so it cannot
    // straddle rows): no match, without joining the rows or running the regex.
    m = null;
  } else if (re) {
    // One exec serves both the decision and matchedText (the first match of exec is exactly
    // what test() would have found), so a true leaf costs one regex run, not two.
    st.reads?.leafText(c, isAbsenceCheck, range ? range.from : 0, range ? range.to : Infinity);
    m = memoizedMatch(st, facts.memoKeys[isAbsenceCheck ? 1 : 0], re, range, () => regexHaystack(c.section, st, isAbsenceCheck));
    st.reads?.leafTextDone();
  }
  if (m === null) {
    if (st.trace) pushTrace(st, 'state_skip', `state[${st.label}] regex cond ${detail} no match`);
    return { kind: 'regex', result: false, detail };
  }
  const cur = st.cursor;
  if (cur) {
    if (st.reads && hasCursorBounds(c)) st.reads.usesCursor = true;
    const violation = cursorViolation(c, cur);
    if (violation) {
      if (st.trace) pushTrace(st, 'state_skip', `state[${st.label}] ${violation}`);
      return { kind: 'regex', result: false, detail };
    }
  }
  if (!st.explain) return { kind: 'regex', result: true, detail };
  const at = cur ? ` cursor=(${cur.row},${cur.col})` : '';
  if (st.trace) pushTrace(st, 'state_match', `state[${st.label}] regex cond ${detail} matched${at}`);
  return withMatchedText({ kind: 'regex', result: true, detail }, m);
}

/**
 * The first match's text, or null. Reuses the caller's memo when the leaf's haystack is
 * unchanged: for a run of rows, when it is the same rows as last time, wherever they now stand
 * (rows come from the screen's row cache, so an unchanged row is the same string and compares
 * in O(1)) — the text is then not even joined; otherwise when the text is equal.
 */
function memoizedMatch(st: EvalState, key: string, re: RegExp, range: { from: number; to: number } | null, haystackOf: () => string): string | null {
  const memo = st.regexMemo;
  const hit = memo?.get(key);
  if (hit) {
    if (range && hit.lines && hit.to! - hit.from! === range.to - range.from && sameRowsAt(hit.lines, hit.from!, st.lines, range.from, range.to - range.from)) return hit.match;
    if (!range && hit.haystack !== undefined && hit.haystack === haystackOf()) return hit.match;
  }
  const haystack = haystackOf();
  const m = execRegex(re, haystack);
  const match = m ? m[0] : null;
  memo?.set(key, range ? { lines: st.lines, from: range.from, to: range.to, match } : { haystack, match });
  return match;
}

/** Whether some row in the range contains `literal` (true when there is no literal to check). */
function rowsContain(st: EvalState, range: { from: number; to: number }, literal: string | null): boolean {
  if (literal === null) return true;
  return st.rowCache.literal(literal, st.lines).firstMatch(range.from, range.to) !== -1;
}

/** Whether `a[aFrom..aFrom+n)` and `b[bFrom..bFrom+n)` are the same rows. */
function sameRowsAt(a: readonly string[], aFrom: number, b: readonly string[], bFrom: number, n: number): boolean {
  if (a === b && aFrom === bFrom) return true;
  if (aFrom + n > a.length || bFrom + n > b.length) return false;
  for (let k = 0; k < n; k += 1) if (a[aFrom + k] !== b[bFrom + k]) return false;
  return true;
}

/**
 * The text a regex leaf tests. Presence checks see the whole guard frame; an absence check
 * (odd number of `not`s above) sees only rows at or below `viewportStartRow`, so a stale
 * spinner copy in scrollback cannot hold a session busy (spec-format §13.6).
 */
function regexHaystack(section: unknown, st: EvalState, isAbsenceCheck: boolean): string {
  const id = typeof section === 'string' ? section : undefined;
  if (!isAbsenceCheck || st.viewportStartRow === 0) {
    if (section && typeof section !== 'string') return '';
    // The whole joined frame only when the leaf reads it: a section leaf must not pay for it.
    return id ? sectionText(st.sections, id, '') : st.screen;
  }
  if (section && typeof section !== 'string') return '';
  const memoKey = id ?? '';
  const memo = st.clipped?.get(memoKey);
  if (memo !== undefined) return memo;
  const vsr = st.viewportStartRow;
  let text: string;
  if (!id) {
    text = st.lines.slice(vsr).join('\n');
  } else {
    const s = findSection(st.sections, id);
    if (!s) text = '';
    else {
      const from = Math.max(s.fromLine, vsr);
      text = from < s.toLine ? st.lines.slice(from, s.toLine).join('\n') : '';
    }
  }
  (st.clipped ??= new Map()).set(memoKey, text);
  return text;
}

/**
 * The rows of `st.lines` a regex leaf's haystack is made of, or null when the haystack is not
 * a non-empty run of rows (an unknown section, an empty section): those take the string path.
 */
function haystackRange(section: unknown, st: EvalState, isAbsenceCheck: boolean): { from: number; to: number } | null {
  if (section !== undefined && typeof section !== 'string') return null;
  let from = 0;
  let to = st.lines.length;
  if (typeof section === 'string') {
    const s = findSection(st.sections, section);
    if (!s) return null;
    from = s.fromLine;
    to = s.toLine;
  }
  if (isAbsenceCheck && st.viewportStartRow > 0) from = Math.max(from, st.viewportStartRow);
  return to > from ? { from, to } : null;
}

function hasCursorBounds(c: RegexCondition): boolean {
  return c.cursor_row_min !== undefined || c.cursor_row_max !== undefined || c.cursor_col_min !== undefined || c.cursor_col_max !== undefined;
}

function cursorViolation(c: RegexCondition, cur: Cursor): string | null {
  if (typeof c.cursor_row_min === 'number' && cur.row < c.cursor_row_min) return `cursor row ${cur.row} < cursor_row_min ${c.cursor_row_min}`;
  if (typeof c.cursor_row_max === 'number' && cur.row > c.cursor_row_max) return `cursor row ${cur.row} > cursor_row_max ${c.cursor_row_max}`;
  if (typeof c.cursor_col_min === 'number' && cur.col < c.cursor_col_min) return `cursor col ${cur.col} < cursor_col_min ${c.cursor_col_min}`;
  if (typeof c.cursor_col_max === 'number' && cur.col > c.cursor_col_max) return `cursor col ${cur.col} > cursor_col_max ${c.cursor_col_max}`;
  return null;
}
