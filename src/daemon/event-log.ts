/**
 * The daemon-wide stream of `DaemonEvent`s: every event gets the next `seq`, is kept for resume
 * (SSE `Last-Event-ID`, WS `since`) and goes to every subscriber.
 *
 * The daemon keeps the stream in the store (`events` table), so seqs only grow across daemon
 * restarts and a client resuming after a restart gets exactly the events it missed. Without a
 * store (unit tests) a bounded in-memory ring holds them.
 *
 * @module
 */
import type { DaemonEvent } from '../protocol/index.js';
import type { EventsTable, UnnumberedEvent } from '../store/index.js';

/** An event before the log numbers it. */
export type DaemonEventInput = UnnumberedEvent;

/**
 * Events one resume replays at most (and the ring keeps): about an hour of a busy daemon with
 * dozens of sessions; a client further behind re-reads the session list for the rest.
 */
export const MAX_REPLAY_EVENTS = 10_000;

/** Where the numbered events live: the store's `events` table, or a ring. */
export type EventJournal = Pick<EventsTable, 'append' | 'after' | 'from' | 'lastSeq' | 'continueAfter' | 'renumberAfter'>;

/** The journal without a store: seqs from 1, the newest `max` events kept. */
class RingJournal implements EventJournal {
  readonly #ring: DaemonEvent[] = [];
  readonly #max: number;
  #last = 0;

  constructor(max: number) {
    this.#max = max;
  }

  append(input: DaemonEventInput): DaemonEvent {
    const event = { ...input, seq: ++this.#last } as DaemonEvent;
    this.#ring.push(event);
    if (this.#ring.length > this.#max) this.#ring.shift();
    return event;
  }

  after(since: number, options: { sessionId?: string; limit: number }): DaemonEvent[] {
    return this.#ring.filter((e) => e.seq > since && (options.sessionId === undefined || e.session_id === options.sessionId)).slice(-options.limit);
  }

  from(since: number, limit: number): DaemonEvent[] {
    return this.#ring.filter((e) => e.seq > since).slice(0, limit);
  }

  lastSeq(): number {
    return this.#last;
  }

  continueAfter(seq: number): void {
    this.#last = Math.max(this.#last, seq);
  }

  renumberAfter(since: number, after: number): number {
    this.continueAfter(after);
    let moved = 0;
    for (const [i, e] of this.#ring.entries()) if (e.seq > since) { this.#ring[i] = { ...e, seq: ++this.#last }; moved += 1; }
    return moved;
  }
}

export class EventLog {
  readonly #journal: EventJournal;
  readonly #listeners = new Set<(event: DaemonEvent) => void>();
  /** Events numbered but not yet told to every subscriber, oldest first. */
  readonly #untold: DaemonEvent[] = [];
  #telling = false;

  readonly #node: string | undefined;

  /** `journal`: the store's `events` table (the daemon); default a ring of `maxEvents`. `node`: stamped on every event. */
  constructor(options: { journal?: EventJournal; maxEvents?: number; node?: string } = {}) {
    this.#journal = options.journal ?? new RingJournal(options.maxEvents ?? MAX_REPLAY_EVENTS);
    this.#node = options.node;
  }

  /**
   * Numbers `input`, keeps it and tells every subscriber. Returns the numbered event. An event
   * appended by a subscriber while another is being told waits until every subscriber has had
   * that one: each subscriber gets events in seq order (a stream that skips a seq it has passed
   * would otherwise lose the event being told).
   */
  append(input: DaemonEventInput): DaemonEvent {
    const event = this.#journal.append(this.#node === undefined ? input : { ...input, node: this.#node } as DaemonEventInput);
    this.#untold.push(event);
    if (this.#telling) return event;
    this.#telling = true;
    try {
      for (let next = this.#untold.shift(); next; next = this.#untold.shift()) {
        for (const listener of [...this.#listeners]) {
          try {
            listener(next);
          } catch {
            // A failing subscriber (a closed socket) must not stop the others.
          }
        }
      }
    } finally {
      this.#telling = false;
    }
    return event;
  }

  /**
   * Where a client that last saw `since` resumes. A seq above any this log handed out comes from
   * another numbering (the database was moved aside as corrupt, or an older daemon numbered by
   * time): the client then gets the kept history from the start rather than nothing, ever.
   */
  resumePoint(since: number): number {
    return since > this.#journal.lastSeq() ? 0 : since;
  }

  /** The next event is numbered after `seq` at least (a journal made anew goes on from what the fleet saw: EventsTable.continueAfter). */
  continueAfter(seq: number): void {
    this.#journal.continueAfter(seq);
  }

  /**
   * Moves the events after `since` to seqs after `after`, keeping their order; how many moved.
   * Subscribers are not told again: they had each event once. A client resuming after `since`
   * reads them at their new seqs.
   */
  renumberAfter(since: number, after: number): number {
    return this.#journal.renumberAfter(since, after);
  }

  /** Kept events with a seq above `since`, oldest first (optionally of one session; at most {@link MAX_REPLAY_EVENTS}, the newest). */
  since(since: number, sessionId?: string): DaemonEvent[] {
    return this.#journal.after(since, { sessionId, limit: MAX_REPLAY_EVENTS });
  }

  /** The next `limit` kept events after `since`, oldest first: a reader pages through with it and misses none that are kept. */
  page(since: number, limit: number): DaemonEvent[] {
    return this.#journal.from(since, limit);
  }

  /** Adds a subscriber; the returned function removes it. */
  subscribe(listener: (event: DaemonEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The seq the last event got (0 before any). */
  get lastSeq(): number {
    return this.#journal.lastSeq();
  }
}
