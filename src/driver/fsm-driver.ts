/**
 * FsmDriver — runs one spec@4 state machine against one agent CLI in a terminal.
 *
 * It owns a transport (a real PTY or a recording), a headless terminal screen, and the
 * current FSM node. On every screen change (and on timers) it asks the pure core which
 * outgoing transition fires, commits at most one, and tells subscribers. Commands from
 * people and programs become keystrokes through the message sender and the modal/control
 * handlers. Every timer goes through the injected scheduler, so the same driver runs in
 * real time on a live PTY and in virtual time on a recording.
 */
import type { Scheduler } from '../core/clock.js';
import type { CliSpecV4, StateStatus } from '../core/spec/types.js';
import { initialState, stateById, statusForState } from '../core/spec/model.js';
import { oscNumbersOf } from '../core/spec/osc-numbers.js';
import type { EvalExtras, FsmClock, FsmEvaluation, OscValue, RegexMemo, ResolvedSection, TransitionEval } from '../core/eval/types.js';
import {
  collectStableRegions, decideFsmLines, evaluateFsmLines, soonestFlipMs, FrameReads, rebindSections, regionChanged, resolveSections, RowCache,
  sameJoinedLines, type FsmFrameArgs, type StaleLeaves,
} from '../core/eval/index.js';
import type { GuardFrame } from '../core/screen/guard-frame.js';
import type { PtyTransport, Disposable } from '../terminal/transport.js';
import { ListenerSet, TerminalScreen, warnListenerError, type ListenerErrorSink } from '../terminal/index.js';
import type {
  ControlView, DashboardCommand, DashboardEvent, DispatchResult, DriverHistoryEntry, FsmSnapshotEntry, ModalView,
  RefusalCode, StateView,
} from './events.js';
import { MessageSender, resolveWin32SubmitMode, type Win32SubmitMode } from './message-sender.js';
import { RealScheduler } from './schedulers.js';
import { TimerStore } from './timer-store.js';
import { EvalCadence } from './eval-cadence.js';
import { resolveRedrawNudgeOptions, Watchdogs, type RedrawNudgeOptions } from './watchdogs.js';
import { SignalRuleSet } from './signal-rules.js';
import { isSpawnPlanError, planSpawn, type SpawnPlan } from './spawn-plan.js';
import { applyPreLaunchTrust } from './pre-launch-trust.js';
import { reportCliVersion } from './version-probe.js';
import { SpecDriftWatch, type SpecDriftOptions } from './spec-drift.js';
import { validateCommand } from './command-validation.js';
import { watchSpecFile } from './spec-watcher.js';
import { ScreenCommands } from './screen-commands.js';
import { DerivedView, toModalView, type ViewFrame } from './derived-view.js';
import { Inspection } from './inspection.js';
import { StateNotifier } from './state-notifier.js';
import { StateHistory } from './state-history.js';

export { summarizeTransition } from './state-history.js';

export type { RedrawNudgeOptions } from './watchdogs.js';

/** Scrolled frames evaluated in full, untried, after a scroll failed to re-decide (a heuristic: results never depend on it). */
const SCROLL_CHECKS_SKIPPED_AFTER_FAILURE = 8;

/** What loading the spec file again gave: the checked spec, or why it cannot run. */
export type SpecReloadResult =
  | { ok: true; spec: CliSpecV4; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[] };

/**
 * Where the running spec came from and how to load it again. The driver never reads spec files
 * itself: the harness passes the catalog's loader (ReDoS screen, size cap, line/column errors),
 * so a reload is refused for exactly what the first load refuses.
 */
export interface SpecSource {
  /** The spec's file: watched for hot reload, reported by `getSpecPath()`. */
  path: string;
  /** Reads and checks the file again. Never throws. */
  load(): SpecReloadResult;
}

/** A driver built with options that cannot work together (a programming error, not bad input). */
export class DriverConfigError extends Error {
  readonly code: 'SPEC_SOURCE_REQUIRED';
  constructor(code: 'SPEC_SOURCE_REQUIRED', message: string) {
    super(message);
    this.name = 'DriverConfigError';
    this.code = code;
  }
}

export interface FsmDriverOptions {
  spec: CliSpecV4;
  /** The spec's file and its loader: needed by hot reload and `reloadSpec()`. */
  specSource?: SpecSource;
  workingDir: string;
  transport: PtyTransport;
  scheduler?: Scheduler;
  cols?: number;
  rows?: number;
  scrollback?: number;
  extraArgs?: string[];
  removeArgs?: string[];
  extraEnv?: Record<string, string>;
  baseEnv?: Record<string, string | undefined>;
  /** Skip spawn planning and start exactly this (replays pass a placeholder). */
  spawnPlan?: SpawnPlan;
  /** Watch `specSource.path` and reload on change (requires `specSource`). Default false. */
  hotReload?: boolean;
  /** Edit the CLI's trust store before spawn (pre_launch_trust). Default true. */
  applyTrust?: boolean;
  /** The spec_drift check (a prompt the spec does not recognise); false: off. Default on, 5 s. */
  specDrift?: SpecDriftOptions | false;
  /** Read the CLI's version (spec `cli_version`) and report `version_unproven`. Default: when the driver plans the spawn. */
  checkVersion?: boolean;
  homeDir?: string;
  platform?: NodeJS.Platform;
  win32SubmitMode?: Win32SubmitMode;
  /** Minimum time between two evaluations inside a continuous output stream. */
  evalIntervalMs?: number;
  /**
   * Re-decide a frame whose text-reading leaves provably answer as in the last full evaluation
   * (only time leaves recomputed, see FrameReads). Default true; false evaluates every frame in
   * full — the differential test's reference.
   */
  reuseEvaluations?: boolean;
  redrawNudge?: Partial<RedrawNudgeOptions>;
  hostname?: string;
  /**
   * Start in this state (entered at `enteredAt`) instead of the spec's initial one: a daemon that
   * re-attaches to a running agent resumes the state it stored. The first evaluation re-checks it
   * against the screen (the state's own transitions fire if the screen says otherwise). An id the
   * spec does not have falls back to the initial state.
   */
  resumeFrom?: { state: string; enteredAt: number };
  /**
   * Where an exception thrown by a subscriber goes (the event name is `driver event`); the other
   * subscribers still get the event. Default: a process warning (`SPECTERM_LISTENER_ERROR`).
   */
  onListenerError?: ListenerErrorSink;
}

export class FsmDriver {
  readonly #opts: FsmDriverOptions;
  readonly #scheduler: Scheduler;
  readonly #transport: PtyTransport;
  readonly #screen: TerminalScreen;
  readonly #platform: NodeJS.Platform;
  readonly #sender: MessageSender;
  #spec: CliSpecV4;
  #signals: SignalRuleSet;
  readonly #listeners: ListenerSet<DashboardEvent>;
  #disposables: Disposable[] = [];

  // The FSM itself: one node and when we entered it.
  #stateId = '';
  #stateEnteredAt = 0;
  #regionLastChangedAt = new Map<number | string, number>();
  #prevFrame: { lines: string[]; sections: ResolvedSection[] } | null = null;
  #lastViewport: readonly string[] = [];
  #lastTitle = '';
  /** The screen's OSC payload counter as of the last evaluation (a new payload re-evaluates). */
  #lastOscSeq = 0;
  /** The scheduler's clock, bound once (OSC arrival times). */
  readonly #now = (): number => this.#scheduler.now();
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
  /** Per-row regex results carried across guard frames; viewport-only reads keep their own. */
  #rowCache = new RowCache();
  #viewportRowCache = new RowCache();

  readonly #history = new StateHistory();
  #readySeen = false;
  #lastBusyAt = 0;

  #started = false;
  #exited = false;
  #stopped = false;
  #lastOutputAt = -Infinity;
  #firstOutputSeen = false;

  /** Every timer of the driver; `#stop()` disposes it. */
  readonly #timers: TimerStore;
  /** When evaluations run: the output evaluation and wake timers. */
  readonly #cadence: EvalCadence;
  readonly #watchdogs: Watchdogs;
  readonly #drift: SpecDriftWatch | null;
  readonly #commands: ScreenCommands;
  readonly #notifier: StateNotifier;
  readonly #view: DerivedView;
  readonly #inspection: Inspection;
  /** The state as last emitted (read by a delegate when it fires). Bound once. */
  readonly #currentState = (): StateView | null => this.#view.current()?.state ?? null;

  /** @throws DriverConfigError `SPEC_SOURCE_REQUIRED` when `hotReload` is on without a `specSource`. */
  constructor(opts: FsmDriverOptions) {
    if (opts.hotReload && !opts.specSource) {
      throw new DriverConfigError('SPEC_SOURCE_REQUIRED', 'FsmDriver: hotReload needs specSource ({ path, load }); pass the catalog loader (see catalogSpecSource in src/harness/spec-source.ts)');
    }
    this.#opts = opts;
    this.#spec = opts.spec;
    this.#scheduler = opts.scheduler ?? new RealScheduler();
    this.#transport = opts.transport;
    this.#timers = new TimerStore(this.#scheduler);
    this.#cadence = new EvalCadence({
      now: () => this.#scheduler.now(),
      status: () => this.#status(),
      reevaluate: (reason) => this.#reevaluate(reason),
    }, this.#timers, opts.evalIntervalMs);
    this.#listeners = new ListenerSet<DashboardEvent>('driver event', opts.onListenerError ?? warnListenerError);
    this.#platform = opts.platform ?? process.platform;
    this.#screen = new TerminalScreen({ cols: opts.cols ?? 80, rows: opts.rows ?? 32, scrollback: opts.scrollback ?? 2000 });
    this.#screen.osc.track(oscNumbersOf(this.#spec), this.#now);
    this.#signals = new SignalRuleSet(this.#spec.signal_rules, this.#viewportRowCache);
    const win32SubmitMode = opts.win32SubmitMode ?? resolveWin32SubmitMode(process.env);
    this.#sender = new MessageSender({
      scheduler: this.#scheduler,
      platform: this.#platform,
      win32SubmitMode,
      sendConfig: () => this.#spec.send_message,
      write: (data) => this.#write(data),
      status: () => this.#status(),
      // A focus-gated TUI drops input until its send_on_spawn focus-in arrives; the prime goes
      // out 250 ms after the first output, usually after the prompt is up, so hold sends until then.
      isReady: () => this.#readySeen && this.#watchdogs.isPrimeDone(),
      viewportText: () => this.#screen.viewportText(),
      scrollbackText: () => this.#screen.scrollbackText(),
      lastOutputAt: () => this.#lastOutputAt,
      report: (status, length, reason) => this.#emit({ kind: 'send_status', status, length, ...(reason ? { reason } : {}) }),
      log: (level, message) => this.#emit({ kind: 'log', level, message }),
    });
    this.#watchdogs = new Watchdogs({
      spec: () => this.#spec,
      status: () => this.#status(),
      now: () => this.#scheduler.now(),
      write: (data) => this.#write(data),
      log: (message) => this.#emit({ kind: 'log', level: 'info', message }),
      resizePty: (cols, rows) => this.#resizePty(cols, rows),
      screenSize: () => ({ cols: this.#screen.cols, rows: this.#screen.rows }),
      screenChangedAt: () => this.#regionLastChangedAt.get(-1) ?? this.#stateEnteredAt,
      stateEnteredAt: () => this.#stateEnteredAt,
      lastOutputAt: () => this.#lastOutputAt,
      reevaluate: () => this.#reevaluate('timer'),
      onPrimeWritten: () => { if (!this.#stopped) this.#sender.afterEvaluation(); },
    }, this.#timers, resolveRedrawNudgeOptions(opts.redrawNudge, process.env));
    this.#drift = opts.specDrift === false ? null : new SpecDriftWatch({
      status: () => this.#status(),
      stateId: () => this.#stateId,
      specId: () => this.#spec.id,
      viewport: () => this.#screen.viewportLines(),
      size: () => ({ cols: this.#screen.cols, rows: this.#screen.rows }),
      emit: (ev) => this.#emit(ev),
      warn: (message) => this.#emit({ kind: 'log', level: 'warn', message }),
    }, this.#timers, opts.specDrift ?? {}, opts.spawnPlan === undefined);
    this.#view = new DerivedView({
      spec: () => this.#spec,
      stateId: () => this.#stateId,
      viewportLines: () => this.#screen.viewportLines(),
      frameCells: (frame) => this.#screen.frameCells(frame),
      warn: (message) => this.#emit({ kind: 'log', level: 'warn', message }),
    }, this.#viewportRowCache);
    this.#inspection = new Inspection({
      spec: () => this.#spec,
      stateId: () => this.#stateId,
      stateEnteredAt: () => this.#stateEnteredAt,
      status: () => this.#status(),
      now: () => this.#scheduler.now(),
      clock: (now) => this.#clock(now),
      prevLines: () => this.#prevFrame?.lines,
      lastEvaluation: () => this.#lastEvaluation(),
      view: () => this.#view.current(),
      evalCounts: () => ({ evalCount: this.#evalCount, reusedEvalCount: this.#reusedEvalCount }),
    }, this.#screen);
    this.#notifier = new StateNotifier(this.#timers, (ev) => this.#emit(ev), opts.hostname);
    this.#commands = new ScreenCommands({
      spec: () => this.#spec,
      stateId: () => this.#stateId,
      status: () => this.#status(),
      modal: () => this.#view.current()?.modal ?? null,
      write: (data) => this.#write(data),
      refuse: (command, code, reason) => this.#refuse(command, code, reason),
    }, this.#timers, this.#platform);
  }

  // ── Lifecycle ──────────────────────────────────────────────────────────

  /** Adds a subscriber; the returned function removes it. A subscriber that throws is reported (`onListenerError`), not fatal. */
  subscribe(listener: (ev: DashboardEvent) => void): () => void {
    const subscription = this.#listeners.add(listener);
    return () => subscription.dispose();
  }

  /** Applies pre-launch trust, spawns the child and runs the first evaluation. Never throws. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const now = this.#scheduler.now();
    const resumed = this.#opts.resumeFrom && stateById(this.#spec, this.#opts.resumeFrom.state) ? this.#opts.resumeFrom : null;
    this.#stateId = resumed?.state ?? initialState(this.#spec).id;
    this.#stateEnteredAt = resumed ? Math.min(resumed.enteredAt, now) : now;
    this.#history.start(now);

    const plan = this.#opts.spawnPlan ?? this.#planSpawn();
    if (!plan) return;
    if (this.#spec.pre_launch_trust && this.#opts.applyTrust !== false) {
      const r = applyPreLaunchTrust(this.#spec.pre_launch_trust, this.#opts.workingDir, { homeDir: this.#opts.homeDir, env: plan.env });
      const level = r.status === 'error' ? 'warn' : 'info';
      this.#emit({ kind: 'log', level, message: `pre_launch_trust: ${r.status}${r.file ? ` ${r.file}` : ''}${r.message ? ` — ${r.message}` : ''}` });
    }

    this.#disposables.push(this.#transport.onData((chunk) => this.#onOutput(chunk)));
    this.#disposables.push(this.#transport.onExit((info) => this.#onExit(info.exitCode, info.signal)));
    // Answer the child's terminal queries (cursor position, device attributes): some CLIs wait for them.
    this.#disposables.push(this.#screen.onResponse((data) => this.#write(data)));
    this.#watchdogs.start(now);
    try {
      this.#transport.spawn({ file: plan.file, args: plan.args, cwd: plan.cwd, env: plan.env, cols: this.#screen.cols, rows: this.#screen.rows });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#emit({ kind: 'spawn_error', message, binary: plan.resolvedBinary ?? plan.file, searched: [] });
      this.#stop();
      return;
    }
    // A replay or a given plan has no real binary to ask; `checkVersion` overrides.
    if (this.#opts.checkVersion ?? this.#opts.spawnPlan === undefined) reportCliVersion(this.#spec, plan, (ev) => this.#emit(ev), () => this.#stopped);
    if (this.#opts.hotReload && this.#opts.specSource) {
      const watch = watchSpecFile(this.#opts.specSource.path, this.#timers, () => this.reloadSpec());
      if ('error' in watch) this.#emit({ kind: 'log', level: 'warn', message: watch.error });
      else this.#disposables.push(watch);
    }
    this.#reevaluate('init');
  }

  /** Cancels every timer, watcher and temp file and ends the child. Idempotent. */
  shutdown(): void {
    if (this.#stopped) return;
    this.#stop();
    this.#transport.kill();
  }

  #planSpawn(): SpawnPlan | null {
    const r = planSpawn({
      spec: this.#spec,
      workingDir: this.#opts.workingDir,
      extraArgs: this.#opts.extraArgs,
      removeArgs: this.#opts.removeArgs,
      extraEnv: this.#opts.extraEnv,
      baseEnv: this.#opts.baseEnv,
      platform: this.#platform,
      cols: this.#screen.cols,
      rows: this.#screen.rows,
    });
    if (isSpawnPlanError(r)) {
      this.#emit({ kind: 'spawn_error', message: r.message, binary: r.binary ?? this.#spec.binary, searched: r.searched ?? [] });
      this.#stop();
      return null;
    }
    return r;
  }

  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#timers.dispose();
    this.#notifier.dispose();
    this.#sender.dispose();
    for (const d of this.#disposables.splice(0)) d.dispose();
    this.#commands.dispose();
    this.#screen.dispose();
  }

  #onExit(exitCode: number | null, signal: string | null): void {
    if (this.#exited) return;
    this.#exited = true;
    this.#emit({ kind: 'exit', exit_code: exitCode, signal });
    this.#stop();
  }

  /** True once the child exited or the driver shut down. */
  isStopped(): boolean {
    return this.#stopped;
  }

  // ── Output → screen → evaluation ──────────────────────────────────────

  #onOutput(chunk: string): void {
    if (this.#stopped) return;
    const now = this.#scheduler.now();
    const silenceMs = now - this.#lastOutputAt;
    this.#lastOutputAt = now;
    this.#emit({ kind: 'pty_data', chunk });
    this.#screen.write(chunk);
    if (!this.#firstOutputSeen) {
      this.#firstOutputSeen = true;
      this.#watchdogs.onFirstOutput();
    }
    this.#cadence.onOutput(now, silenceMs);
  }

  /** The PTY alone (the redraw nudge): a size it refuses is a warning, never an exception in a timer. */
  #resizePty(cols: number, rows: number): void {
    try {
      this.#transport.resize(cols, rows);
    } catch (err) {
      this.#emit({ kind: 'log', level: 'warn', message: `redraw nudge: resize to ${cols}x${rows} failed: ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  #write(data: string): void {
    if (this.#stopped || data.length === 0) return;
    try {
      this.#transport.write(data);
    } catch (err) {
      this.#emit({ kind: 'log', level: 'warn', message: `write failed: ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  #clock(now: number): FsmClock {
    return { now, stateEnteredAt: this.#stateEnteredAt, regionLastChangedAt: this.#regionLastChangedAt };
  }

  /** Everything an evaluation of `frame` in the current state takes (full or re-decided). */
  #frameInput(frame: GuardFrame, frameText: () => string, title: string, now: number): FrameInput {
    return { spec: this.#spec, stateId: this.#stateId, frame, frameText, prevLines: this.#prevFrame?.lines, clock: this.#clock(now), title, osc: this.#screen.osc.values };
  }

  /**
   * One evaluation. `output` evaluations are skipped when neither the viewport nor the window
   * title changed (cursor-only changes do not count); timers and forced reasons always run.
   */
  #reevaluate(reason: 'init' | 'output' | 'timer' | 'reload' | 'chain'): void {
    if (this.#stopped) return;
    const now = this.#scheduler.now();
    const viewport = this.#screen.viewportLines();
    const title = this.#screen.windowTitle;
    const oscSeq = this.#screen.osc.seq;
    if (reason === 'output' && title === this.#lastTitle && oscSeq === this.#lastOscSeq && sameLines(viewport, this.#lastViewport)) return;
    const frame = this.#screen.guardFrame();
    this.#cadence.onEvaluation(now, reason);
    this.#lastTitle = title;
    this.#lastOscSeq = oscSeq;
    this.#lastViewport = viewport;
    // Joined only for the consumers that read text (title rules, signals, pickers, startup dismiss).
    let joinedViewport: string | undefined;
    const viewportText = (): string => (joinedViewport ??= viewport.join('\n'));
    this.#evalCount += 1;

    if (this.#spec.startup_dismiss) this.#watchdogs.maybeDismissStartup(viewportText(), now);

    let joinedFrame: string | undefined;
    const frameText = (): string => (joinedFrame ??= frame.lines.join('\n'));
    if ((reason === 'output' || reason === 'timer') && this.#redecide(frame, title, now, viewportText, frameText, viewport)) return;

    // Sections are resolved once per evaluation: region tracking and the guards share them. What
    // they and the guards read is noted, so the next frames can be re-decided from it.
    const reads = this.#opts.reuseEvaluations === false ? undefined : new FrameReads();
    if (reads) reads.lines = frame.lines;
    this.#rowCache.reads = reads ?? null;
    const sections = resolveSections(this.#spec.sections, frame.lines, frameText, this.#rowCache, reads);
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
    const from = this.#stateId;
    // The region clocks and the state stay as they are until the next evaluation replaces this.
    this.#lastExplain = { input, extras: shared, explained: undefined };
    if (fired) {
      // Explained before the commit clears the region clocks the table reads.
      const explained = this.#lastEvaluation()!;
      this.#commit(explained.fired ?? fired, explained, now);
    }
    this.#markReady();
    // A self-transition ("*" → the current state, §13.24) is committed as the reference does,
    // but never chained: its guard stays true and would spin.
    const movedState = fired !== null && fired.to !== from;
    const force = reason === 'init' || reason === 'reload';
    this.#afterDecision(force, viewportText, { sections, text: frameText, viewport }, now, movedState, soonestFlipMs(ev));
  }

  /**
   * What follows every decision, full or re-decided: the state emitted, the sender told, and the
   * wake armed (at once after a move to another state, so chains settle; see EvalCadence).
   */
  #afterDecision(force: boolean, viewportText: () => string, view: ViewFrame, now: number, movedState: boolean, soonestMs: number): void {
    this.#emitState(force, viewportText, view);
    this.#sender.afterEvaluation();
    if (this.#status() === 'generating') this.#lastBusyAt = now;
    this.#cadence.afterDecision(movedState, soonestMs);
    this.#watchdogs.afterDecision(now);
    this.#drift?.afterDecision(now, view.viewport);
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
    if (!last || last.spec !== this.#spec || last.stateId !== this.#stateId || this.#commands.hasPickerInProgress()) return false;
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
    this.#afterDecision(false, viewportText, { sections, text: frameText, viewport }, now, false, decision.soonestMs);
    return true;
  }

  /** The last evaluation's explained table (built once, on first read), or null before any. */
  #lastEvaluation(): FsmEvaluation | null {
    const last = this.#lastExplain;
    if (!last) return null;
    return (last.explained ??= onFrame(evaluateFsmLines, last.input, { ...last.extras, explain: true }));
  }

  /** Marks stable_ms regions that differ from the previous frame (§10.1 step 4). */
  #trackRegionChanges(cur: { lines: string[]; sections: ResolvedSection[] }, cursorRow: number, now: number): void {
    if (!this.#prevFrame) return;
    for (const region of collectStableRegions(this.#spec, this.#stateId)) {
      if (regionChanged(region, cur, this.#prevFrame, cursorRow)) this.#regionLastChangedAt.set(region.key, now);
    }
  }

  #commit(fired: TransitionEval, ev: FsmEvaluation, now: number): void {
    const from = this.#stateId;
    this.#stateId = fired.to;
    this.#stateEnteredAt = now;
    this.#regionLastChangedAt.clear();
    this.#history.record(from, stateById(this.#spec, fired.to)?.label ?? fired.to, fired, ev, now);
    if (from !== fired.to) this.#watchdogs.onStateChanged();
  }

  #markReady(): void {
    if (this.#readySeen) return;
    const st = stateById(this.#spec, this.#stateId);
    if (st && !st.initial && statusForState(st) === 'idle') this.#readySeen = true;
  }

  #status(): StateStatus {
    const st = stateById(this.#spec, this.#stateId);
    return st ? statusForState(st) : 'idle';
  }

  // ── Emitting state ────────────────────────────────────────────────────

  #emitState(force: boolean, viewportText: () => string, frame: ViewFrame): void {
    const state = stateById(this.#spec, this.#stateId);
    if (!state) return; // hot reload removed the current state: only "*" edges apply (§8)
    const changed = this.#view.update(state, force, viewportText, frame);
    this.#evaluateSignals(frame.viewport, viewportText);
    if (this.#commands.hasPickerInProgress()) this.#commands.advancePicker(viewportText());
    if (!changed) return;
    this.#emit({ kind: 'state_changed', state: changed.state, modal: toModalView(changed.modal), controls: changed.controls.map((c) => ({ ...c })) });
    this.#notifier.onStateEmitted(this.#spec, changed.state, this.#currentState);
  }

  #evaluateSignals(viewport: readonly string[], viewportText: () => string): void {
    if (!this.#spec.signal_rules?.length) return;
    // Known per rule set (made with the spec): this runs on every evaluation.
    const sections = this.#signals.needsSections ? resolveSections(this.#spec.sections, viewport as string[], viewportText, this.#viewportRowCache) : [];
    for (const hit of this.#signals.evaluate(sections, viewport, viewportText, this.#scheduler.now())) {
      this.#emit({ kind: 'signal_detected', id: hit.id, signal_kind: hit.kind, params: hit.params, text: hit.text });
    }
  }

  // ── Hot reload ────────────────────────────────────────────────────────

  /**
   * Loads the spec again through `specSource` (false without one). An invalid or half-written
   * file emits `spec_error` and the old spec stays in force; a valid one replaces it, keeping the
   * current state and its clocks.
   */
  reloadSpec(): boolean {
    const source = this.#opts.specSource;
    if (this.#stopped || !source) return false;
    const r = source.load();
    if (!r.ok) {
      this.#emit({ kind: 'spec_error', errors: r.errors.length ? r.errors : [`${source.path}: spec could not be loaded`] });
      return false;
    }
    this.#spec = r.spec;
    this.#regexMemo.clear();
    this.#signals = new SignalRuleSet(r.spec.signal_rules, this.#viewportRowCache);
    this.#screen.osc.track(oscNumbersOf(r.spec), this.#now);
    this.#emit({ kind: 'spec_reloaded', warnings: r.warnings });
    this.#reevaluate('reload');
    return true;
  }

  // ── Commands ──────────────────────────────────────────────────────────

  /** Runs a command. Malformed commands and commands after exit are refused with a reason. */
  dispatch(cmd: DashboardCommand): DispatchResult {
    const invalid = validateCommand(cmd);
    if (invalid) return this.#refuse(typeof (cmd as { kind?: unknown })?.kind === 'string' ? (cmd as { kind: string }).kind : 'unknown', invalid.code, invalid.reason);
    if (cmd.kind === 'shutdown') { this.shutdown(); return { ok: true }; }
    const inactive = this.#inactiveRefusal(cmd.kind);
    if (inactive) return inactive;
    switch (cmd.kind) {
      case 'send_message': {
        const outcome = this.#sender.request({ text: cmd.text, bracketedPaste: cmd.bracketedPaste });
        if (typeof outcome === 'object') return this.#refuse('send_message', outcome.code, outcome.reason);
        // Not a command_refused: the sender already reported send_status "dropped".
        return outcome === 'dropped' ? { ok: false, code: 'DUPLICATE_MESSAGE', reason: 'duplicate of a message still being processed' } : { ok: true };
      }
      case 'pty_write': this.#write(cmd.data); return { ok: true };
      case 'click_control': return this.#commands.clickControl(cmd.control_id, cmd.payload);
      case 'click_modal_button': return this.#commands.clickModalButton(cmd.index, cmd.label);
      case 'attach_image': return this.#commands.attachImage(cmd.blob, cmd.mime);
      case 'resize': return this.resize(cmd.cols, cmd.rows);
      case 'cancel': this.#write('\x03'); return { ok: true };
    }
  }

  /**
   * Resizes the PTY and the screen; the CLI's repaint triggers the next evaluation. A size the
   * terminal does not accept is refused (`INVALID_SIZE`), never thrown.
   */
  resize(cols: number, rows: number): DispatchResult {
    const problem = validateCommand({ kind: 'resize', cols, rows });
    if (problem) return this.#refuse('resize', problem.code, problem.reason);
    const inactive = this.#inactiveRefusal('resize');
    if (inactive) return inactive;
    this.#screen.resize(cols, rows);
    this.#transport.resize(cols, rows);
    return { ok: true };
  }

  /** The refusal of a command before `start()` or after the session ended, else null. */
  #inactiveRefusal(command: string): DispatchResult | null {
    if (this.#stopped) {
      return this.#exited
        ? this.#refuse(command, 'EXITED', 'the agent has exited')
        : this.#refuse(command, 'SHUT_DOWN', 'the session is shut down');
    }
    if (!this.#started) return this.#refuse(command, 'NOT_STARTED', 'the session has not started');
    return null;
  }

  #refuse(command: string, code: RefusalCode, reason: string): DispatchResult {
    this.#emit({ kind: 'command_refused', command, code, reason });
    return { ok: false, code, reason };
  }

  // ── Read-only surface ─────────────────────────────────────────────────

  /** The headless screen the driver keeps (the daemon's terminal stream serializes it). */
  get screen(): TerminalScreen { return this.#screen; }
  /** The viewport text (§9.1). */
  snapshot(): string { return this.#screen.viewportText(); }
  getScreen(): string { return this.#screen.viewportText(); }
  /** Scrollback-inclusive text. */
  getScreenWithScrollback(): string { return this.#screen.scrollbackText(); }
  /** Cursor in `snapshot()` line coordinates. */
  getCursorPosition(): { row: number; col: number } { return this.#screen.cursor(); }
  getTerminalModes() { return this.#screen.modes(); }
  getSpecPath(): string { return this.#opts.specSource?.path ?? ''; }
  getSpec(): CliSpecV4 { return this.#spec; }
  getStateHistory(): ReadonlyArray<DriverHistoryEntry> { return this.#history.entries(); }
  getFsmSnapshotHistory(): ReadonlyArray<FsmSnapshotEntry> { return this.#history.snapshots(); }
  hasSeenReady(): boolean { return this.#readySeen; }
  getLastBusyAt(): number { return this.#lastBusyAt; }
  /** The current state and its modal as last emitted. */
  getCurrentView(): { state: StateView; modal: ModalView | null; controls: ControlView[] } | null { return this.#inspection.currentView(); }
  /** Pending timers the driver owns (for leak tests). */
  hasInFlightSubmit(): boolean { return this.#sender.hasInFlightSubmit(); }

  getSections(): Array<{ id: string; text: string }> | null { return this.#inspection.sections(); }
  /** Some outgoing transition has a true guard but its hold has not elapsed. */
  hasIdleHoldPending(): boolean { return this.#inspection.idleHoldPending(); }
  getCompletionIdleDebounceState(): { active: boolean; ageMs: number; holdMs: number; forceAfterMs: number } | null { return this.#inspection.completionIdleDebounceState(); }
  /** Live debug table for the current instant, against the same guard frame as real evaluation. */
  getFsmDebug(): ReturnType<Inspection['fsmDebug']> { return this.#inspection.fsmDebug(); }

  // ── Plumbing ──────────────────────────────────────────────────────────

  #emit(ev: DashboardEvent): void {
    this.#listeners.emit(ev);
  }
}

// ── helpers ─────────────────────────────────────────────────────────────

/** An evaluation's inputs, to explain it on demand (see FsmDriver#lastEvaluation). */
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
