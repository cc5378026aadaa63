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
import type { FsmClock, FsmEvaluation, TransitionEval } from '../core/eval/types.js';
import { resolveSections, RowCache } from '../core/eval/index.js';
import type { PtyTransport, Disposable } from '../terminal/transport.js';
import { ListenerSet, TerminalScreen, warnListenerError } from '../terminal/index.js';
import type {
  ControlView, DashboardCommand, DashboardEvent, DispatchResult, DriverHistoryEntry, FsmSnapshotEntry, ModalView,
  RefusalCode, StateView,
} from './events.js';
import { MessageSender, resolveWin32SubmitMode } from './message-sender.js';
import { RealScheduler } from './schedulers.js';
import { TimerStore } from './timer-store.js';
import { EvalCadence } from './eval-cadence.js';
import { resolveRedrawNudgeOptions, Watchdogs } from './watchdogs.js';
import { SignalRuleSet } from './signal-rules.js';
import { planLaunch } from './launch-plan.js';
import { reportCliVersion } from './version-probe.js';
import { SpecDriftWatch } from './spec-drift.js';
import { validateCommand } from './command-validation.js';
import { watchSpecFile } from './spec-watcher.js';
import { ScreenCommands } from './screen-commands.js';
import { DerivedView, toModalView, type ViewFrame } from './derived-view.js';
import { Inspection } from './inspection.js';
import { StateNotifier } from './state-notifier.js';
import { StateHistory } from './state-history.js';
import { FrameEvaluator, type EvaluationReason } from './frame-evaluator.js';
import { dispatchCommand, inactiveRefusal, type CommandTarget } from './command-dispatch.js';
import { DriverConfigError, type FsmDriverOptions } from './driver-options.js';

export { DriverConfigError, type FsmDriverOptions, type SpecReloadResult, type SpecSource } from './driver-options.js';

export { summarizeTransition } from './state-history.js';

export type { RedrawNudgeOptions } from './watchdogs.js';

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
  /** The scheduler's clock, bound once (OSC arrival times). */
  readonly #now = (): number => this.#scheduler.now();
  /** Viewport-only reads (signals, the derived view) keep their own per-row regex results. */
  #viewportRowCache = new RowCache();

  readonly #history = new StateHistory();
  #readySeen = false;
  #lastBusyAt = 0;

  #started = false;
  #exited = false;
  #stopped = false;
  #lastOutputAt = -Infinity;
  /** The last output or resize: what a region change is dated by (FrameEvaluator). */
  #screenWrittenAt = -Infinity;
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
  /** The evaluation path: frames in, decisions out (see FrameEvaluator). */
  readonly #evaluator: FrameEvaluator;
  /** What `dispatch` reaches, made once. */
  readonly #commandTarget: CommandTarget;
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
      screenChangedAt: () => this.#evaluator.screenChangedAt() ?? this.#stateEnteredAt,
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
      prevLines: () => this.#evaluator.prevLines(),
      lastEvaluation: () => this.#evaluator.lastEvaluation(),
      view: () => this.#view.current(),
      evalCounts: () => this.#evaluator.evalCounts(),
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
    this.#evaluator = new FrameEvaluator({
      spec: () => this.#spec,
      stateId: () => this.#stateId,
      stateEnteredAt: () => this.#stateEnteredAt,
      now: () => this.#scheduler.now(),
      screenWrittenAt: () => this.#screenWrittenAt,
      beginEvaluation: (now, reason) => this.#cadence.onEvaluation(now, reason),
      maybeDismissStartup: (viewportText, now) => { if (this.#spec.startup_dismiss) this.#watchdogs.maybeDismissStartup(viewportText(), now); },
      hasPickerInProgress: () => this.#commands.hasPickerInProgress(),
      commit: (fired, ev, now) => this.#commit(fired, ev, now),
      markReady: () => this.#markReady(),
      afterDecision: (force, viewportText, view, now, movedState, soonestMs) => this.#afterDecision(force, viewportText, view, now, movedState, soonestMs),
    }, this.#screen, opts.reuseEvaluations !== false);
    this.#commandTarget = {
      sender: this.#sender,
      commands: this.#commands,
      isStarted: () => this.#started,
      isStopped: () => this.#stopped,
      isExited: () => this.#exited,
      write: (data) => this.#write(data),
      resize: (cols, rows) => this.resize(cols, rows),
      shutdown: () => this.shutdown(),
      refuse: (command, code, reason) => this.#refuse(command, code, reason),
    };
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

    const plan = planLaunch(this.#spec, this.#opts, { cols: this.#screen.cols, rows: this.#screen.rows }, this.#platform, (ev) => this.#emit(ev));
    if (!plan) {
      this.#stop();
      return;
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
    this.#screenWrittenAt = now;
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
    return this.#evaluator.clock(now);
  }

  /** One evaluation (see FrameEvaluator#evaluate); none once stopped. */
  #reevaluate(reason: EvaluationReason): void {
    if (this.#stopped) return;
    this.#evaluator.evaluate(reason);
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

  #commit(fired: TransitionEval, ev: FsmEvaluation, now: number): void {
    const from = this.#stateId;
    this.#stateId = fired.to;
    this.#stateEnteredAt = now;
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
    this.#evaluator.onSpecReloaded();
    this.#signals = new SignalRuleSet(r.spec.signal_rules, this.#viewportRowCache);
    this.#screen.osc.track(oscNumbersOf(r.spec), this.#now);
    this.#emit({ kind: 'spec_reloaded', warnings: r.warnings });
    this.#reevaluate('reload');
    return true;
  }

  // ── Commands ──────────────────────────────────────────────────────────

  /** Runs a command. Malformed commands and commands after exit are refused with a reason. */
  dispatch(cmd: DashboardCommand): DispatchResult {
    return dispatchCommand(cmd, this.#commandTarget);
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
    this.#screenWrittenAt = this.#scheduler.now();
    this.#transport.resize(cols, rows);
    return { ok: true };
  }

  /** The refusal of a command before `start()` or after the session ended, else null. */
  #inactiveRefusal(command: string): DispatchResult | null {
    return inactiveRefusal(this.#commandTarget, command, this.#commandTarget.refuse);
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
  /** Messages waiting to be typed, in order (a queued send is delivered once those before it are). */
  queuedSends(): number { return this.#sender.queuedCount(); }

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
