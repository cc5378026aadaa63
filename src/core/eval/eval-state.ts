/**
 * One condition evaluation's inputs, normalised from whatever the caller passed (odd objects,
 * missing clocks), plus its per-frame memos; and the small helpers every leaf shares (flags,
 * matched text, trace lines). conditions.ts walks the tree, regex-leaf.ts reads the screen.
 * @module
 */
import type { CondResult, Cursor, EvalExtras, FsmClock, OscValue, RegexMemo, ResolvedSection, TraceEntry } from './types.js';
import type { FrameReads, StaleLeaves } from './frame-reads.js';
import { DEFAULT_ROW_CACHE, type RowCache } from './row-tester.js';

/** Everything one condition evaluation may look at. */
export interface ConditionContext {
  /** Screen lines (split by `splitScreenLines`). */
  lines: string[];
  /** The cleaned screen: `lines.join('\n')`. */
  screen: string;
  /** Sections resolved over `lines`. */
  sections: ResolvedSection[];
  /** Cursor in `lines` coordinates; cursor bounds and `changed` need it. */
  cursor?: Cursor;
  /** The previous evaluation's lines, for `changed`. */
  prevLines?: string[];
  clock: FsmClock;
  extras?: EvalExtras;
  /** When given, regex/changed/title leaves append legacy trace lines here. */
  trace?: TraceEntry[];
  /** Label used in trace lines (`state[<label>] …`); the FSM passes `<from>→<to>`. */
  traceLabel?: string;
}

/** Longest `matchedText` kept (debug only). */
const MATCHED_TEXT_MAX_CHARS = 160;

/** One evaluation's inputs, normalised, plus its per-frame memos. */
export class EvalState {
  /** Viewport-clipped haystacks by section id ('' = whole screen), built at most once (the map only when one is). */
  clipped: Map<string, string> | undefined;
  #screen: string | undefined;

  constructor(
    private readonly ctx: Partial<ConditionContext>,
    readonly lines: string[],
    readonly sections: ResolvedSection[],
    readonly cursor: Cursor | undefined,
    readonly prevLines: string[] | undefined,
    readonly now: number,
    readonly enteredAt: number,
    readonly regionLastChangedAt: Map<number | string, number> | undefined,
    readonly windowTitle: string,
    readonly osc: ReadonlyMap<number, OscValue> | undefined,
    readonly viewportStartRow: number,
    readonly trace: TraceEntry[] | undefined,
    public label: string,
    readonly regexMemo: RegexMemo | undefined,
    readonly rowCache: RowCache,
    /** Build `detail` and `matchedText` (false: results and countdowns only, see `EvalExtras.explain`). */
    readonly explain: boolean,
    /** Where this evaluation notes what it reads (see FrameReads). */
    readonly reads: FrameReads | undefined,
    /** Leaf results to take instead of reading the frame (a re-decision, see `EvalExtras.reuse`). */
    readonly reuse: FrameReads | undefined,
    /** Leaves of `reuse` to evaluate afresh all the same. */
    readonly stale: StaleLeaves | undefined,
  ) {}

  /** The cleaned screen, joined only if a leaf needs it (line-local leaves read rows). */
  get screen(): string {
    this.reads?.whole();
    if (this.#screen === undefined) {
      const given = this.ctx.screen;
      this.#screen = typeof given === 'string' ? given : this.lines.join('\n');
    }
    return this.#screen;
  }
}

/** The state of one evaluation (`explainOverride` false: a decision, no debug strings). */
export function buildState(ctx: ConditionContext, explainOverride?: boolean): EvalState {
  const c = (ctx && typeof ctx === 'object' ? ctx : {}) as Partial<ConditionContext>;
  const lines = Array.isArray(c.lines) ? c.lines : [];
  const clock = (c.clock && typeof c.clock === 'object' ? c.clock : {}) as Partial<FsmClock>;
  const extras = (c.extras && typeof c.extras === 'object' ? c.extras : {}) as EvalExtras;
  const vsr = extras.viewportStartRow;
  const explain = explainOverride ?? extras.explain !== false;
  const cursor = c.cursor && typeof c.cursor === 'object' ? c.cursor : undefined;
  return new EvalState(
    c,
    lines,
    Array.isArray(c.sections) ? c.sections : [],
    cursor,
    Array.isArray(c.prevLines) ? c.prevLines : undefined,
    finiteOr(clock.now, 0),
    finiteOr(clock.stateEnteredAt, 0),
    clock.regionLastChangedAt instanceof Map ? clock.regionLastChangedAt : undefined,
    typeof extras.windowTitle === 'string' ? extras.windowTitle : '',
    extras.osc instanceof Map ? extras.osc : undefined,
    typeof vsr === 'number' && Number.isFinite(vsr) && vsr > 0 ? Math.floor(vsr) : 0,
    Array.isArray(c.trace) ? c.trace : undefined,
    typeof c.traceLabel === 'string' ? c.traceLabel : 'condition',
    extras.regexMemo instanceof Map ? extras.regexMemo : undefined,
    extras.rowCache ?? DEFAULT_ROW_CACHE,
    explain,
    extras.reads,
    // Recorded results carry no matchedText: they serve only a decision.
    explain ? undefined : extras.reuse,
    extras.stale,
  );
}

/** `flags` replaces the default `i` (§13.28); null/absent → `i`; a non-string is invalid. */
export function flagsOrDefault(flags: unknown): string | null {
  if (flags === undefined || flags === null) return 'i';
  return typeof flags === 'string' ? flags : null;
}

export function withMatchedText(r: CondResult, whole: string): CondResult {
  const text = whole.replace(/\s+/g, ' ').trim().slice(0, MATCHED_TEXT_MAX_CHARS);
  if (text) r.matchedText = text;
  return r;
}

export function pushTrace(st: EvalState, kind: string, text: string): void {
  if (st.trace) st.trace.push({ kind, text });
}

function finiteOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}
