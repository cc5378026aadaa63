/**
 * Shapes produced by evaluation: resolved sections, per-condition results and the
 * per-transition table (seed 001's CondResult / TransitionEval / FsmEvaluation).
 */
import type { ModalKind } from '../spec/types.js';
import type { RowCache } from './row-tester.js';
import type { FrameReads, StaleLeaves } from './frame-reads.js';

export interface Cursor {
  /** 0-based row, in the same coordinates as the lines being evaluated. */
  row: number;
  /** 0-based column. */
  col: number;
}

export interface ResolvedSection {
  id: string;
  /** First line, inclusive (0-based). */
  fromLine: number;
  /** End line, exclusive. */
  toLine: number;
  text: string;
}

/** A legacy trace line produced by regex/changed leaves. */
export interface TraceEntry {
  kind: string;
  text: string;
}

/**
 * Clock for one evaluation. Passed in so evaluation stays pure.
 * `regionLastChangedAt` keys: `-1` whole screen, `N` cursor_above N, `section:<id>`,
 * any of them suffixed with `#ignore:<pattern>` when `ignore_lines` is set.
 * A missing key means "not seen changing in this state" → stable since state entry.
 */
export interface FsmClock {
  now: number;
  stateEnteredAt: number;
  regionLastChangedAt: Map<number | string, number>;
}

/** The last payload a CLI wrote with one OSC number (`ESC ] N ; payload`), and when it arrived. */
export interface OscValue {
  readonly payload: string;
  readonly at: number;
}

/** Observation beyond the screen text (all optional). */
export interface EvalExtras {
  /** Terminal window title (OSC 0/2) for `window_title` leaves; absent = empty. */
  windowTitle?: string;
  /**
   * The last payload of each tracked OSC number and when it arrived (the clock's `now` scale),
   * for `osc` leaves; absent or a number missing = none arrived yet (the leaf is false).
   */
  osc?: ReadonlyMap<number, OscValue>;
  /**
   * First frame line that belongs to the live viewport (the guard frame prepends
   * scrollback). Absence checks — regex leaves under an odd number of `not` — are
   * judged only on lines at or below this row, so stale copies in scrollback cannot
   * keep a session busy (spec-format §13.6). Absent = 0 (the whole frame is live).
   */
  viewportStartRow?: number;
  /**
   * Build the legacy `trace` lines (default true). The driver turns it off on its hot path:
   * the lines are strings built per leaf per frame and nobody reads them there.
   */
  collectTrace?: boolean;
  /**
   * A cache owned by the caller across evaluations: a regex leaf whose haystack is equal to
   * the one it saw last time reuses that result instead of running the regex again. Purely an
   * optimisation — results are identical with or without it.
   */
  regexMemo?: RegexMemo;
  /**
   * Sections already resolved over these very lines with the spec's section definitions (the
   * driver resolves them once per evaluation for region tracking too). Absent = resolved here.
   */
  sections?: ResolvedSection[];
  /**
   * Per-row regex results carried from frame to frame (sections and line-local leaves). A driver
   * passes one per session so consecutive frames of one screen reuse each other's answers;
   * absent = a cache shared by every caller (correct, less reuse).
   */
  rowCache?: RowCache;
  /**
   * Build each node's `detail` and each true regex leaf's `matchedText` (default true). The
   * driver decides with `false` — results and countdowns are the same, only those debug strings
   * are left empty — and re-evaluates with the default when it keeps a table (a commit, a debug
   * read).
   */
  explain?: boolean;
  /** Note what the evaluation reads of the frame here (see FrameReads). */
  reads?: FrameReads;
  /**
   * Take regex leaf results from an earlier evaluation's reads instead of reading the frame —
   * valid only after `reads.staleLeaves` confirmed the frame answers alike. Time leaves and the
   * `stale` leaves are computed. Ignored unless `explain` is false.
   */
  reuse?: FrameReads;
  /** With `reuse`: leaves whose haystack text changed, evaluated afresh (see FrameReads.staleLeaves). */
  stale?: StaleLeaves;
}

/** See `EvalExtras.regexMemo`. Keyed by leaf identity (section, absence, flags, pattern). */
export type RegexMemo = Map<string, RegexMemoEntry>;

/** The rows (or text) a leaf last saw and what it found there. */
export interface RegexMemoEntry {
  /** The frame rows the haystack was made of (when it was a run of rows), and their range. */
  lines?: readonly string[];
  from?: number;
  to?: number;
  /** The haystack text (when it was not a run of rows). */
  haystack?: string;
  match: string | null;
}

export type CondKind = 'regex' | 'changed' | 'elapsed' | 'stable' | 'signal' | 'title' | 'osc' | 'all' | 'any' | 'not';

export interface CondResult {
  kind: CondKind;
  result: boolean;
  detail: string;
  /** Remaining ms until a time leaf would flip to true (composites fold it). */
  remainingMs?: number;
  /** The text a true regex/title leaf matched (whitespace-collapsed, ≤ 160 chars). Debug only. */
  matchedText?: string;
  children?: CondResult[];
}

export interface TransitionEval {
  to: string;
  label: string;
  eligible: boolean;
  holdSatisfied: boolean;
  holdRemainingMs: number;
  condResult: boolean;
  cond?: CondResult;
  fires: boolean;
  priority: number;
}

export interface FsmEvaluation {
  sections: ResolvedSection[];
  transitions: TransitionEval[];
  fired: TransitionEval | null;
  trace: TraceEntry[];
}

export interface ModalButton {
  /** Display index (what the user sees, e.g. the `2` of `2. No`). */
  index: number;
  label: string;
  /** Keys that press this button in index mode. */
  key: string;
  /** Whether the cursor marker sits on this row. */
  current: boolean;
}

export interface ModalSnapshot {
  title: string | null;
  buttons: ModalButton[];
  kind: ModalKind | null;
}
