/**
 * Per-token token buckets for keystroke-producing commands: a burst, then a steady rate.
 * Refusals answer 429 with Retry-After; a viewer never slows the PTY, and a runaway script
 * cannot flood an agent with input.
 * @module
 */
import { SpectermError } from '../protocol/index.js';

export interface RateLimitOptions {
  /** Commands allowed at once (30). */
  burst?: number;
  /** Commands refilled per second (10). */
  perSecond?: number;
  now?: () => number;
}

interface Bucket { tokens: number; at: number }

export class RateLimiter {
  readonly #burst: number;
  readonly #perMs: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions = {}) {
    this.#burst = options.burst ?? 30;
    this.#perMs = (options.perSecond ?? 10) / 1000;
    this.#now = options.now ?? Date.now;
  }

  /** Takes one command for `key`; returns 0 when allowed, else the ms until one is available. */
  take(key: string): number {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, at: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#perMs);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.#perMs);
  }
}

/** Takes one command for `tokenId` or throws 429 RATE_LIMITED with Retry-After (seconds). */
export function takeOrRefuse(limiter: RateLimiter, tokenId: string, who: string): void {
  const waitMs = limiter.take(tokenId);
  if (waitMs === 0) return;
  const seconds = Math.ceil(waitMs / 1000);
  throw new SpectermError({
    code: 'RATE_LIMITED', title: 'Too many commands',
    detail: `token '${who}' sends commands faster than allowed; retry in ${seconds} s`,
    retryAfterSeconds: seconds,
  });
}
