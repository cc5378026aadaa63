/**
 * FrameEvaluator — the driver's evaluation path: one guard frame of the screen in, at most one
 * transition out. It keeps what evaluations carry from frame to frame (the previous frame, the
 * region clocks, the last full evaluation's reads for re-deciding the next frames, the regex memo
 * and row cache) and asks the pure core to decide; the driver owns the FSM node itself and does
 * what follows a decision (commit, emit, sender, wake), through the host.
 *
 * @module
 */
import type { CliSpecV4 } from '../core/spec/types.js';
import type { EvalExtras, FsmClock, FsmEvaluation, OscValue, RegexMemo, ResolvedSection, TransitionEval } from '../core/eval/types.js';
import {
  collectStableRegions, decideFsmLines, evaluateFsmLines, soonestFlipMs, FrameReads, rebindSections, regionChanged, resolveSections, RowCache,
  sameJoinedLines, type FsmFrameArgs, type StaleLeaves,
} from '../core/eval/index.js';
import type { GuardFrame } from '../core/screen/guard-frame.js';
import type { TerminalScreen } from '../terminal/index.js';
import type { ViewFrame } from './derived-view.js';

/** Scrolled frames evaluated in full, untried, after a scroll failed to re-decide (a heuristic: results never depend on it). */
const SCROLL_CHECKS_SKIPPED_AFTER_FAILURE = 8;

/** Why an evaluation runs: `output` ones are skipped on an unchanged screen. */
export type EvaluationReason = 'init' | 'output' | 'timer' | 'reload' | 'chain';

/** What the evaluation path reads from the driver and hands back to it. */
export interface FrameEvaluatorHost {
  spec(): CliSpecV4;
  stateId(): string;
  stateEnteredAt(): number;
  now(): number;
  /** When output last reached the screen, or the screen was resized (what can change a region). */
  screenWrittenAt(): number;
  /** An evaluation runs (not skipped): the cadence notes it. */
  beginEvaluation(now: number, reason: EvaluationReason): void;
  /** The spec's startup_dismiss, checked on every evaluation that runs. */
  maybeDismissStartup(viewportText: () => string, now: number): void;
  /** A picker press sequence is under way (its frames are never re-decided). */
  hasPickerInProgress(): boolean;
  /** Enters `fired.to` (the region clocks are already cleared). */
  commit(fired: TransitionEval, ev: FsmEvaluation, now: number): void;
  /** After every full evaluation, moved or not: the first idle state marks the agent ready. */
  markReady(): void;
  /** What follows every decision, full or re-decided (see FsmDriver#afterDecision). */
  afterDecision(force: boolean, viewportText: () => string, view: ViewFrame, now: number, movedState: boolean, soonestMs: number): void;
}

export class FrameEvaluator {
  readonly #host: FrameEvaluatorHost;
  readonly #screen: TerminalScreen;
  readonly #reuseEvaluations: boolean;

  #regionLastChangedAt = new Map<number | string, number>();
  #prevFrame: { lines: string[]; sections: ResolvedSection[] } | null = null;
  #lastViewport: readonly string[] = [];
  #lastTitle = '';
  /** The screen's OSC payload counter as of the last evaluation (a new payload re-evaluates). */
  #lastOscSeq = 0;
  /**
   * The last evaluation's explained table, built on first read from its inputs. Kept as data,
   * not as a thunk: a fresh closure stored on the driver for every frame is held by V8 past its
   * replacement, and every frame it closed over was promoted by the young-generation GC.
   */
  #lastExplain: LazyExplanation | null = null;
  #evalCount = 0;
  /** Evaluations re-decided from the last full one's reads (a subset of #evalCount). */
  #reusedEvalCount = 0;
  /** What the last full evaluation read, and of which frame, state and spec. */
  #lastReads: { reads: FrameReads; spec: CliSpecV4; stateId: string; frame: GuardFrame; sections: ResolvedSection[]; title: string } | null = null;
  /** Scrolled frames still to evaluate in full without trying a re-decision (see #redecide). */
  #scrollChecksToSkip = 0;
  #regexMemo: RegexMemo = new Map();
  /** Per-row regex results carried across guard frames. */
  #rowCache = new RowCache();

  /** `reuseEvaluations` false evaluates every frame in full (FsmDriverOptions.reuseEvaluations). */
  constructor(host: FrameEvaluatorHost, screen: TerminalScreen, reuseEvaluations: boolean) {
    this.#host = host;
    this.#screen = screen;
    this.#reuseEvaluations = reuseEvaluations;
  }

  /** When the screen last changed (the whole-screen region), or undefined since the state was entered. */
  screenChangedAt(): number | undefined {
    return this.#regionLastChangedAt.get(-1);
  }

  /** The machine clock at `now` (state entry, region clocks). */
  clock(now: number): FsmClock {
    return { now, stateEnteredAt: this.#host.stateEnteredAt(), regionLastChangedAt: this.#regionLastChangedAt };
  }

  /** The previous guard frame's lines, for `changed` conditions. */
  prevLines(): string[] | undefined {
    return this.#prevFrame?.lines;
  }

  /** Evaluations so far, and how many of them were re-decided. */
  evalCounts(): { evalCount: number; reusedEvalCount: number } {
    return { evalCount: this.#evalCount, reusedEvalCount: this.#reusedEvalCount };
  }

  /** A new spec is in force: regex results of the old one are forgotten. */
  onSpecReloaded(): void {
    this.#regexMemo.clear();
  }

  /**
   * One evaluation. `output` evaluations are skipped when neither the viewport nor the window
   * title changed (cursor-only changes do not count); timers and forced reasons always run.
   */
  evaluate(reason: EvaluationReason): void {
    const host = this.#host;
    const now = host.now();
    const viewport = this.#screen.viewportLines();
    const title = this.#screen.windowTitle;
    const oscSeq = this.#screen.osc.seq;
    if (reason === 'output' && title === this.#lastTitle && oscSeq === this.#lastOscSeq && sameLines(viewport, this.#lastViewport)) return;
    const frame = this.#screen.guardFrame();
    host.beginEvaluation(now, reason);
    this.#lastTitle = title;
    this.#lastOscSeq = oscSeq;
    this.#lastViewport = viewport;
    // Joined only for the consumers that read text (title rules, signals, pickers, startup dismiss).
    let joinedViewport: string | undefined;
    const viewportText = (): string => (joinedViewport ??= viewport.join('\n'));
    this.#evalCount += 1;

    host.maybeDismissStartup(viewportText, now);

    let joinedFrame: string | undefined;
    const frameText = (): string => (joinedFrame ??= frame.lines.join('\n'));
    if ((reason === 'output' || reason === 'timer') && this.#redecide(frame, title, now, viewportText, frameText, viewport)) return;

    // Sections are resolved once per evaluation: region tracking and the guards share them. What
    // they and the guards read is noted, so the next frames can be re-decided from it.
    const reads = this.#reuseEvaluations ? new FrameReads() : undefined;
    if (reads) reads.lines = frame.lines;
    this.#rowCache.reads = reads ?? null;
    const sections = resolveSections(host.spec().sections, frame.lines, frameText, this.#rowCache, reads);
    this.#trackRegionChanges({ lines: frame.lines, sections }, frame.cursor.row, now);
    // Decided without the debug strings; the explained table (same results) is built only for a
    // commit's snapshot and for debug reads, from the same inputs.
    const input = this.#frameInput(frame, frameText, title, now);
    const { spec, stateId } = input;
    const shared = { regexMemo: this.#regexMemo, sections, rowCache: this.#rowCache };
    const ev = onFrame(evaluateFsmLines, input, { regexMemo: this.#regexMemo, sections, rowCache: this.#rowCache, explain: false, reads });
    this.#rowCache.reads = null;
    this.#lastReads = reads ? { reads, spec, stateId, frame, sections, title } : null;
    this.#prevFrame = { lines: frame.lines, sections };

    const fired = ev.fired;
    const from = stateId;
    // The region clocks and the state stay as they are until the next evaluation replaces this.
    this.#lastExplain = { input, extras: shared, explained: undefined };
    if (fired) {
      // Explained before the commit clears the region clocks the table reads.
      const explained = this.lastEvaluation()!;
      this.#regionLastChangedAt.clear();
      host.commit(explained.fired ?? fired, explained, now);
    }
    host.markReady();
    // A self-transition ("*" → the current state, §13.24) is committed as the reference does,
    // but never chained: its guard stays true and would spin.
    const movedState = fired !== null && fired.to !== from;
    const force = reason === 'init' || reason === 'reload';
    host.afterDecision(force, viewportText, { sections, text: frameText, viewport }, now, movedState, soonestFlipMs(ev));
  }

  /**
   * Re-decides `frame` from the last full evaluation's reads when every read answers alike on it
   * (same state and spec, same height, each row that differs at its index — after a scroll, most
   * rows — giving every consulted predicate its old answer and lying outside any text read):
   * sections and text-reading leaves
   * are then as recorded, and only region clocks and time leaves are worked out again. A spinner
   * repaint costs that instead of a full evaluation. False (nothing done) when it does not apply
   * or a transition would fire — the full evaluation then runs.
   */
  #redecide(frame: GuardFrame, title: string, now: number, viewportText: () => string, frameText: () => string, viewport: readonly string[]): boolean {
    const last = this.#lastReads;
    if (!last || last.spec !== this.#host.spec() || last.stateId !== this.#host.stateId() || this.#host.hasPickerInProgress()) return false;
    const { reads } = last;
    if (reads.usesPrevLines || (reads.usesTitle && title !== last.title)) return false;
    const before = last.frame;
    if (frame.lines.length !== before.lines.length || frame.viewportStartRow !== before.viewportStartRow) return false;
    if (reads.usesCursor && (frame.cursor.row !== before.cursor.row || frame.cursor.col !== before.cursor.col)) return false;
    let stale: StaleLeaves | null = null;
    if (frame.lines !== before.lines) {
      const d = this.#rowCache.diff(before.lines, frame.lines);
      if (d.shift === 0 && d.aligned === frame.lines.length) {
        stale = reads.staleLeaves(frame.lines, d.changed);
      } else {
        // A scroll is checked row by row, and where section anchors move with the text it rarely
        // passes: after a failed check the next few scrolls go straight to a full evaluation.
        if (this.#scrollChecksToSkip > 0) {
          this.#scrollChecksToSkip -= 1;
          return false;
        }
        stale = reads.staleLeavesScrolled(frame.lines, d.shift);
        if (!stale) this.#scrollChecksToSkip = SCROLL_CHECKS_SKIPPED_AFTER_FAILURE;
      }
      if (!stale) return false;
    }
    // Leaves whose own haystack changed read it afresh, from sections over this frame's rows. A
    // modal state's extraction reads its sections' text after the evaluation, and those reads are
    // noted in the same FrameReads: a frame that changed a row of them was evaluated in full.
    const sections = stale && stale.count > 0 ? rebindSections(last.sections, frame.lines, frameText) : last.sections;
    this.#trackRegionChanges({ lines: frame.lines, sections }, frame.cursor.row, now);
    const input = this.#frameInput(frame, frameText, title, now);
    const decision = onFrame(decideFsmLines, input, { sections, reuse: reads, stale: stale ?? undefined, regexMemo: this.#regexMemo });
    // A commit keeps an explained table and starts a new state: the full evaluation does that.
    if (decision.firedTo !== null) return false;
    this.#reusedEvalCount += 1;
    // Explained (when asked) on the default row cache, not the session's: the session's testers
    // stay on the recorded frame the next re-decisions check against.
    this.#lastExplain = { input, extras: {}, explained: undefined };
    this.#prevFrame = { lines: frame.lines, sections };
    this.#host.afterDecision(false, viewportText, { sections, text: frameText, viewport }, now, false, decision.soonestMs);
    return true;
  }

  /** The last evaluation's explained table (built once, on first read), or null before any. */
  lastEvaluation(): FsmEvaluation | null {
    const last = this.#lastExplain;
    if (!last) return null;
    return (last.explained ??= onFrame(evaluateFsmLines, last.input, { ...last.extras, explain: true }));
  }

  /**
   * Marks stable_ms regions that differ from the previous frame (§10.1 step 4), as changed when
   * the screen was last written, not at this evaluation: evaluations fall on the cadence's
   * moments, which a live session (timers late under load) and its replay do not share, and a
   * window counted from them made a replay reach a state up to 150 ms after the live session did.
   */
  #trackRegionChanges(cur: { lines: string[]; sections: ResolvedSection[] }, cursorRow: number, now: number): void {
    if (!this.#prevFrame) return;
    let changedAt: number | undefined;
    for (const region of collectStableRegions(this.#host.spec(), this.#host.stateId())) {
      if (!regionChanged(region, cur, this.#prevFrame, cursorRow)) continue;
      changedAt ??= Math.max(this.#host.stateEnteredAt(), Math.min(now, this.#host.screenWrittenAt()));
      this.#regionLastChangedAt.set(region.key, changedAt);
    }
  }

  /** Everything an evaluation of `frame` in the current state takes (full or re-decided). */
  #frameInput(frame: GuardFrame, frameText: () => string, title: string, now: number): FrameInput {
    return { spec: this.#host.spec(), stateId: this.#host.stateId(), frame, frameText, prevLines: this.#prevFrame?.lines, clock: this.clock(now), title, osc: this.#screen.osc.values };
  }
}

// ── helpers ─────────────────────────────────────────────────────────────

/** An evaluation's inputs, to explain it on demand (see FrameEvaluator#lastEvaluation). */
interface LazyExplanation {
  input: FrameInput;
  extras: EvalExtras;
  explained: FsmEvaluation | undefined;
}

/** One guard frame and everything else an evaluation of it takes. */
interface FrameInput {
  spec: CliSpecV4;
  stateId: string;
  frame: GuardFrame;
  frameText: () => string;
  prevLines: string[] | undefined;
  clock: FsmClock;
  title: string;
  /** The OSC payloads as of this frame (`osc` leaves; the map is replaced, never changed, by new ones). */
  osc: ReadonlyMap<number, OscValue>;
}

/**
 * Runs `evaluateFsmLines` or `decideFsmLines` on a guard frame: the state's outgoing transitions,
 * no trace lines (nobody reads them here). `extras` is a fresh object of the caller's: the
 * frame's own fields are written into it (a spread of it cost about a microsecond per frame).
 */
function onFrame<R>(run: (...args: FsmFrameArgs) => R, input: FrameInput, extras: EvalExtras): R {
  const { frame } = input;
  extras.windowTitle = input.title;
  extras.osc = input.osc;
  extras.viewportStartRow = frame.viewportStartRow;
  extras.collectTrace = false;
  return run(input.spec, input.stateId, frame.lines, input.frameText, frame.cursor, input.prevLines, input.clock, extras);
}

/** Element-wise equality (from the bottom); rows come from the screen's row cache, so unchanged rows are the same string. */
function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && sameJoinedLines(a, 0, a.length, b, 0, b.length));
}
