/**
 * Web Push in the daemon: the VAPID keys (./push-keys.ts), the subscriptions (the store's
 * `push_subscriptions`), and a sender (./push-sender.ts) fed by the event log with the same
 * "approval needed / turn finished / exited" text the dashboard shows (protocol
 * `notificationMessageOf`). `<state>/settings.json` may hold `push: {subject?, enabled?,
 * allow_loopback_http?}`: `subject` is the VAPID contact (default `mailto:specterm@localhost`);
 * `allow_loopback_http` accepts `http://127.0.0.1…` endpoints (a push service on this machine,
 * the tests' one), which are refused otherwise: a real push service speaks HTTPS, and an
 * `http:` endpoint would let a device make the daemon post to anything on the LAN.
 * @module
 */
import type { DaemonEvent } from '../protocol/index.js';
import { notificationMessageOf } from '../protocol/push.js';
import type { PushSubscriptionsTable } from '../store/index.js';
import { RealScheduler } from '../driver/schedulers.js';
import type { EventLog } from './event-log.js';
import { ensureVapidKeys } from './push-keys.js';
import { PushSender, type PushPostFn, type PushReport } from './push-sender.js';

export interface PushSettings { subject?: unknown; enabled?: unknown; allow_loopback_http?: unknown }

export interface PushServiceOptions {
  stateDir: string;
  events: EventLog;
  subscriptions: PushSubscriptionsTable;
  settings?: unknown;
  /** The session's name (or id) for the notification's title. */
  sessionName: (event: DaemonEvent) => string;
  /** How the dashboard names the event's session (default its id; a hub's: the fleet id). */
  sessionRef?: (event: DaemonEvent) => string;
  /**
   * Events older than this when they arrive are not pushed: a hub catching up on the hours it was
   * stopped would otherwise wake the phone for every turn that finished meanwhile. Unset: all.
   */
  staleAfterMs?: number;
  now?: () => number;
  log: (level: 'info' | 'warn', message: string) => void;
  post?: PushPostFn;
  onReport?: (report: PushReport) => void;
}

export interface PushService {
  readonly publicKey: string;
  /** Why `endpoint` cannot be a push endpoint (a sentence with the fix), or null when it can. */
  refuseEndpoint(endpoint: string): string | null;
  readonly sender: PushSender;
  close(): void;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Checks `settings.json`'s `push` member, naming the field at fault. */
export function checkPushSettings(value: unknown): { subject: string; enabled: boolean; allowLoopbackHttp: boolean } {
  if (value === undefined) return { subject: 'mailto:specterm@localhost', enabled: true, allowLoopbackHttp: false };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`push must be an object {subject?, enabled?, allow_loopback_http?}; got ${JSON.stringify(value)}`);
  const s = value as PushSettings;
  const subject = s.subject ?? 'mailto:specterm@localhost';
  if (typeof subject !== 'string' || !/^(mailto:|https:\/\/)\S+$/.test(subject)) throw new TypeError(`push.subject must be a mailto: or https: URL (the VAPID contact); got ${JSON.stringify(s.subject)}`);
  for (const key of ['enabled', 'allow_loopback_http'] as const) {
    if (s[key] !== undefined && typeof s[key] !== 'boolean') throw new TypeError(`push.${key} must be true or false; got ${JSON.stringify(s[key])}`);
  }
  return { subject, enabled: s.enabled !== false, allowLoopbackHttp: s.allow_loopback_http === true };
}

export function startPushService(options: PushServiceOptions): PushService {
  const settings = checkPushSettings(options.settings);
  const vapid = ensureVapidKeys(options.stateDir);
  if (vapid.created) options.log('info', `created the Web Push (VAPID) key pair in ${vapid.path}`);
  const sender = new PushSender({
    targets: options.subscriptions, keys: vapid.keys, subject: settings.subject, scheduler: new RealScheduler(), post: options.post,
    onReport: (report) => {
      if (report.type === 'gave-up' || report.type === 'rejected') options.log('warn', `web push to ${report.origin}: ${report.type} (${'error' in report ? report.error : `HTTP ${report.status}`})`);
      if (report.type === 'expired') options.log('info', `web push to ${report.origin}: the subscription is gone (HTTP ${report.status}); removed it`);
      options.onReport?.(report);
    },
  });
  const unsubscribe = settings.enabled
    ? options.events.subscribe((event) => {
      if (options.staleAfterMs !== undefined && (options.now ?? Date.now)() - event.at > options.staleAfterMs) return;
      const message = notificationMessageOf(event, options.sessionName(event), options.sessionRef?.(event));
      if (message) sender.notify(message);
    })
    : () => {};
  return {
    publicKey: vapid.keys.publicKey,
    sender,
    refuseEndpoint: (endpoint) => {
      let url: URL;
      try { url = new URL(endpoint); } catch { return 'endpoint is not a URL; pass PushSubscription.endpoint as the browser gave it'; }
      if (url.protocol === 'https:') return null;
      if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && settings.allowLoopbackHttp) return null;
      return `endpoint must be an https: URL (a push service); http: is accepted only for a loopback push service with "push": {"allow_loopback_http": true} in settings.json`;
    },
    close: () => { unsubscribe(); sender.shutdown(); },
  };
}
