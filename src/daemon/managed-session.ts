/**
 * One session the daemon manages: its stored record, and while its agent runs, the `FsmDriver`
 * over a transport to the PTY host. It turns driver events into store rows (state changes,
 * exits, approvals) and `DaemonEvent`s, and answers the detail view the API returns.
 *
 * @module
 */
import type { CliSpecV4 } from '../core/spec/types.js';
import { initialState, stateById, statusForState } from '../core/spec/model.js';
import type { ModalSubject } from '../core/eval/extract-subject.js';
import type { DashboardEvent, DispatchResult, ModalView as DriverModalView, StateView as DriverStateView } from '../driver/events.js';
import type { FsmDriver } from '../driver/fsm-driver.js';
import type { HostTransport } from '../host/index.js';
import type { z } from 'zod';
import type { ModalView as ModalViewSchema, SessionDetail } from '../protocol/index.js';
import type { SessionRecord, Store } from '../store/index.js';
import type { Approval, ApprovalModal, ApprovalTracker } from './approval.js';
import { decideApproval, type ApprovalPolicy } from './approval-policy.js';
import { readModalSubject } from './approval-subject.js';
import type { EventLog } from './event-log.js';
import { InputTap } from './recordings-input.js';
import { TurnCompletion } from './turn-completion.js';
import type { Scheduler } from '../core/clock.js';
import { RealScheduler } from '../driver/schedulers.js';

type ModalView = z.infer<typeof ModalViewSchema>;

/**
 * A picker or confirm that opens this soon after a person's own input to the session, with no
 * agent turn in between, is the person's: the reply to their keys (`/model`, a control, an answer).
 * Long enough for a loaded machine to repaint, short enough that the agent's own later question
 * still finds nobody assumed at the keyboard.
 */
export const PERSON_OPENED_WINDOW_MS = 8_000;

/** The notification events a muted session still records, tagged so no sink interrupts anyone with them. */
type NotificationEventType = 'approval.needed' | 'turn.finished' | 'session.exited' | 'session.error' | 'spec.error';

/** The wire form of an approval id: the tracker's dots become dashes (ids are `[A-Za-z0-9_-]`). */
export function wireApprovalId(approval: Approval): string {
  return approval.id.replace(/\./g, '-');
}

/** The index of the button the modal's cursor is on, or null (no modal, no marker seen). */
function currentIndex(modal: DriverModalView | null): number | null {
  return modal?.buttons.find((b) => b.current)?.index ?? null;
}

/** What a running session is made of. */
export interface SessionRuntime {
  driver: FsmDriver;
  /** The host transport (for terminal viewers: raw bytes, seqs). */
  transport: HostTransport;
}

export interface ManagedSessionDeps {
  store: Store;
  events: EventLog;
  tracker: ApprovalTracker;
  now: () => number;
  /** The daemon's node name, stamped on what this session shows. */
  node: string;
  /** Called with a newly opened approval a policy may answer. */
  onApprovalOpened?: (session: ManagedSession, approval: Approval) => void;
  /** The spec's delegate trigger `trigger` fired with its task text (spec-format §7.2). */
  onDelegate?: (session: ManagedSession, trigger: string, task: string) => void;
  /** Timers of the turn's completion (./turn-completion.ts); the wall clock by default. */
  scheduler?: Scheduler;
}

export class ManagedSession {
  record: SessionRecord;
  spec: CliSpecV4;
  /** The environment overrides (stored only sealed, ./env-seal.ts; opened again after a daemon restart). */
  env: Record<string, string> | undefined;
  policy: ApprovalPolicy | null;
  runtime: SessionRuntime | null = null;
  startedAt: number | null = null;
  stateSince: number | null = null;
  #lifecycle: SessionDetail['lifecycle'];
  #state: DriverStateView | null = null;
  /** The modal as the driver last reported it (its cursor: which button is current). */
  #modal: DriverModalView | null = null;
  /** The turn under way, from its start to "turn finished" (which waits for the agent's own background work). */
  readonly #turn: TurnCompletion;
  #unsubscribe: (() => void) | null = null;
  /** When a person last typed, sent, pressed or answered in this session; null: not since the daemon started. */
  #personInputAt: number | null = null;
  /** The agent started a turn (generating) after that input: a modal now is the agent's. */
  #agentTurnSinceInput = false;
  /** Who asked for the kill under way (see {@link expectKillBy}). */
  #killer: { name: string; token_id: string; at: number } | null = null;
  readonly #deps: ManagedSessionDeps;

  constructor(record: SessionRecord, spec: CliSpecV4, deps: ManagedSessionDeps, init: { env?: Record<string, string>; policy?: ApprovalPolicy | null } = {}) {
    this.record = record;
    this.spec = spec;
    this.env = init.env;
    this.policy = init.policy ?? null;
    this.#deps = deps;
    this.#lifecycle = record.exitedAt === null ? 'starting' : 'exited';
    this.#turn = new TurnCompletion(deps.scheduler ?? new RealScheduler({ unref: true }), ({ state, since, at }) => {
      this.#notify({ type: 'turn.finished', session_id: this.id, at, state, duration_ms: at - since });
    });
  }

  /** What the driver types into the PTY, for a recording's `i` events (the session manager wraps the driver's transport with it). */
  readonly input = new InputTap();

  get id(): string {
    return this.record.id;
  }

  /** The driver while the agent runs (terminal viewers read it). */
  get driver(): FsmDriver | null {
    return this.runtime?.driver ?? null;
  }

  /** The host transport while the agent runs. */
  get transport(): HostTransport | null {
    return this.runtime?.transport ?? null;
  }

  get isRunning(): boolean {
    return this.runtime !== null && this.record.exitedAt === null;
  }

  get muted(): boolean {
    return this.record.muted;
  }

  /** Mutes or unmutes the session's notifications, kept in the store (a restart keeps it). */
  setMuted(muted: boolean): void {
    this.record = { ...this.record, muted };
    this.#deps.store.sessions.setMuted(this.id, muted);
  }

  /**
   * A person's own input reached the session (keys, a message, a control, an answer): a picker or
   * confirm that opens next, before any agent turn, is theirs and waits for nobody.
   */
  notePersonInput(): void {
    this.#personInputAt = this.#deps.now();
    this.#agentTurnSinceInput = false;
  }

  /** Whether a modal of `kind` opening at `now` is the reply to the person's own input (see {@link PERSON_OPENED_WINDOW_MS}). */
  #openedByPerson(kind: ApprovalModal['kind'], now: number): boolean {
    if (kind !== 'picker' && kind !== 'confirm') return false; // a consent prompt is always the agent's
    return this.#personInputAt !== null && !this.#agentTurnSinceInput && now - this.#personInputAt <= PERSON_OPENED_WINDOW_MS;
  }

  /** Appends a notification event, tagged `muted` while the session is muted (the sinks skip those). */
  #notify<T extends NotificationEventType>(event: Extract<Parameters<EventLog['append']>[0], { type: T }>): void {
    this.#deps.events.append(this.record.muted ? { ...event, muted: true } : event);
  }

  /** The approval on screen now, if any. */
  get approval(): Approval | null {
    return this.#deps.tracker.current(this.id);
  }

  /**
   * Binds a started (or resumed) driver. `resumed` = the state the store last recorded, which the
   * driver starts in: it is not recorded again unless it changes.
   */
  bind(runtime: SessionRuntime, resumed: DriverStateView | null): void {
    this.runtime = runtime;
    this.#state = resumed;
    this.#lifecycle = 'running';
    this.startedAt ??= this.#deps.now();
    this.#unsubscribe = runtime.driver.subscribe((event) => this.#onDriverEvent(event));
  }

  /** The driver's events that matter to the daemon. */
  #onDriverEvent(event: DashboardEvent): void {
    switch (event.kind) {
      case 'state_changed': this.#onState(event.state, event.modal); break;
      case 'exit': this.markExited(event.exit_code, event.signal); break;
      case 'spawn_error': this.fail('SPAWN_FAILED', event.message); break;
      case 'delegate': this.#deps.onDelegate?.(this, event.id, event.task); break;
      case 'spec_error':
        this.#notify({ type: 'spec.error', session_id: this.id, at: this.#deps.now(), errors: event.errors });
        break;
      case 'log':
        if (event.level === 'error') this.#notify({ type: 'session.error', session_id: this.id, at: this.#deps.now(), code: 'DRIVER_ERROR', message: event.message });
        break;
      default: break;
    }
  }

  #onState(state: DriverStateView, modal: DriverModalView | null): void {
    const now = this.#deps.now();
    if (state.status === 'generating') this.#agentTurnSinceInput = true;
    const observed = modal ? { ...this.#approvalModal(modal), openedBy: this.#openedByPerson(modal.kind, now) ? 'person' as const : 'agent' as const } : null;
    const observation = this.#deps.tracker.observe(this.id, observed, now);
    const { store, events } = this.#deps;
    if (observation.closed) store.approvals.recordCleared(observation.closed.id, now);
    if (observation.opened) {
      const a = observation.opened;
      store.approvals.recordSeen({ id: a.id, fingerprint: a.fingerprint, sessionId: this.id, title: a.title, body: a.body, buttons: a.buttons, kind: a.kind ?? 'approval', firstSeen: a.firstSeenAt });
      // A modal the person opened is shown on the session but waits for nobody: no notification.
      if (a.openedBy === 'agent') this.#notify({ type: 'approval.needed', session_id: this.id, at: now, approval: toWireApproval(a, this.#deps.node) });
    }
    const previous = this.#state;
    const moved = previous === null || previous.id !== state.id || previous.status !== state.status;
    const backgroundChanged = previous !== null && previous.background?.what !== state.background?.what;
    const cursorMoved = currentIndex(modal) !== currentIndex(this.#modal);
    this.#state = state;
    this.#modal = modal;
    if (moved) {
      this.stateSince = now;
      store.stateChanges.insert({
        sessionId: this.id, t: now, state: state.id, status: state.status,
        modal: observation.current ? { approvalId: observation.current.id, kind: observation.current.kind, title: observation.current.title } : null,
      });
    }
    if (moved || backgroundChanged || observation.opened || observation.closed || (cursorMoved && observation.current)) {
      events.append({ type: 'session.state', session_id: this.id, at: now, state, modal: this.modalView() });
    }
    // A consent prompt only comes inside a turn: one that finishes after it without the driver
    // sampling a spinner (a fast agent, a loaded machine) is still a turn that finished.
    this.#turn.observe(state, state.status === 'generating' || (modal?.kind === 'approval' && this.runtime?.driver.hasSeenReady() === true), now);
    if (observation.opened && this.#deps.onApprovalOpened) this.#deps.onApprovalOpened(this, observation.opened);
  }

  /** The modal as the approval tracker sees it: the driver's view plus the question's text. */
  #approvalModal(modal: DriverModalView): ApprovalModal {
    return { kind: modal.kind, title: modal.title, buttons: modal.buttons, body: this.modalBody(), subject: this.#subject(), startupGate: !this.runtime?.driver.hasSeenReady() };
  }

  /**
   * The thing the modal on screen asks consent for (./approval-subject.ts), read on every
   * observation and on the re-read before a press, so the fingerprint covers it.
   */
  #subject(): ModalSubject | null {
    const driver = this.runtime?.driver;
    return driver ? readModalSubject(driver) : null;
  }

  /**
   * The text of the spec's `modal` section on screen ('' when the spec has none), without the
   * box a TUI draws around it: border-only lines go, `│` edges are cut, so a policy's whole-line
   * rule (`npm test`) sees the command's line as the agent wrote it.
   */
  modalBody(): string {
    const sections = this.runtime?.driver.getSections() ?? [];
    const text = sections.find((s) => s.id === 'modal')?.text ?? '';
    return text.split('\n')
      .filter((line) => !/^[\s\u2500-\u257f]*$/.test(line) || line.trim() === '')
      .map((line) => line.replace(/^\s*[\u2502\u2503|]\s?/, '').replace(/\s*[\u2502\u2503|]\s*$/, ''))
      .join('\n').trim();
  }

  /**
   * The prompt this session waits on a person for: its open approval (picker, confirm or
   * approval, whoever opened it), unless its auto-approve policy will press it.
   */
  promptForPerson(): Approval | null {
    const approval = this.#deps.tracker.current(this.id);
    if (!approval) return null;
    return this.policy && decideApproval(this.policy, approval).verdict === 'allow' ? null : approval;
  }

  /** Whether the CLI can be started again on the same conversation: exited, its id known, its spec says how. */
  get resumable(): boolean {
    return this.record.exitedAt !== null && Boolean(this.record.nativeSessionId && this.spec.native_history?.resume_args);
  }

  /** Reads the modal on screen now, as the executor and stale checks need it. */
  liveModal(): ApprovalModal | null {
    const view = this.runtime?.driver.getCurrentView();
    if (!view?.modal) return null;
    return this.#approvalModal(view.modal);
  }

  /** The session cannot run (its child did not start, its host is gone): `failed`, with the reason as an event. */
  fail(code: string, message: string): void {
    this.#lifecycle = 'failed';
    this.#notify({ type: 'session.error', session_id: this.id, at: this.#deps.now(), code, message });
  }

  /**
   * Resizes the running agent's PTY and screen and keeps the size in the session record: the
   * one path of `POST …/resize` and the WebSocket lease holder's resize (the dashboard's fit).
   */
  resize(cols: number, rows: number): DispatchResult {
    const driver = this.runtime?.driver;
    if (!driver) return { ok: false, code: 'EXITED', reason: `session ${this.id} has no running agent` };
    const result = driver.resize(cols, rows);
    if (result.ok) this.rememberSize(cols, rows);
    return result;
  }

  /** Keeps the terminal size the session was resized to (a restart, even of the daemon, uses it). */
  rememberSize(cols: number, rows: number): void {
    this.record = { ...this.record, cols, rows };
    this.#deps.store.sessions.setSize(this.id, cols, rows);
  }

  /** Records the exit (once) and tells subscribers. */
  /**
   * Who is killing the session (a person through the API): the exit event names them, so a
   * toast reads "killed by phone" rather than "exited on SIGHUP". Cleared by the exit it explains.
   */
  expectKillBy(by: { name: string; token_id: string; at: number } | null): void {
    this.#killer = by;
  }

  markExited(code: number | null, signal: string | null): void {
    if (this.record.exitedAt !== null) return;
    const killedBy = this.#killer;
    this.#killer = null;
    const now = this.#deps.now();
    const { store, tracker } = this.#deps;
    store.sessions.markExited(this.id, { at: now, exitCode: code, signal });
    this.record = { ...this.record, exitedAt: now, exitCode: code, signal };
    if (this.#lifecycle !== 'failed') this.#lifecycle = 'exited';
    const closed = tracker.forget(this.id);
    if (closed) store.approvals.recordCleared(closed.id, now);
    this.#turn.reset();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#notify({ type: 'session.exited', session_id: this.id, at: now, code, signal, ...(killedBy ? { killed_by: killedBy } : {}) });
  }

  /** Lets the agent go without killing it (the daemon stops; the host keeps it running). */
  detach(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#turn.reset();
    if (!this.runtime) return;
    this.runtime.transport.detach();
    this.runtime.driver.shutdown();
    this.runtime = null;
  }

  /** Forgets the old run before a restart. */
  resetForRestart(): void {
    this.detach();
    this.record = { ...this.record, exitedAt: null, exitCode: null, signal: null };
    this.#lifecycle = 'starting';
    this.#state = null;
    this.#modal = null;
    this.#personInputAt = null;
    this.startedAt = null;
  }

  modalView(): ModalView | null {
    const approval = this.approval;
    if (!approval) return null;
    const current = currentIndex(this.#modal);
    const buttons = approval.buttons.map((b) => ({ ...b, current: b.index === current }));
    return { approval_id: wireApprovalId(approval), fingerprint: approval.fingerprint, title: approval.title, buttons, kind: approval.kind, subject: approval.subject, opened_by: approval.openedBy };
  }

  /** The state shown by the API: the driver's, else the last stored one. */
  stateView(): DriverStateView | null {
    if (this.#state) return this.#state;
    const last = this.#deps.store.stateChanges.page({ sessionId: this.id, order: 'desc', by: 'id', limit: 1 }).items[0];
    return last ? stateViewOf(this.spec, last.state) : null;
  }

  detail(): SessionDetail {
    const r = this.record;
    const view = this.runtime?.driver.getCurrentView();
    return {
      id: r.id, node: this.#deps.node, name: r.name, labels: r.labels, lifecycle: this.#lifecycle,
      state: this.stateView(), modal: this.modalView(),
      controls: this.isRunning ? (view?.controls ?? []).map((c) => ({ id: c.id, label: c.label, action_type: c.action_type })) : [],
      cwd: r.cwd, branch: r.branch,
      spec: { id: this.spec.id, version: null, proven_versions: this.spec.cli_version_range ? [this.spec.cli_version_range] : [] },
      pid: this.isRunning ? (this.runtime!.transport.pid ?? null) : null,
      cols: this.isRunning ? this.runtime!.driver.screen.cols : (r.cols ?? 120),
      rows: this.isRunning ? this.runtime!.driver.screen.rows : (r.rows ?? 40),
      exit: r.exitedAt === null ? null : { code: r.exitCode, signal: r.signal },
      created_at: r.createdAt, started_at: this.startedAt, exited_at: r.exitedAt, state_since: this.stateSince,
      recovered: r.recoveredAt !== null,
      muted: r.muted,
      native_session_id: r.nativeSessionId,
      resumable: this.resumable,
    };
  }
}

/** The state view of a state id of `spec` (the initial state's when the id is gone from the spec). */
export function stateViewOf(spec: CliSpecV4, stateId: string): DriverStateView {
  const state = stateById(spec, stateId) ?? initialState(spec);
  return { id: state.id, label: state.label ?? state.id, title: null, status: statusForState(state) };
}

export function toWireApproval(a: Approval, node: string) {
  return { id: wireApprovalId(a), node, session_id: a.sessionId, fingerprint: a.fingerprint, title: a.title, text: a.body, buttons: a.buttons, kind: a.kind, subject: a.subject, first_seen_at: a.firstSeenAt, opened_by: a.openedBy };
}
