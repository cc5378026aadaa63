/**
 * Time as a parameter. The core never reads a clock; the driver receives a `Scheduler`
 * so that one driver runs in real time on a live PTY and in virtual time on a recording.
 */

/** Opaque handle returned by `Scheduler.setTimeout`. */
export type TimerHandle = { readonly __timer: unique symbol } | number | object;

export interface Scheduler {
  /** Milliseconds on this scheduler's timeline (wall clock or recording time). */
  now(): number;
  setTimeout(fn: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle | null | undefined): void;
}
