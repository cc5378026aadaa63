/**
 * What one evaluation read of its frame, so that a later frame can be checked against it.
 *
 * Evaluation is a deterministic function of what it reads: row predicate answers (through
 * {@link RowTester}s), row text it joins, the frame's height, the cursor, the title, the previous
 * frame, and the clock. When a new frame gives the same answer to every one of those reads except
 * the clock, the evaluation would take the same path and reach the same leaf results; only the
 * time leaves (`elapsed_ms`, `stable_ms`, holds) can come out differently. A driver uses that to
 * re-decide a spinner repaint from the recorded leaf results instead of evaluating it again
 * ({@link FrameReads.staleLeaves}); the driver's differential test checks the two agree on every
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
  /** Text read by single regex leaves: [from, to) rows (to = Infinity: the whole frame). */
  readonly #leafTexts: Array<{ cond: object; isAbsenceCheck: boolean; from: number; to: number }> = [];
  /** While a leaf reads its haystack, section getters' notes belong to the leaf, not the frame. */
  #inLeaf = false;

  /** Notes a consulted tester (once per evaluation: the tester remembers whose reads it joined). */
  consulted(t: RowTester): void {
    if (t.readBy === this) return;
    t.readBy = this;
    this.testers.push(t);
  }

  /** Notes that rows [from, to) were read as text. */
  text(from: number, to: number): void {
    if (!this.#inLeaf && to > from) this.textRanges.push(from, to);
  }

  /** Notes that the whole joined frame was read. */
  whole(): void {
    if (!this.#inLeaf) this.wholeText = true;
  }

  /**
   * Notes that one regex leaf reads the text of rows [from, to) (to = Infinity: the whole frame),
   * and routes the section reads of that haystack to it until {@link leafTextDone}. When only
   * such text changes, the leaf alone is evaluated again (see {@link staleLeaves}).
   */
  leafText(cond: object, isAbsenceCheck: boolean, from: number, to: number): void {
    this.#leafTexts.push({ cond, isAbsenceCheck, from, to });
    this.#inLeaf = true;
  }

  leafTextDone(): void {
    this.#inLeaf = false;
  }

  /** Records a regex leaf's result (title and `changed` leaves are flagged instead: usesTitle, usesPrevLines). */
  leaf(cond: object, isAbsenceCheck: boolean, result: boolean): void {
    this.#leaves[isAbsenceCheck ? 1 : 0].set(cond, result);
  }

  /** The recorded result of a leaf, or undefined when it was not evaluated. */
  leafResult(cond: object, isAbsenceCheck: boolean): boolean | undefined {
    return this.#leaves[isAbsenceCheck ? 1 : 0].get(cond);
  }

  /**
   * Whether an evaluation of `next` would read the same answers, given the rows of `next` that
   * differ from `lines` at the same index (`changed`, both frames of the same height), except for
   * regex leaves whose own haystack text changed: null when something else answers differently
   * (each changed row is tested with every consulted tester that had tested it; a changed row
   * in a text read outside a leaf fails at once), else those leaves — to evaluate afresh, their
   * sections standing where they stood.
   */
  staleLeaves(next: readonly string[], changed: readonly number[]): StaleLeaves | null {
    return this.#staleLeaves(next, changed, 0);
  }

  /**
   * {@link staleLeaves} for a frame of the same height scrolled up by `shift` rows since the
   * recorded one: the reads are by row index, so the rows that count as changed are those whose
   * text differs at the same index — after a scroll, most of them. A row's new answer is then
   * taken from the recorded answer of the row it scrolled from when that row's text is the same
   * (a byte read, not a regex run).
   */
  staleLeavesScrolled(next: readonly string[], shift: number): StaleLeaves | null {
    const prev = this.lines;
    if (!prev || prev.length !== next.length || this.wholeText) return null;
    const changed: number[] = [];
    for (let i = 0; i < next.length; i += 1) if (next[i] !== prev[i]) changed.push(i);
    return this.#staleLeaves(next, changed, shift);
  }

  #staleLeaves(next: readonly string[], changed: readonly number[], shift: number): StaleLeaves | null {
    const stale = new StaleLeaves();
    if (changed.length === 0) return stale;
    if (this.wholeText) return null;
    const ranges = this.textRanges;
    for (const i of changed) {
      for (let r = 0; r < ranges.length; r += 2) if (i >= ranges[r]! && i < ranges[r + 1]!) return null;
    }
    const prev = this.lines!;
    for (const t of this.testers) {
      if (t.lines !== prev) return null; // moved since: its answers are not this frame's
      const results = t.results;
      for (const i of changed) {
        const before = results[i];
        if (before === ROW_UNTESTED) continue; // never read: it cannot have steered the evaluation
        const line = next[i]!;
        const from = i + shift;
        // The row it scrolled from, when its text is the same and its answer recorded, answers for it.
        const known = shift !== 0 && from < prev.length && prev[from] === line ? results[from]! : ROW_UNTESTED;
        if ((known || t.codeOf(line)) !== before) return null;
      }
    }
    for (const read of this.#leafTexts) {
      for (const i of changed) {
        if (i >= read.from && i < read.to) {
          stale.add(read.cond, read.isAbsenceCheck);
          break;
        }
      }
    }
    return stale;
  }
}

/** Regex leaves to evaluate afresh in a re-decision (their haystack text changed). */
export class StaleLeaves {
  /** Made on the first add: most re-decisions have no stale leaf. */
  #leaves: [Set<object>, Set<object>] | null = null;
  count = 0;

  add(cond: object, isAbsenceCheck: boolean): void {
    const set = (this.#leaves ??= [new Set(), new Set()])[isAbsenceCheck ? 1 : 0];
    if (set.has(cond)) return;
    set.add(cond);
    this.count += 1;
  }

  has(cond: object, isAbsenceCheck: boolean): boolean {
    return this.count > 0 && this.#leaves![isAbsenceCheck ? 1 : 0].has(cond);
  }
}
