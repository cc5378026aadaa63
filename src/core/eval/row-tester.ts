/**
 * Per-row predicate results over a frame, carried from one frame to the next.
 *
 * Section anchors and line-local regex leaves ask "does row i match?" for most rows of a
 * 240-row guard frame on every evaluation, while from one frame to the next only a few rows
 * change (a spinner, a streamed line) and the rest at most scroll. A tester keeps the previous
 * frame's answers and, for a new frame, copies them over (shifted by the scroll), then forgets
 * the rows that differ: an evaluation costs a few regex runs, not 240.
 *
 * The rows that differ between two frames are found once per pair of frames and shared by every
 * tester moving between them (see {@link RowCache.diff}). Answers are always exactly the predicate's
 * on the row's text: reuse needs the row's string to be equal.
 */
import { testRegex } from './regex-cache.js';
import type { FrameReads } from './frame-reads.js';

/** Row result codes: 0 = not tested yet, 1 = no match, 2 = match. */
export const ROW_UNTESTED = 0;
export const ROW_NO_MATCH = 1;
export const ROW_MATCH = 2;

/** How two consecutive frames line up. */
export interface FrameDiff {
  readonly prev: readonly string[];
  readonly next: readonly string[];
  /** `next[i]` is aligned with `prev[i + shift]` (the frame scrolled up by `shift` rows). */
  readonly shift: number;
  /** Rows of `next` aligned with a row of `prev`: `[0, aligned)`; rows past it are new. */
  readonly aligned: number;
  /** Rows `i < aligned` whose text differs from `prev[i + shift]`, ascending. */
  readonly changed: readonly number[];
}

/**
 * Testers and frame diffs of one evaluation context. A driver keeps one per session (frames of
 * different sessions never interleave in it); pure callers share {@link DEFAULT_ROW_CACHE}.
 */
export class RowCache {
  /** While set, every tester handed out is noted there (see FrameReads). */
  reads: FrameReads | null = null;
  readonly #regexTesters = new Map<RegExp, RowTester>();
  readonly #literalTesters = new Map<string, RowTester>();
  #diffA: FrameDiff | null = null;
  #diffB: FrameDiff | null = null;

  /** A tester for `re` positioned on `lines`. Answers are exactly `testRegex(re, lines[i])`. */
  regex(re: RegExp, lines: readonly string[]): RowTester {
    return this.#tester(this.#regexTesters, re, regexPredicate, lines);
  }

  /** A tester for "the row contains `literal`" positioned on `lines`. */
  literal(literal: string, lines: readonly string[]): RowTester {
    return this.#tester(this.#literalTesters, literal, literalPredicate, lines);
  }

  /** The predicate is made from the key only when a tester is created (not a closure per call). */
  #tester<K>(testers: Map<K, RowTester>, key: K, predicateOf: (key: K) => (line: string) => boolean, lines: readonly string[]): RowTester {
    let t = testers.get(key);
    if (!t) {
      if (testers.size >= MAX_TESTERS) testers.clear();
      t = new RowTester(this, predicateOf(key), lines);
      testers.set(key, t);
    } else if (t.lines !== lines) {
      t.moveTo(lines);
    }
    this.reads?.consulted(t);
    return t;
  }

  /** How `next` lines up with `prev`; remembered for the last two pairs asked. */
  diff(prev: readonly string[], next: readonly string[]): FrameDiff {
    const a = this.#diffA;
    if (a && a.prev === prev && a.next === next) return a;
    const b = this.#diffB;
    if (b && b.prev === prev && b.next === next) return b;
    const d = computeDiff(prev, next);
    this.#diffB = a;
    this.#diffA = d;
    return d;
  }
}

function regexPredicate(re: RegExp): (line: string) => boolean {
  return (line) => testRegex(re, line);
}

function literalPredicate(literal: string): (line: string) => boolean {
  return (line) => line.includes(literal);
}

/** A spec holds well under a hundred patterns; the bound only stops unbounded growth. */
const MAX_TESTERS = 512;

/** The cache of callers that do not bring their own (tests, explain, previews). */
export const DEFAULT_ROW_CACHE = new RowCache();

/** One predicate's results over the rows of the current frame. */
export class RowTester {
  lines: readonly string[];
  /** Per row of `lines`: {@link ROW_UNTESTED}, {@link ROW_NO_MATCH} or {@link ROW_MATCH} (entries past the frame mean nothing). */
  results: Uint8Array;
  /** The reads this tester was last noted in (see FrameReads.consulted). */
  readBy: FrameReads | null = null;

  constructor(
    private readonly cache: RowCache,
    private readonly predicate: (line: string) => boolean,
    lines: readonly string[],
  ) {
    this.lines = lines;
    this.results = new Uint8Array(lines.length);
  }

  /** Moves to a new frame, keeping the answers of rows that did not change. */
  moveTo(lines: readonly string[]): void {
    const n = lines.length;
    const d = this.cache.diff(this.lines, lines);
    const { shift, aligned } = d;
    // In place: the frame scrolled up by `shift`, so the kept answers move to the front (a
    // memmove); a buffer is only replaced when a taller frame comes. `results` may be longer
    // than the frame.
    let results = this.results;
    if (results.length < n) {
      const grown = new Uint8Array(Math.max(n, 64));
      grown.set(results.subarray(shift, shift + aligned));
      results = grown;
    } else if (shift !== 0 && aligned > 0) {
      results.copyWithin(0, shift, shift + aligned);
    }
    results.fill(ROW_UNTESTED, aligned, n);
    const changed = d.changed;
    for (let k = 0; k < changed.length; k += 1) results[changed[k]!] = ROW_UNTESTED;
    this.lines = lines;
    this.results = results;
  }

  /** Exactly the predicate on `lines[i]` (false past the end). */
  test(i: number): boolean {
    return i >= 0 && i < this.lines.length && (this.results[i] || this.code(i)) === ROW_MATCH;
  }

  /**
   * Row i's result code, testing it if it is not known yet. Hot loops read `results[i]` and call
   * this only for a 0: `(t.results[i] || t.code(i)) === ROW_MATCH`.
   */
  code(i: number): number {
    if (!(i >= 0 && i < this.lines.length)) return ROW_NO_MATCH;
    const known = this.results[i];
    if (known !== ROW_UNTESTED) return known ?? ROW_NO_MATCH;
    const line = this.lines[i];
    if (line === undefined) return ROW_NO_MATCH;
    const code = this.predicate(line) ? ROW_MATCH : ROW_NO_MATCH;
    this.results[i] = code;
    return code;
  }

  /**
   * The first row in [from, to) the predicate holds for, or -1 (rows past the frame hold none).
   * Rows are tested in order up to the match, as a plain scan would; a long run of rows known not
   * to match is skipped with native searches for the next untested or matching row.
   */
  firstMatch(from: number, to: number): number {
    const end = Math.min(to, this.lines.length);
    const results = this.results;
    let i = Math.max(0, from);
    let known = 0; // known non-matching rows passed in a row
    while (i < end) {
      const r = results[i];
      if (r === ROW_MATCH) return i;
      if (r === ROW_UNTESTED) {
        if (this.code(i) === ROW_MATCH) return i;
        known = 0;
        i += 1;
        continue;
      }
      if (++known < NATIVE_SKIP_AFTER) { i += 1; continue; }
      const match = nextIndex(results, ROW_MATCH, i, end);
      const untested = nextIndex(results, ROW_UNTESTED, i, match === -1 ? end : match);
      if (untested === -1) return match;
      known = 0;
      i = untested;
    }
    return -1;
  }

  /** The last row in [from, to) the predicate holds for, or -1: {@link firstMatch} from the other end. */
  lastMatch(from: number, to: number): number {
    const start = Math.max(0, from);
    const results = this.results;
    let i = Math.min(to, this.lines.length) - 1;
    let known = 0;
    while (i >= start) {
      const r = results[i];
      if (r === ROW_MATCH) return i;
      if (r === ROW_UNTESTED) {
        if (this.code(i) === ROW_MATCH) return i;
        known = 0;
        i -= 1;
        continue;
      }
      if (++known < NATIVE_SKIP_AFTER) { i -= 1; continue; }
      const match = prevIndex(results, ROW_MATCH, i, start);
      const untested = prevIndex(results, ROW_UNTESTED, i, match === -1 ? start : match + 1);
      if (untested === -1) return match;
      known = 0;
      i = untested;
    }
    return -1;
  }

  /** The result code the predicate gives `line` (not stored). */
  codeOf(line: string): number {
    return this.predicate(line) ? ROW_MATCH : ROW_NO_MATCH;
  }
}

/** Known non-matching rows passed one by one before a scan searches natively (two calls, ~50 ns each). */
const NATIVE_SKIP_AFTER = 8;

/** The first index in [from, end) holding `code`, or -1. */
function nextIndex(results: Uint8Array, code: number, from: number, end: number): number {
  if (from >= end) return -1;
  const i = results.indexOf(code, from);
  return i !== -1 && i < end ? i : -1;
}

/** The last index in [start, from] holding `code`, or -1. */
function prevIndex(results: Uint8Array, code: number, from: number, start: number): number {
  if (from < start) return -1;
  const i = results.lastIndexOf(code, from);
  return i >= start ? i : -1;
}

function computeDiff(prev: readonly string[], next: readonly string[]): FrameDiff {
  const shift = findShift(prev, next);
  const aligned = Math.max(0, Math.min(next.length, prev.length - shift));
  const changed: number[] = [];
  for (let i = 0; i < aligned; i += 1) if (next[i] !== prev[i + shift]) changed.push(i);
  return { prev, next, shift, aligned, changed };
}

/**
 * The scroll between two frames: the smallest s ≥ 0 with next[k] === prev[k + s] at a few
 * sampled rows (blank rows, and rows past the end of `prev`, align with anything). Candidates
 * come from where the first non-blank sample stands in `prev`, so a scroll of any size is found
 * in O(rows).
 */
function findShift(prev: readonly string[], next: readonly string[]): number {
  const n = Math.min(prev.length, next.length);
  if (n < 8) return 0;
  const samples = [Math.floor(n * 0.1), Math.floor(n * 0.3), Math.floor(n * 0.5), Math.floor(n * 0.7)];
  let anchor = -1;
  for (const k of samples) if (next[k] !== '') { anchor = k; break; }
  if (anchor === -1) return 0;
  const row = next[anchor];
  for (let s = 0; anchor + s < prev.length; s += 1) {
    if (prev[anchor + s] !== row) continue;
    let ok = true;
    for (const k of samples) {
      // Blank rows align with anything; rows scrolled in from below have nothing to align with.
      if (next[k] === '' || k + s >= prev.length) continue;
      if (prev[k + s] !== next[k]) { ok = false; break; }
    }
    if (ok) return s;
  }
  return 0;
}
