/**
 * Notifications to webhooks: each typed event is POSTed as JSON to every configured URL that
 * wants it, signed with that webhook's secret (see ./webhook-signature.ts).
 *
 * Per webhook: one request at a time, in order; a failure that may pass (network, 5xx, 408,
 * 429) is retried with exponential backoff and jitter, anything else (other 4xx, redirects) is
 * not — retrying cannot fix it. The queue is bounded: when full the oldest waiting event is
 * dropped, counted and reported, so a dead receiver costs memory bounded by `maxQueue`.
 * `notify` only enqueues: the caller (the session's event path) never waits on the network.
 *
 * Secrets never leave this module except inside the HMAC; reports and errors name a webhook by
 * its id and origin only, because a URL's path often is a credential too (chat webhooks).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Scheduler, TimerHandle } from '../core/clock.js';
import { signatureHeader, SIGNATURE_HEADER } from './webhook-signature.js';
import { checkWebhookConfigs, type NOTIFICATION_TYPES, type WebhookConfig } from './webhook-config.js';

export type { WebhookConfig } from './webhook-config.js';

/** The notifications a daemon sends; `type` is namespaced and stable. */
export type NotificationEvent =
  | { type: 'approval.needed'; sessionId: string; at: number; approval: { id: string; fingerprint: string; kind: string | null; title: string | null; body: string; buttons: Array<{ index: number; label: string }> } }
  | { type: 'turn.finished'; sessionId: string; at: number; durationMs: number | null }
  | { type: 'session.exited'; sessionId: string; at: number; exitCode: number | null; signal: string | null }
  | { type: 'session.error'; sessionId: string; at: number; message: string }
  | { type: 'spec.error'; sessionId: string; at: number; errors: string[] };

export type NotificationType = NotificationEvent['type'];

/** Compile-time: the config's list of types and this union are the same set. */
type ConfiguredType = (typeof NOTIFICATION_TYPES)[number];
const _sameTypes: [NotificationType, ConfiguredType] extends [ConfiguredType, NotificationType] ? true : never = true;

/** What happened to deliveries, for the daemon's log and the notifications table. */
export type WebhookReport =
  | { type: 'delivered'; webhookId: string; eventId: string; status: number; attempts: number }
  | { type: 'retrying'; webhookId: string; eventId: string; attempt: number; delayMs: number; error: string }
  | { type: 'gave-up'; webhookId: string; eventId: string; attempts: number; error: string }
  | { type: 'rejected'; webhookId: string; eventId: string; status: number }
  | { type: 'dropped'; webhookId: string; eventId: string; eventType: NotificationType; droppedTotal: number };

/** Sends one request; resolves with the status, rejects on a network failure or abort. */
export type PostFn = (url: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<{ status: number }>;

export interface WebhookDispatcherOptions {
  webhooks: WebhookConfig[];
  /** Timers (backoff, request timeout) and the signature's timestamp (ms since the epoch). */
  scheduler: Scheduler;
  post?: PostFn;
  /** Events waiting per webhook, besides the one in flight. */
  maxQueue?: number;
  /** Tries per event, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  requestTimeoutMs?: number;
  /** In [0, 1); jitter = delay × (0.5 + random/2), so receivers coming back are not hit in step. */
  random?: () => number;
  onReport?: (report: WebhookReport) => void;
}

export interface WebhookStats {
  id: string;
  origin: string;
  queued: number;
  inFlight: boolean;
  delivered: number;
  rejected: number;
  gaveUp: number;
  dropped: number;
}

/** 100 events ≈ a few minutes of a busy session's notifications; older ones are stale by then. */
const DEFAULT_MAX_QUEUE = 100;
/** 8 tries at 1 s base ≈ 2 minutes of retrying before giving up on an event. */
const DEFAULT_MAX_ATTEMPTS = 8;
const DEFAULT_BASE_DELAY_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

interface Pending {
  eventId: string;
  event: NotificationEvent;
  /** Serialised once: every attempt sends the same bytes, so a receiver can dedupe on the id. */
  body: string;
  attempts: number;
}

interface Target {
  config: WebhookConfig;
  origin: string;
  queue: Pending[];
  current: Pending | null;
  retryTimer: TimerHandle | null;
  abort: AbortController | null;
  stats: Omit<WebhookStats, 'id' | 'origin' | 'queued' | 'inFlight'>;
}

/** Redirects are not followed: the signed body must reach the configured URL or nobody. */
export const postWithFetch: PostFn = async (url, headers, body, signal) => {
  const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
  await response.body?.cancel();
  return { status: response.status };
};

function isRetryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

function describeFailure(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string } };
  if (err?.name === 'AbortError') return 'timed out';
  return err?.cause?.code ?? err?.message ?? String(e);
}

/**
 * Delivers notifications to the configured webhooks.
 *
 * @example
 * const hooks = new WebhookDispatcher({ webhooks: [{ id: 'ci', url: 'http://127.0.0.1:9000/hook', secret }], scheduler: new RealScheduler() });
 * hooks.notify({ type: 'session.exited', sessionId: 's1', at: Date.now(), exitCode: 0, signal: null });
 * await hooks.shutdown();
 */
export class WebhookDispatcher {
  readonly #targets: Target[];
  readonly #scheduler: Scheduler;
  readonly #post: PostFn;
  readonly #maxQueue: number;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #requestTimeoutMs: number;
  readonly #random: () => number;
  readonly #onReport: (report: WebhookReport) => void;
  #closed = false;

  /** @throws WebhookConfigError naming the field (never echoing a secret). */
  constructor(options: WebhookDispatcherOptions) {
    this.#targets = checkWebhookConfigs(options.webhooks).map(({ config, origin }) => ({
      config, origin, queue: [], current: null, retryTimer: null, abort: null,
      stats: { delivered: 0, rejected: 0, gaveUp: 0, dropped: 0 },
    }));
    this.#scheduler = options.scheduler;
    this.#post = options.post ?? postWithFetch;
    this.#maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.#maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.#baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    this.#maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#random = options.random ?? Math.random;
    this.#onReport = options.onReport ?? (() => {});
  }

  /** Queues `event` for every webhook that wants its type; returns at once. Ignored after shutdown. */
  notify(event: NotificationEvent): void {
    if (this.#closed) return;
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, event });
    for (const target of this.#targets) {
      if (target.config.events && !target.config.events.includes(event.type)) continue;
      target.queue.push({ eventId, event, body, attempts: 0 });
      if (target.queue.length > this.#maxQueue) {
        const dropped = target.queue.shift()!;
        target.stats.dropped += 1;
        this.#report({ type: 'dropped', webhookId: target.config.id, eventId: dropped.eventId, eventType: dropped.event.type, droppedTotal: target.stats.dropped });
      }
      // A microtask, not a call: the caller's stack never runs network code.
      queueMicrotask(() => this.#pump(target));
    }
  }

  stats(): WebhookStats[] {
    return this.#targets.map((t) => ({ id: t.config.id, origin: t.origin, queued: t.queue.length, inFlight: t.abort !== null, ...t.stats }));
  }

  /** Stops: cancels retries, aborts requests in flight, discards queued events; returns how many were discarded. */
  async shutdown(): Promise<number> {
    this.#closed = true;
    let discarded = 0;
    for (const target of this.#targets) {
      this.#scheduler.clearTimeout(target.retryTimer);
      target.retryTimer = null;
      target.abort?.abort();
      discarded += target.queue.length + (target.current ? 1 : 0);
      target.queue.length = 0;
      target.current = null;
    }
    return discarded;
  }

  #report(report: WebhookReport): void {
    try {
      this.#onReport(report);
    } catch {
      // A failing reporter must not stop deliveries.
    }
  }

  #pump(target: Target): void {
    if (this.#closed || target.current || target.queue.length === 0) return;
    target.current = target.queue.shift()!;
    void this.#attempt(target, target.current);
  }

  async #attempt(target: Target, pending: Pending): Promise<void> {
    pending.attempts += 1;
    const timestampSec = Math.floor(this.#scheduler.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'specterm-webhooks',
      'x-specterm-event': pending.event.type,
      'x-specterm-delivery': pending.eventId,
      [SIGNATURE_HEADER]: signatureHeader(target.config.secret, timestampSec, pending.body),
    };
    const abort = new AbortController();
    target.abort = abort;
    const timeout = this.#scheduler.setTimeout(() => abort.abort(), this.#requestTimeoutMs);
    let outcome: { status: number } | { error: string };
    try {
      outcome = await this.#post(target.config.url, headers, pending.body, abort.signal);
    } catch (e) {
      outcome = { error: describeFailure(e) };
    } finally {
      this.#scheduler.clearTimeout(timeout);
      target.abort = null;
    }
    if (this.#closed || target.current !== pending) return;
    const id = { webhookId: target.config.id, eventId: pending.eventId };
    if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
      target.stats.delivered += 1;
      this.#report({ type: 'delivered', ...id, status: outcome.status, attempts: pending.attempts });
      return this.#next(target);
    }
    if ('status' in outcome && !isRetryable(outcome.status)) {
      target.stats.rejected += 1;
      this.#report({ type: 'rejected', ...id, status: outcome.status });
      return this.#next(target);
    }
    const error = 'status' in outcome ? `HTTP ${outcome.status}` : outcome.error;
    if (pending.attempts >= this.#maxAttempts) {
      target.stats.gaveUp += 1;
      this.#report({ type: 'gave-up', ...id, attempts: pending.attempts, error });
      return this.#next(target);
    }
    const exponential = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (pending.attempts - 1));
    const delayMs = Math.round(exponential * (0.5 + this.#random() / 2));
    this.#report({ type: 'retrying', ...id, attempt: pending.attempts, delayMs, error });
    target.retryTimer = this.#scheduler.setTimeout(() => {
      target.retryTimer = null;
      void this.#attempt(target, pending);
    }, delayMs);
  }

  #next(target: Target): void {
    target.current = null;
    this.#pump(target);
  }
}
