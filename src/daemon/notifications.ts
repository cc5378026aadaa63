/**
 * Notifications (issue 15 item 9): the few typed events a person or a script acts on — an
 * approval is needed, a turn finished, a session exited, a session failed, its spec is broken.
 *
 * There is one derivation: `ManagedSession` turns its driver's events into `DaemonEvent`s in the
 * event log (approval needed once per sighting, by the daemon's one `ApprovalTracker`; turn
 * finished when the status returns to idle after generating; exited; error for a failed spawn or
 * a driver error; spec error). Every subscriber reads the log; `notification-sinks.ts` hands the
 * notification events to the desktop (./desktop-notifier.ts) and the webhooks (./webhooks.ts)
 * in this module's form.
 *
 * @module
 */
import type { ModalKind } from '../core/spec/types.js';
import type { StateView } from '../driver/events.js';
import type { NotificationEvent } from './webhooks.js';

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
void _isWebhookPayload;
