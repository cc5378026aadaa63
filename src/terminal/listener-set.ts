/**
 * A small event emitter whose fan-out never lets one listener's exception escape.
 *
 * Why: PTY data arrives from node-pty's socket callback and screen events fire inside xterm's
 * synchronous parser; an exception there would either crash the process (uncaught) or leave the
 * parser's write buffer stuck mid-write. So every listener call is isolated and failures are
 * reported to an error sink instead.
 *
 * @module
 */

import type { Disposable } from './transport.js';

/** Receives exceptions thrown by listeners; `event` names the event (e.g. `data`). */
export type ListenerErrorSink = (error: unknown, event: string) => void;

/**
 * Default sink: a process warning (visible on stderr, never fatal). Callers that own a log
 * pass their own sink.
 */
export const warnListenerError: ListenerErrorSink = (error, event) => {
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(`a '${event}' listener threw and was skipped: ${message}`, { code: 'SPECTERM_LISTENER_ERROR' });
};

/** Ordered set of listeners for one event. */
export class ListenerSet<T> {
  readonly #listeners = new Set<(value: T) => void>();
  readonly #event: string;
  readonly #sink: ListenerErrorSink;

  /**
   * @param event - event name used when reporting listener errors.
   * @param sink - where listener exceptions go.
   */
  constructor(event: string, sink: ListenerErrorSink = warnListenerError) {
    this.#event = event;
    this.#sink = sink;
  }

  /** Adds a listener; the returned disposable removes it (idempotent). */
  add(listener: (value: T) => void): Disposable {
    // Wrap so the same function can be registered twice and disposed independently.
    const entry = (value: T): void => listener(value);
    this.#listeners.add(entry);
    return { dispose: () => void this.#listeners.delete(entry) };
  }

  /** Calls every listener in registration order; a throwing listener is reported and skipped. */
  emit(value: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(value);
      } catch (error) {
        try {
          this.#sink(error, this.#event);
        } catch {
          // A failing sink must not break delivery either.
        }
      }
    }
  }

  /** Number of registered listeners. */
  get size(): number {
    return this.#listeners.size;
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
