/**
 * The daemon's notifications leave through the event log: every `approval.needed`,
 * `turn.finished`, `session.exited`, `session.error` and `spec.error` the session manager appends
 * also goes to the desktop (`notify-send`, when present), to the webhooks of
 * `<state>/settings.json`, and into the store's `notifications` table (the same safe text the
 * desktop shows: a modal's body — the command — is never stored as text). One derivation (the
 * manager's), many sinks.
 * @module
 */
import { isMutedEvent, type DaemonEvent } from '../protocol/index.js';
import { RealScheduler } from '../driver/schedulers.js';
import type { NotificationKind, NotificationsTable } from '../store/index.js';
import { desktopMessage, DesktopNotifier, type DesktopNotifierOptions } from './desktop-notifier.js';
import type { EventLog } from './event-log.js';
import type { Notification } from './notifications.js';
import { checkWebhookConfigs } from './webhook-config.js';
import { WebhookDispatcher } from './webhooks.js';

/**
 * The notification a daemon event carries; null for the session-list events (created, state, …)
 * and for a muted session's events (recorded in the log, but nobody is interrupted).
 */
export function notificationFromEvent(event: DaemonEvent): Notification | null {
  if (isMutedEvent(event)) return null;
  const base = { sessionId: event.session_id, at: event.at };
  switch (event.type) {
    case 'approval.needed': {
      const a = event.approval;
      return {
        ...base, type: event.type,
        approval: { id: a.id, fingerprint: a.fingerprint, kind: a.kind, title: a.title, body: a.text, buttons: a.buttons, firstSeenAt: a.first_seen_at },
      };
    }
    case 'turn.finished':
      return { ...base, type: event.type, durationMs: event.duration_ms, state: event.state };
    case 'session.exited':
      return { ...base, type: event.type, exitCode: event.code, signal: event.signal };
    case 'session.error':
      return { ...base, type: event.type, code: event.code, message: event.message };
    case 'spec.error':
      return { ...base, type: event.type, errors: event.errors };
    default:
      return null;
  }
}

export interface NotificationSinksOptions {
  events: EventLog;
  /** `settings.json`'s `webhooks` (checked here: a bad entry names its field). */
  webhooks?: unknown;
  desktop?: DesktopNotifierOptions | false;
  /** Where each notification is kept (the daemon passes `store.notifications`). */
  journal?: NotificationsTable;
  log: (level: 'warn' | 'error', message: string) => void;
}

export interface NotificationSinks {
  readonly desktopAvailable: boolean;
  close(): Promise<void>;
}

export function startNotificationSinks(options: NotificationSinksOptions): NotificationSinks {
  const webhooks = options.webhooks === undefined ? [] : checkWebhookConfigs(options.webhooks).map((w) => w.config);
  const dispatcher = webhooks.length > 0
    ? new WebhookDispatcher({
      webhooks, scheduler: new RealScheduler(),
      onReport: (r) => { if (r.type === 'gave-up' || r.type === 'dropped') options.log('warn', `webhook ${r.webhookId}: ${r.type} (${'error' in r ? r.error : `${r.droppedTotal} dropped`})`); },
    })
    : null;
  const desktop = options.desktop === false ? null : new DesktopNotifier({
    ...options.desktop,
    onReport: (r) => { if (r.type === 'unavailable') options.log('warn', r.reason); },
  });
  const unsubscribe = options.events.subscribe((event) => {
    const n = notificationFromEvent(event);
    if (!n) return;
    desktop?.notify(n);
    dispatcher?.notify(n);
    if (options.journal) keep(options.journal, n, event.seq, options.log);
  });
  return {
    desktopAvailable: desktop?.available ?? false,
    close: async () => {
      unsubscribe();
      desktop?.shutdown();
      await dispatcher?.shutdown();
    },
  };
}

const STORED_KIND: Record<Notification['type'], NotificationKind> = {
  'approval.needed': 'approval_needed', 'turn.finished': 'turn_finished', 'session.exited': 'exited',
  'session.error': 'error', 'spec.error': 'spec_error',
};

/** A failed insert (disk full, a locked file) is reported and skipped: it never stops the other sinks. */
function keep(journal: NotificationsTable, n: Notification, eventSeq: number, log: NotificationSinksOptions['log']): void {
  const { title, body } = desktopMessage(n);
  const data = n.type === 'approval.needed' ? { event_seq: eventSeq, approval_id: n.approval.id } : { event_seq: eventSeq };
  try {
    journal.insert({ t: n.at, kind: STORED_KIND[n.type], sessionId: n.sessionId, title, body, data });
  } catch (error) {
    log('warn', `could not store a ${n.type} notification: ${(error as Error).message}`);
  }
}
