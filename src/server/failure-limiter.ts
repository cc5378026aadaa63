/**
 * Slows down guessing: after `freeFailures` failed authentications from one address, that
 * address is locked out for a delay that doubles with each further failure (1 s, 2 s, 4 s …
 * capped at `maxLockMs`). A success clears the address; failures are forgotten after
 * `forgetMs` of quiet. Addresses are cheap (all of 127/8 is this machine), so failures also
 * draw on one global budget — `globalFreeFailures`, refilled one per `globalRefillMs` — and
 * when it is spent every failing request is throttled, whichever address it comes from.
 *
 * The limiter only decides what a *failed* attempt is answered; the authenticator still lets a
 * valid credential in while an address or the daemon is throttled (otherwise any local process
 * could lock the user's own clients out).
 * @module
 */

export interface FailureLimiterOptions {
  /** Failures allowed before the first lockout (5: a typo or two never locks a person out). */
  freeFailures?: number;
  /** The first lockout (1 s), doubled per further failure. */
  baseLockMs?: number;
  /** The longest lockout (15 min, as CommandMate). */
  maxLockMs?: number;
  /** Quiet time after which an address's failures are forgotten (15 min). */
  forgetMs?: number;
  /** The clock (tests pass a virtual one). */
  now?: () => number;
  /** Addresses remembered at most; the oldest are forgotten first (bounds memory under a spray). */
  maxAddresses?: number;
  /** Failures from all addresses together before every failing request is throttled (30: far beyond a person's typos, even on several devices). */
  globalFreeFailures?: number;
  /** The global budget refills one failure per this many ms (2 s: 30 a minute). */
  globalRefillMs?: number;
}

interface Entry { failures: number; lockedUntil: number; lastAt: number }

export class FailureLimiter {
  readonly #free: number;
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #forgetMs: number;
  readonly #now: () => number;
  readonly #maxAddresses: number;
  readonly #entries = new Map<string, Entry>();
  readonly #globalFree: number;
  readonly #globalRefillMs: number;
  /** Failures the global budget still allows, as of `#globalAt`. */
  #globalLeft: number;
  #globalAt: number;

  constructor(options: FailureLimiterOptions = {}) {
    this.#free = options.freeFailures ?? 5;
    this.#baseMs = options.baseLockMs ?? 1_000;
    this.#maxMs = options.maxLockMs ?? 15 * 60_000;
    this.#forgetMs = options.forgetMs ?? 15 * 60_000;
    this.#now = options.now ?? Date.now;
    this.#maxAddresses = options.maxAddresses ?? 10_000;
    this.#globalFree = options.globalFreeFailures ?? 30;
    this.#globalRefillMs = options.globalRefillMs ?? 2_000;
    this.#globalLeft = this.#globalFree;
    this.#globalAt = this.#now();
  }

  /** Milliseconds until the global budget allows one more failure, 0 when it does now. */
  throttledForMs(): number {
    this.#refill();
    return this.#globalLeft >= 1 ? 0 : Math.ceil((1 - this.#globalLeft) * this.#globalRefillMs);
  }

  /** Milliseconds `address` must still wait, 0 when it may try. */
  lockedForMs(address: string): number {
    const entry = this.#live(address);
    return entry ? Math.max(0, entry.lockedUntil - this.#now()) : 0;
  }

  /** Records a failed authentication. */
  recordFailure(address: string): void {
    this.#refill();
    this.#globalLeft = Math.max(0, this.#globalLeft - 1);
    const now = this.#now();
    const entry = this.#live(address) ?? { failures: 0, lockedUntil: 0, lastAt: now };
    entry.failures += 1;
    entry.lastAt = now;
    const over = entry.failures - this.#free;
    if (over > 0) entry.lockedUntil = now + Math.min(this.#maxMs, this.#baseMs * 2 ** Math.min(over - 1, 30));
    this.#entries.delete(address);
    this.#entries.set(address, entry);
    if (this.#entries.size > this.#maxAddresses) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** Records a success: the address starts afresh. */
  recordSuccess(address: string): void {
    this.#entries.delete(address);
  }

  #refill(): void {
    const now = this.#now();
    this.#globalLeft = Math.min(this.#globalFree, this.#globalLeft + (now - this.#globalAt) / this.#globalRefillMs);
    this.#globalAt = now;
  }

  #live(address: string): Entry | undefined {
    const entry = this.#entries.get(address);
    if (entry && this.#now() - entry.lastAt > this.#forgetMs && entry.lockedUntil <= this.#now()) {
      this.#entries.delete(address);
      return undefined;
    }
    return entry;
  }
}
