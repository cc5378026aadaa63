/**
 * Web Push deliveries: each "approval needed", "turn finished" and "exited" notification is
 * encrypted for every stored subscription (RFC 8291) and POSTed to its push service with a
 * VAPID JWT (RFC 8292), a TTL, an urgency and a topic (so an undelivered older message of the
 * same kind for the same session is replaced, not stacked).
 *
 * Each delivery is independent: a network failure, 5xx, 408 or 429 is retried with exponential
 * backoff and jitter up to `maxAttempts`; 404 or 410 means the browser dropped the subscription,
 * so its row is deleted; a retry whose subscription is gone meanwhile (its device revoked) is
 * dropped; any other answer is a refusal, reported once. `notify` only schedules
 * (a microtask): the event path never waits on a push service. Endpoints are capabilities: only
 * their origin appears in reports.
 * @module
 */
import crypto from 'node:crypto';
import type { Scheduler, TimerHandle } from '../core/clock.js';
import type { PushMessage } from '../protocol/push.js';
import { encryptPushPayload, vapidAuthorization, type PushKeys, type VapidKeys } from './push-crypto.js';

export interface PushTarget { endpoint: string; keys: PushKeys }

export interface PushTargets {
  list(): PushTarget[];
  /** Still subscribed: false once its device was revoked or it unsubscribed (a retry is dropped). */
  has(endpoint: string): boolean;
  remove(endpoint: string): boolean;
}

export type PushReport =
  | { type: 'delivered'; origin: string; status: number; attempts: number }
  | { type: 'retrying'; origin: string; attempt: number; delayMs: number; error: string }
  | { type: 'gave-up'; origin: string; attempts: number; error: string }
  | { type: 'expired'; origin: string; status: number }
  | { type: 'rejected'; origin: string; status: number };

/** Sends one request; resolves with the status, rejects on a network failure or abort. */
export type PushPostFn = (url: string, headers: Record<string, string>, body: Buffer, signal: AbortSignal) => Promise<{ status: number }>;

export interface PushSenderOptions {
  targets: PushTargets;
  keys: VapidKeys;
  /** The VAPID `sub` claim: a `mailto:` or `https:` contact for the push service's operator. */
  subject: string;
  scheduler: Scheduler;
  post?: PushPostFn;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  requestTimeoutMs?: number;
  random?: () => number;
  onReport?: (report: PushReport) => void;
}

/** 5 tries at 1 s base ≈ 15 s: a notification later than that has lost most of its use. */
const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_BASE_DELAY_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** How long a push service keeps an undelivered message: an approval waits a day, the rest an hour. */
const TTL_SEC = { 'approval.needed': 86_400, 'turn.finished': 3_600, 'session.exited': 3_600 } as const;
const URGENCY = { 'approval.needed': 'high', 'turn.finished': 'normal', 'session.exited': 'normal' } as const;

/** Redirects are not followed: the encrypted body goes to the subscribed push service or nowhere. */
export const postPushWithFetch: PushPostFn = async (url, headers, body, signal) => {
  const response = await fetch(url, { method: 'POST', headers, body: new Uint8Array(body), signal, redirect: 'manual' });
  await response.body?.cancel();
  return { status: response.status };
};

/** RFC 8030 §5.4: at most 32 characters of the base64url alphabet. */
function topicOf(message: PushMessage): string {
  return crypto.createHash('sha256').update(`${message.type}\0${message.session_id}`).digest('base64url').slice(0, 32);
}

function originOf(endpoint: string): string {
  try { return new URL(endpoint).origin; } catch { return '(invalid endpoint)'; }
}

interface Delivery { target: PushTarget; origin: string; message: PushMessage; body: Buffer; attempts: number; timer: TimerHandle | null; abort: AbortController | null }

export class PushSender {
  readonly #o: Required<Omit<PushSenderOptions, 'onReport'>> & { onReport: (r: PushReport) => void };
  readonly #live = new Set<Delivery>();
  #closed = false;

  constructor(options: PushSenderOptions) {
    // Each default by `??`: an option passed as undefined (a caller forwarding its own) keeps it.
    this.#o = {
      targets: options.targets, keys: options.keys, subject: options.subject, scheduler: options.scheduler,
      post: options.post ?? postPushWithFetch, maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS, maxDelayMs: options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, random: options.random ?? Math.random, onReport: options.onReport ?? (() => {}),
    };
  }

  /** Deliveries started and not finished (in flight or waiting to retry). */
  get pending(): number {
    return this.#live.size;
  }

  /** Sends `message` to every subscription; returns at once. Ignored after shutdown. */
  notify(message: PushMessage): void {
    if (this.#closed) return;
    const plaintext = Buffer.from(JSON.stringify(message));
    for (const target of this.#o.targets.list()) {
      let body: Buffer;
      try {
        body = encryptPushPayload(plaintext, target.keys);
      } catch (error) {
        this.#report({ type: 'gave-up', origin: originOf(target.endpoint), attempts: 0, error: (error as Error).message });
        continue;
      }
      const delivery: Delivery = { target, origin: originOf(target.endpoint), message, body, attempts: 0, timer: null, abort: null };
      this.#live.add(delivery);
      queueMicrotask(() => void this.#attempt(delivery));
    }
  }

  /** Stops: cancels retries and aborts requests in flight. */
  shutdown(): void {
    this.#closed = true;
    for (const d of this.#live) {
      this.#o.scheduler.clearTimeout(d.timer);
      d.abort?.abort();
    }
    this.#live.clear();
  }

  #report(report: PushReport): void {
    try { this.#o.onReport(report); } catch { /* a failing reporter must not stop deliveries */ }
  }

  async #attempt(d: Delivery): Promise<void> {
    if (this.#closed) return;
    if (d.attempts > 0 && !this.#o.targets.has(d.target.endpoint)) {
      this.#live.delete(d);
      return;
    }
    d.attempts += 1;
    const headers = {
      'content-type': 'application/octet-stream',
      'content-encoding': 'aes128gcm',
      ttl: String(TTL_SEC[d.message.type]),
      urgency: URGENCY[d.message.type],
      topic: topicOf(d.message),
      authorization: vapidAuthorization(d.target.endpoint, this.#o.keys, this.#o.subject, this.#o.scheduler.now()),
    };
    d.abort = new AbortController();
    const abort = d.abort;
    const timeout = this.#o.scheduler.setTimeout(() => abort.abort(), this.#o.requestTimeoutMs);
    let outcome: { status: number } | { error: string };
    try {
      outcome = await this.#o.post(d.target.endpoint, headers, d.body, abort.signal);
    } catch (error) {
      const e = error as { name?: string; message?: string; cause?: { code?: string } };
      outcome = { error: e?.name === 'AbortError' ? 'timed out' : e?.cause?.code ?? e?.message ?? String(error) };
    } finally {
      this.#o.scheduler.clearTimeout(timeout);
      d.abort = null;
    }
    if (this.#closed) return;
    if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
      this.#live.delete(d);
      return this.#report({ type: 'delivered', origin: d.origin, status: outcome.status, attempts: d.attempts });
    }
    if ('status' in outcome && (outcome.status === 404 || outcome.status === 410)) {
      this.#live.delete(d);
      this.#o.targets.remove(d.target.endpoint);
      return this.#report({ type: 'expired', origin: d.origin, status: outcome.status });
    }
    const retryable = !('status' in outcome) || outcome.status >= 500 || outcome.status === 408 || outcome.status === 429;
    if (!retryable) {
      this.#live.delete(d);
      return this.#report({ type: 'rejected', origin: d.origin, status: (outcome as { status: number }).status });
    }
    const error = 'status' in outcome ? `HTTP ${outcome.status}` : outcome.error;
    if (d.attempts >= this.#o.maxAttempts) {
      this.#live.delete(d);
      return this.#report({ type: 'gave-up', origin: d.origin, attempts: d.attempts, error });
    }
    const exponential = Math.min(this.#o.maxDelayMs, this.#o.baseDelayMs * 2 ** (d.attempts - 1));
    const delayMs = Math.round(exponential * (0.5 + this.#o.random() / 2));
    this.#report({ type: 'retrying', origin: d.origin, attempt: d.attempts, delayMs, error });
    d.timer = this.#o.scheduler.setTimeout(() => { d.timer = null; void this.#attempt(d); }, delayMs);
  }
}
