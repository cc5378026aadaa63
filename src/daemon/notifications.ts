/**
 * Notifications (issue 15 item 9): the few typed events a person or a script acts on — an
 * approval is needed, a turn finished, a session exited, a session failed, its spec is broken —
 * derived from a driver's `DashboardEvent`s and delivered to every subscriber (the event log),
 * to the desktop (./desktop-notifier.ts) and to the webhooks (./webhooks.ts).
 *
 * One `SessionNotifier` per session turns its driver's events into notifications:
 * - approval needed: once per sighting of a modal (the `ApprovalTracker` gives one id while the
 *   same question is up, however often the screen repaints it);
 * - turn finished: when the state's status returns to `idle` after it was `generating` (an
 *   approval in between belongs to the turn), with the turn's duration;
 * - exited (code, signal), error (the child could not start, or the driver logged an error),
 *   spec error.
 * `NotificationHub.publish` hands each one to every sink; a sink that throws does not stop the
 * others, and none of them waits on a network or a process.
 *
 * @module
 */
import type { ModalKind } from '../core/spec/types.js';
import type { DaemonEvent } from '../protocol/index.js';
import type { DashboardEvent, StateView } from '../driver/events.js';
import { ApprovalTracker, type Approval } from './approval.js';
import type { NotificationEvent, WebhookDispatcher } from './webhooks.js';

type Of<T extends NotificationEvent['type']> = Extract<NotificationEvent, { type: T }>;

/**
 * A notification: the webhook payload (`NotificationEvent`) plus what the protocol's
 * `DaemonEvent` needs besides (the approval's first sighting, the finished turn's state, an
 * error's code), so one value serves every sink.
 */
export type Notification =
  | (Of<'approval.needed'> & { approval: { firstSeenAt: number; kind: ModalKind | null } })
  | (Of<'turn.finished'> & { durationMs: number; state: StateView })
  | Of<'session.exited'>
  | (Of<'session.error'> & { code: string })
  | Of<'spec.error'>;

// Compile-time: every notification is a valid webhook payload.
const _isWebhookPayload = (n: Notification): NotificationEvent => n;

/** Where notifications go besides subscribers; both are optional. */
export interface NotificationHubOptions {
  webhooks?: Pick<WebhookDispatcher, 'notify'> | null;
  desktop?: { notify(n: Notification): void } | null;
  /** A subscriber or sink threw (the others still got the notification). */
  onSinkError?: (error: unknown, sink: string) => void;
}

/**
 * Fans notifications out to subscribers, the desktop and the webhooks.
 *
 * @example
 * const hub = new NotificationHub({ webhooks, desktop: DesktopNotifier.create() });
 * hub.subscribe((n) => eventLog.append(toDaemonEvent(n, eventLog.nextSeq())));
 * const notifier = hub.forSession('s1');
 * driver.subscribe((ev) => notifier.observe(ev));
 */
export class NotificationHub {
  readonly #subscribers = new Set<(n: Notification) => void>();
  readonly #options: NotificationHubOptions;
  readonly #approvals: ApprovalTracker;

  constructor(options: NotificationHubOptions = {}, approvals: ApprovalTracker = new ApprovalTracker()) {
    this.#options = options;
    this.#approvals = approvals;
  }

  /** Calls `listener` with every notification, in order; returns the unsubscribe. */
  subscribe(listener: (n: Notification) => void): () => void {
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  publish(n: Notification): void {
    for (const listener of [...this.#subscribers]) this.#guard('subscriber', () => listener(n));
    if (this.#options.desktop) this.#guard('desktop', () => this.#options.desktop!.notify(n));
    if (this.#options.webhooks) this.#guard('webhooks', () => this.#options.webhooks!.notify(n));
  }

  /** A notifier for one session, publishing here and sharing this hub's approval tracker. */
  forSession(sessionId: string, options: Omit<SessionNotifierOptions, 'sessionId' | 'emit' | 'approvals'> = {}): SessionNotifier {
    return new SessionNotifier({ ...options, sessionId, approvals: this.#approvals, emit: (n) => this.publish(n) });
  }

  #guard(sink: string, deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      try {
        this.#options.onSinkError?.(error, sink);
      } catch {
        // A failing error reporter must not stop deliveries.
      }
    }
  }
}

export interface SessionNotifierOptions {
  sessionId: string;
  emit: (n: Notification) => void;
  /** The daemon's tracker (one for all sessions, so approval ids are unique); default a private one. */
  approvals?: ApprovalTracker;
  /** The modal's question text (e.g. the spec's modal section); default ''. Part of the fingerprint. */
  modalBody?: () => string;
  /** Wall clock (ms since the epoch) for `at` and durations. */
  now?: () => number;
}

/** Derives one session's notifications from its driver's events (see the module comment). */
export class SessionNotifier {
  readonly #options: SessionNotifierOptions;
  readonly #approvals: ApprovalTracker;
  readonly #now: () => number;
  /** When the open turn started (its first `generating` state), or null between turns. */
  #turnStartedAt: number | null = null;
  #exited = false;

  constructor(options: SessionNotifierOptions) {
    this.#options = options;
    this.#approvals = options.approvals ?? new ApprovalTracker();
    this.#now = options.now ?? Date.now;
  }

  observe(ev: DashboardEvent): void {
    const sessionId = this.#options.sessionId;
    const at = this.#now();
    switch (ev.kind) {
      case 'state_changed':
        return this.#onState(ev.state, ev.modal, at);
      case 'exit':
        if (this.#exited) return;
        this.#exited = true;
        this.#approvals.observe(sessionId, null, at);
        return this.#options.emit({ type: 'session.exited', sessionId, at, exitCode: ev.exit_code, signal: ev.signal });
      case 'spawn_error':
        return this.#options.emit({ type: 'session.error', sessionId, at, code: 'SPAWN_FAILED', message: ev.message });
      case 'log':
        if (ev.level !== 'error') return;
        return this.#options.emit({ type: 'session.error', sessionId, at, code: 'DRIVER_ERROR', message: ev.message });
      case 'spec_error':
        return this.#options.emit({ type: 'spec.error', sessionId, at, errors: ev.errors });
      default:
        return;
    }
  }

  #onState(state: StateView, modal: Extract<DashboardEvent, { kind: 'state_changed' }>['modal'], at: number): void {
    const sessionId = this.#options.sessionId;
    const seen = this.#approvals.observe(sessionId, modal ? { kind: modal.kind, title: modal.title, body: this.#options.modalBody?.() ?? '', buttons: modal.buttons } : null, at);
    if (seen.opened) this.#options.emit({ type: 'approval.needed', sessionId, at, approval: approvalPayload(seen.opened) });
    if (state.status === 'generating' && this.#turnStartedAt === null) this.#turnStartedAt = at;
    if (state.status === 'idle' && this.#turnStartedAt !== null) {
      const durationMs = Math.max(0, Math.round(at - this.#turnStartedAt));
      this.#turnStartedAt = null;
      this.#options.emit({ type: 'turn.finished', sessionId, at, durationMs, state });
    }
  }
}

function approvalPayload(a: Approval): Extract<Notification, { type: 'approval.needed' }>['approval'] {
  return { id: a.id, fingerprint: a.fingerprint, kind: a.kind, title: a.title, body: a.body, buttons: a.buttons, firstSeenAt: a.firstSeenAt };
}

/**
 * The protocol's form of a notification (`DaemonEvent`, snake_case, with the event log's `seq`),
 * for the event log, SSE and the WebSocket `sessions` topic.
 */
export function toDaemonEvent(n: Notification, seq: number): DaemonEvent {
  const base = { seq, at: n.at, session_id: n.sessionId };
  switch (n.type) {
    case 'approval.needed': {
      const a = n.approval;
      return { ...base, type: n.type, approval: { id: a.id, session_id: n.sessionId, fingerprint: a.fingerprint, title: a.title, text: a.body, buttons: a.buttons, kind: a.kind, first_seen_at: a.firstSeenAt } };
    }
    case 'turn.finished':
      return { ...base, type: n.type, state: n.state, duration_ms: n.durationMs };
    case 'session.exited':
      return { ...base, type: n.type, code: n.exitCode, signal: n.signal };
    case 'session.error':
      return { ...base, type: n.type, code: n.code, message: n.message };
    case 'spec.error':
      return { ...base, type: n.type, errors: n.errors };
  }
}
