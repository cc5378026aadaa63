/**
 * The two `Scheduler` implementations: wall-clock time for live sessions and virtual time for
 * recordings and tests. Both track their pending timers so shutdown can be proven leak-free.
 *
 * @module
 */

import type { Scheduler, TimerHandle } from '../core/clock.js';

/** Options for {@link RealScheduler}. */
export interface RealSchedulerOptions {
  /**
   * Unref every timer so pending timers alone do not keep Node alive. Default false: a driver
   * waiting on a wake timer must keep the process running.
   */
  unref?: boolean;
}

/** Normalises a delay: non-finite or negative delays run as soon as possible (0). */
function normaliseDelay(delayMs: number): number {
  return Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0;
}

/**
 * Wall-clock scheduler: `Date.now()` and Node timers, with live-timer tracking.
 *
 * @example
 * const scheduler = new RealScheduler();
 * const handle = scheduler.setTimeout(() => reevaluate(), 80);
 * scheduler.clearAll(); // on shutdown
 */
export class RealScheduler implements Scheduler {
  readonly #live = new Set<ReturnType<typeof setTimeout>>();
  readonly #unref: boolean;

  /** @param options - see {@link RealSchedulerOptions}. */
  constructor(options: RealSchedulerOptions = {}) {
    this.#unref = options.unref ?? false;
  }

  /** Milliseconds since the Unix epoch. */
  now(): number {
    return Date.now();
  }

  /** Runs `fn` after `delayMs` (negative or non-finite delays run on the next timer tick). */
  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const timer = setTimeout(() => {
      // Forget the timer before running it, so a throwing callback cannot leak it.
      this.#live.delete(timer);
      fn();
    }, normaliseDelay(delayMs));
    if (this.#unref) timer.unref();
    this.#live.add(timer);
    return timer;
  }

  /** Cancels a pending timer; unknown, fired or null handles are ignored. */
  clearTimeout(handle: TimerHandle | null | undefined): void {
    if (handle === null || handle === undefined) return;
    const timer = handle as ReturnType<typeof setTimeout>;
    if (!this.#live.has(timer)) return;
    this.#live.delete(timer);
    clearTimeout(timer);
  }

  /** Number of timers scheduled and neither fired nor cancelled. */
  pendingCount(): number {
    return this.#live.size;
  }

  /** Cancels every pending timer (shutdown). */
  clearAll(): void {
    for (const timer of this.#live) clearTimeout(timer);
    this.#live.clear();
  }
}

/**
 * A timer of the virtual scheduler; it is its own handle (one object per timer, and no id set to
 * keep in step: drivers re-arm timers on every evaluation).
 */
interface VirtualTimer extends VirtualTimerHandle {
  readonly dueAt: number;
  readonly fn: () => void;
  readonly owner: VirtualScheduler;
  pending: boolean;
}

/** The opaque handle returned by {@link VirtualScheduler.setTimeout}. */
export interface VirtualTimerHandle {
  readonly virtualTimerId: number;
}

/** Safety net against timers that keep re-arming themselves with a zero delay. */
export const MAX_TIMERS_PER_ADVANCE = 1_000_000;

/** Earlier due time first; equal due times in creation (id) order. */
function runsBefore(a: VirtualTimer, b: VirtualTimer): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.virtualTimerId < b.virtualTimerId);
}

/**
 * Binary min-heap of timers: O(log n) insert and pop, so replaying a recording with hundreds of
 * thousands of scheduled chunks stays linearithmic.
 */
class TimerHeap {
  readonly #items: VirtualTimer[] = [];

  get size(): number {
    return this.#items.length;
  }

  peek(): VirtualTimer | undefined {
    return this.#items[0];
  }

  push(timer: VirtualTimer): void {
    const items = this.#items;
    items.push(timer);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!runsBefore(items[i] as VirtualTimer, items[parent] as VirtualTimer)) break;
      [items[i], items[parent]] = [items[parent] as VirtualTimer, items[i] as VirtualTimer];
      i = parent;
    }
  }

  /** Drops timers for which `keep` is false; a sorted array is a valid heap. */
  retain(keep: (timer: VirtualTimer) => boolean): void {
    const kept = this.#items.filter(keep).sort((a, b) => (runsBefore(a, b) ? -1 : 1));
    this.#items.length = 0;
    for (const timer of kept) this.#items.push(timer);
  }

  pop(): VirtualTimer | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && runsBefore(items[left] as VirtualTimer, items[smallest] as VirtualTimer)) smallest = left;
        if (right < items.length && runsBefore(items[right] as VirtualTimer, items[smallest] as VirtualTimer)) smallest = right;
        if (smallest === i) break;
        [items[i], items[smallest]] = [items[smallest] as VirtualTimer, items[i] as VirtualTimer];
        i = smallest;
      }
    }
    return top;
  }
}

/**
 * Deterministic virtual-time scheduler. Time only moves when the caller advances it; due timers
 * fire in `(dueAt, creation order)` order and each sees `now()` equal to its own due time.
 * Timers created by timers fire in the same advance if they are due by its target.
 * An exception thrown by a timer callback propagates out of the advancing call (the timer is
 * already removed and `now()` equals its due time), so tests see their own failures.
 *
 * @example
 * const clock = new VirtualScheduler();
 * clock.setTimeout(() => console.log(clock.now()), 100);
 * clock.advanceBy(150); // logs 100; clock.now() === 150
 */
export class VirtualScheduler implements Scheduler {
  #now: number;
  #nextId = 1;
  readonly #heap = new TimerHeap();
  /** Timers neither fired nor cancelled; cancelled ones stay in the heap and are skipped when reached. */
  #pending = 0;

  /** @param startMs - initial time on the virtual timeline. */
  constructor(startMs = 0) {
    if (!Number.isFinite(startMs)) {
      throw new RangeError(`VirtualScheduler: startMs must be a finite number, got ${String(startMs)}`);
    }
    this.#now = startMs;
  }

  /** Current virtual time in milliseconds. */
  now(): number {
    return this.#now;
  }

  /** Schedules `fn` at `now() + delayMs` (negative or non-finite delays count as 0). */
  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const timer: VirtualTimer = { virtualTimerId: this.#nextId++, dueAt: this.#now + normaliseDelay(delayMs), fn, owner: this, pending: true };
    this.#heap.push(timer);
    this.#pending += 1;
    return timer;
  }

  /** Cancels a pending timer; unknown, fired or null handles are ignored. */
  clearTimeout(handle: TimerHandle | null | undefined): void {
    if (handle === null || typeof handle !== 'object') return;
    const timer = handle as Partial<VirtualTimer>;
    // Another scheduler's handle, a fired or an already cancelled timer: nothing to do.
    if (timer.owner !== this || !timer.pending) return;
    timer.pending = false;
    this.#pending -= 1;
    // Drivers re-arm wake timers on every evaluation; compact so cancelled ones cannot pile up.
    if (this.#heap.size > 2 * this.#pending + 1024) this.#heap.retain((t) => t.pending);
  }

  /**
   * Fires every timer due at or before `targetMs`, in time order, then sets `now()` to
   * `targetMs`. A target in the past fires nothing and leaves `now()` unchanged (time never
   * runs backwards).
   *
   * @returns the number of timers fired.
   */
  advanceTo(targetMs: number): number {
    if (Number.isNaN(targetMs)) {
      throw new RangeError('VirtualScheduler.advanceTo: targetMs is NaN; pass a time in milliseconds');
    }
    let fired = 0;
    for (;;) {
      const next = this.#peekLive();
      if (!next || next.dueAt > targetMs) break;
      this.#heap.pop();
      next.pending = false;
      this.#pending -= 1;
      if (next.dueAt > this.#now) this.#now = next.dueAt;
      if (++fired > MAX_TIMERS_PER_ADVANCE) {
        throw new Error(`VirtualScheduler: more than ${MAX_TIMERS_PER_ADVANCE} timers fired in one advance at t=${this.#now} ms; a timer probably re-arms itself with a zero delay`);
      }
      next.fn();
    }
    if (targetMs > this.#now && Number.isFinite(targetMs)) this.#now = targetMs;
    return fired;
  }

  /**
   * Advances by `ms` from the current time (see {@link advanceTo}).
   *
   * @returns the number of timers fired.
   */
  advanceBy(ms: number): number {
    return this.advanceTo(this.#now + normaliseDelay(ms));
  }

  /**
   * Fires timers in order until none are pending or the next one is due more than `limitMs`
   * after the time this call started. `now()` ends at the last fired timer's due time, or at
   * the limit when timers remain.
   *
   * @param limitMs - how far virtual time may move at most; default one hour.
   * @returns the number of timers fired.
   */
  runUntilIdle(limitMs = 3_600_000): number {
    const deadline = this.#now + normaliseDelay(limitMs);
    let fired = 0;
    for (;;) {
      const next = this.#peekLive();
      if (!next) return fired;
      if (next.dueAt > deadline) {
        this.#now = Math.max(this.#now, deadline);
        return fired;
      }
      fired += this.advanceTo(next.dueAt);
    }
  }

  /** Number of timers scheduled and neither fired nor cancelled. */
  pendingCount(): number {
    return this.#pending;
  }

  /** Due time of the next pending timer, or undefined when none is pending. */
  nextDueAt(): number | undefined {
    return this.#peekLive()?.dueAt;
  }

  /** Cancels every pending timer (shutdown). */
  clearAll(): void {
    this.#pending = 0;
    for (let t = this.#heap.pop(); t; t = this.#heap.pop()) t.pending = false;
  }

  /** The earliest pending timer, discarding cancelled ones found on top of the heap. */
  #peekLive(): VirtualTimer | undefined {
    for (;;) {
      const top = this.#heap.peek();
      if (!top || top.pending) return top;
      this.#heap.pop();
    }
  }
}
