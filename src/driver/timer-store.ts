/**
 * Every timer of one driver, in one place: reusable slots for the timers that are re-armed
 * (evaluation, wake, watchdogs, reload) and one-shot timers for the rest, all through the
 * injected `Scheduler`, all cancelled by one `dispose()`. After `dispose()` nothing arms or fires.
 *
 * @module
 */
import type { Scheduler, TimerHandle } from '../core/clock.js';
import type { Disposable } from '../terminal/transport.js';

/** A wake for a due time fires this much after it, so the condition is surely true by then. */
export const WAKE_SLACK_MS = 30;
/** No wake is armed closer than this: a timer loop never spins. */
export const WAKE_FLOOR_MS = 50;

/**
 * One re-armable timer with a fixed callback. The callback is bound once, when the slot is made:
 * arming on the per-frame path allocates no closure (see CONTRIBUTING, "closures on the
 * per-frame path").
 */
export class TimerSlot implements Disposable {
  readonly #scheduler: Scheduler;
  readonly #callback: () => void;
  #handle: TimerHandle | null = null;
  #dueAt = 0;
  #disposed = false;
  readonly #fire = (): void => {
    this.#handle = null;
    this.#callback();
  };

  constructor(scheduler: Scheduler, callback: () => void) {
    this.#scheduler = scheduler;
    this.#callback = callback;
  }

  /** (Re-)arms the timer `delayMs` from now, replacing a pending one. No-op once disposed. */
  arm(delayMs: number): void {
    this.cancel();
    if (this.#disposed) return;
    this.#dueAt = this.#scheduler.now() + delayMs;
    this.#handle = this.#scheduler.setTimeout(this.#fire, delayMs);
  }

  /** Cancels the pending timer, if any. */
  cancel(): void {
    if (this.#handle === null) return;
    this.#scheduler.clearTimeout(this.#handle);
    this.#handle = null;
  }

  /** Whether the timer is pending. */
  isArmed(): boolean {
    return this.#handle !== null;
  }

  /** When the pending timer fires (scheduler time); meaningful only while armed. */
  dueAt(): number {
    return this.#dueAt;
  }

  dispose(): void {
    this.cancel();
    this.#disposed = true;
  }
}

const NOT_ARMED = { cancel(): void {} };

/** Owns the timers of one driver; `dispose()` cancels every one of them. */
export class TimerStore implements Disposable {
  readonly #scheduler: Scheduler;
  readonly #slots: TimerSlot[] = [];
  readonly #oneShots = new Set<TimerHandle>();
  #disposed = false;

  constructor(scheduler: Scheduler) {
    this.#scheduler = scheduler;
  }

  /** A new slot for `callback`, owned by this store. */
  slot(callback: () => void): TimerSlot {
    const slot = new TimerSlot(this.#scheduler, callback);
    if (this.#disposed) slot.dispose();
    else this.#slots.push(slot);
    return slot;
  }

  /** Runs `fn` once after `delayMs`, unless cancelled or the store is disposed first. */
  later(delayMs: number, fn: () => void): { cancel(): void } {
    if (this.#disposed) return NOT_ARMED;
    const handle = this.#scheduler.setTimeout(() => {
      this.#oneShots.delete(handle);
      fn();
    }, delayMs);
    this.#oneShots.add(handle);
    return {
      cancel: () => {
        if (this.#oneShots.delete(handle)) this.#scheduler.clearTimeout(handle);
      },
    };
  }

  /** Cancels every slot and one-shot timer; later arms are no-ops. Idempotent. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const slot of this.#slots.splice(0)) slot.dispose();
    for (const handle of this.#oneShots) this.#scheduler.clearTimeout(handle);
    this.#oneShots.clear();
  }
}
