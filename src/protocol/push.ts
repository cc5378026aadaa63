/**
 * Web Push (docs/dashboard.md, "Notifications"): the daemon's VAPID public key, and the
 * subscriptions a browser's service worker registers so the daemon can wake it with
 * "approval needed", "turn finished" and "exited" while no page of the dashboard is open.
 * @module
 */
import { z } from 'zod';
import { EpochMs } from './common.js';
import { isMutedEvent, type DaemonEvent } from './events.js';
import { describeStillRunning } from './still-running.js';

/** `GET /api/v1/push/key`: what `pushManager.subscribe({applicationServerKey})` takes. */
export const PushKey = z.strictObject({
  public_key: z.string().meta({ description: 'the daemon\'s VAPID P-256 public key, uncompressed, base64url' }),
});

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url (A-Z a-z 0-9 - _, no padding)');

/** `POST /api/v1/push/subscriptions`: `PushSubscription.toJSON()` as the browser gives it. */
export const PushSubscribeRequest = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048).meta({ description: 'the push service URL the browser was given' }),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    p256dh: Base64Url.length(87).meta({ description: 'the browser\'s P-256 public key (65 bytes)' }),
    auth: Base64Url.length(22).meta({ description: 'the 16-byte authentication secret' }),
  }),
}).meta({ examples: [{ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null, keys: { p256dh: 'B'.padEnd(87, 'A'), auth: 'A'.repeat(22) } }] });

export const PushSubscriptionView = z.strictObject({
  id: z.string(),
  /** Only the origin: the rest of an endpoint URL is a capability for that browser. */
  endpoint_origin: z.string(),
  device: z.string().meta({ description: 'the device token\'s name that subscribed' }),
  created_at: EpochMs,
});
export type PushSubscriptionView = z.infer<typeof PushSubscriptionView>;

export const PushSubscriptionList = z.strictObject({ subscriptions: z.array(PushSubscriptionView) });

/** `POST /api/v1/push/unsubscribe`: forget the subscription for this endpoint. */
export const PushUnsubscribeRequest = z.strictObject({ endpoint: z.string().max(2048) }).meta({ examples: [{ endpoint: 'https://fcm.googleapis.com/fcm/send/abc' }] });
export const PushUnsubscribeResult = z.strictObject({ removed: z.boolean() });

/** What the service worker receives (decrypted) in a push message. */
export const PushMessage = z.strictObject({
  type: z.enum(['approval.needed', 'turn.finished', 'session.exited']),
  session_id: z.string(),
  title: z.string(),
  body: z.string(),
  /** The dashboard path to open on click: the session's view. */
  url: z.string(),
  at: EpochMs,
});
export type PushMessage = z.infer<typeof PushMessage>;

function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * The notification a person gets for `event` (push, the browser's Notification API and the
 * page's toasts all show this one text), or null for events that do not call for a person.
 * `sessionName` is the session's name or id; `sessionRef` how the dashboard names the session
 * (a hub: its fleet id `<node>_<id>`, which two nodes' equal ids cannot share).
 */
export function notificationMessageOf(event: DaemonEvent, sessionName: string, sessionRef = event.session_id): PushMessage | null {
  if (isMutedEvent(event)) return null; // a muted session interrupts nobody
  const base = { session_id: sessionRef, at: event.at, url: `/sessions/${encodeURIComponent(sessionRef)}` };
  switch (event.type) {
    case 'approval.needed': {
      const a = event.approval;
      const buttons = a.buttons.map((b) => `${b.index} ${b.label}`).join(' · ');
      return { ...base, type: event.type, title: `${sessionName}: approval needed`, body: [a.title, buttons].filter(Boolean).join('\n') };
    }
    case 'turn.finished':
      return { ...base, type: event.type, title: `${sessionName}: turn finished`, body: `after ${durationText(event.duration_ms)}; now ${event.state.label}${describeStillRunning(event.state)}` };
    case 'session.exited':
      return { ...base, type: event.type, title: `${sessionName}: exited`, body: event.signal ? `killed by ${event.signal}` : `exit code ${event.code ?? 'unknown'}` };
    default:
      return null;
  }
}
