/**
 * What one evaluation read of its frame, so that a later frame can be checked against it.
 *
 * Evaluation is a deterministic function of what it reads: row predicate answers (through
 * {@link RowTester}s), row text it joins, the frame's height, the cursor, the title, the previous
 * frame, and the clock. When a new frame gives the same answer to every one of those reads except
 * the clock, the evaluation would take the same path and reach the same leaf results; only the
 * time leaves (`elapsed_ms`, `stable_ms`, holds) can come out differently. A driver uses that to
 * re-decide a spinner repaint from the recorded leaf results instead of evaluating it again
 * ({@link FrameReads.sameAnswersOn}); the driver's differential test checks the two agree on every
 * recording.
 */
import type { RowTester } from './row-tester.js';
import { ROW_UNTESTED } from './row-tester.js';

/** Leaf results by leaf object, one map per absence parity (a leaf under an odd number of `not`s reads the viewport only). */
type LeafResults = [Map<object, boolean>, Map<object, boolean>];

export class FrameReads {
  /** The frame the evaluation read. */
  lines: readonly string[] | null = null;
  /** Testers it consulted, each once (each still positioned on `lines` when nothing moved it since). */
  readonly testers: RowTester[] = [];

  /** Notes a consulted tester (once per evaluation: the tester remembers whose reads it joined). */
  consulted(t: RowTester): void {
    if (t.readBy === this) return;
    t.readBy = this;
    this.testers.push(t);
  }
  /** Row ranges whose text it read directly, as [from, to) pairs. */
  readonly textRanges: number[] = [];
  /** It read the whole joined frame (or a haystack it could not narrow to rows). */
  wholeText = false;
  /** It read the cursor (cursor bounds of a true regex leaf). */
  usesCursor = false;
  /** It read the window title. */
  usesTitle = false;
  /** It read the previous frame (`changed` leaves). */
  usesPrevLines = false;
  readonly #leaves: LeafResults = [new Map(), new Map()];

  /** Notes that rows [from, to) were read as text. */
  text(from: number, to: number): void {
    if (to > from) this.textRanges.push(from, to);
  }

  /** Records a text-reading leaf's result (regex, title or changed). */
  leaf(cond: object, isAbsenceCheck: boolean, result: boolean): void {
    this.#leaves[isAbsenceCheck ? 1 : 0].set(cond, result);
  }

  /** The recorded result of a leaf, or undefined when it was not evaluated. */
  leafResult(cond: object, isAbsenceCheck: boolean): boolean | undefined {
    return this.#leaves[isAbsenceCheck ? 1 : 0].get(cond);
  }

  /**
   * Whether an evaluation of `next` would read the same answers, given the rows of `next` that
   * differ from `lines` (`changed`, both frames of the same height and not scrolled). Tests each
   * changed row with every consulted tester that had tested it; a changed row inside a text range
   * fails at once.
   */
  sameAnswersOn(next: readonly string[], changed: readonly number[]): boolean {
    if (changed.length === 0) return true;
    if (this.wholeText) return false;
    const ranges = this.textRanges;
    for (const i of changed) {
      for (let r = 0; r < ranges.length; r += 2) if (i >= ranges[r]! && i < ranges[r + 1]!) return false;
    }
    for (const t of this.testers) {
      if (t.lines !== this.lines) return false; // moved since: its answers are not this frame's
      for (const i of changed) {
        const before = t.results[i];
        if (before === ROW_UNTESTED) continue; // never read: it cannot have steered the evaluation
        if (t.codeOf(next[i]!) !== before) return false;
      }
    }
    return true;
  }
}
