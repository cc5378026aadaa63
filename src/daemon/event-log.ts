/**
 * The daemon-wide stream of `DaemonEvent`s: every event gets the next `seq`, is kept in a bounded
 * in-memory ring for resume (SSE `Last-Event-ID`, WS `since`) and goes to every subscriber.
 *
 * Seqs start at the daemon's start time × 1000 (and only grow), so a client that resumes with a
 * seq from a previous daemon run never mistakes old numbers for new ones: it gets what this run
 * still holds, and re-reads the session list (`GET /api/v1/sessions`) for the rest. Durable
 * history (state changes, approvals, messages, audit) is in the store, not here.
 *
 * @module
 */
import type { DaemonEvent } from '../protocol/index.js';

/** An event before the log numbers it. */
export type DaemonEventInput = DaemonEvent extends infer E ? (E extends { seq: number } ? Omit<E, 'seq'> : never) : never;

/** Events kept for resume: about an hour of a busy daemon with dozens of sessions. */
const DEFAULT_RING_EVENTS = 10_000;

export class EventLog {
  readonly #ring: DaemonEvent[] = [];
  readonly #max: number;
  readonly #listeners = new Set<(event: DaemonEvent) => void>();
  #nextSeq: number;

  constructor(options: { now?: () => number; maxEvents?: number } = {}) {
    this.#max = options.maxEvents ?? DEFAULT_RING_EVENTS;
    this.#nextSeq = Math.floor((options.now ?? Date.now)()) * 1000 + 1;
  }

  /** Numbers `input`, keeps it and tells every subscriber. Returns the numbered event. */
  append(input: DaemonEventInput): DaemonEvent {
    const event = { ...input, seq: this.#nextSeq++ } as DaemonEvent;
    this.#ring.push(event);
    if (this.#ring.length > this.#max) this.#ring.shift();
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A failing subscriber (a closed socket) must not stop the others.
      }
    }
    return event;
  }

  /** Kept events with a seq above `since`, oldest first (optionally of one session). */
  since(since: number, sessionId?: string): DaemonEvent[] {
    return this.#ring.filter((event) => event.seq > since && (sessionId === undefined || event.session_id === sessionId));
  }

  /** Adds a subscriber; the returned function removes it. */
  subscribe(listener: (event: DaemonEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The seq the last event got (0 before any). */
  get lastSeq(): number {
    return this.#ring.at(-1)?.seq ?? 0;
  }
}
