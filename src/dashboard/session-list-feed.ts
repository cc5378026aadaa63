/**
 * The overview's session list kept live by the `sessions` events: each event is applied to the
 * list where it says exactly what changed (./session-list-events.ts), and only the rest — a
 * session created or gone, a subscription (re)made after a drop — reads `GET /sessions` again,
 * once per burst (100 ms after its last event). With 100 agents streaming, reading the list after
 * every burst cost the daemon a serialised, schema-checked list ~5 times a second (issue 27).
 *
 * One read at a time: asked again meanwhile, it reads once more after. A read's answer may
 * predate the events that arrived while it was under way (another socket), so those are applied
 * again over it; an event applied twice leaves the list as applying it once did.
 * @module
 */
import type { DaemonEvent } from '../protocol/events.js';
import type { SessionDetail } from '../protocol/sessions.js';
import { applySessionEvent, summariesOf, type SessionSummary } from './session-list-events.js';

/** One read per burst of events: this long after the last of them. */
export const RELOAD_DEBOUNCE_MS = 100;

export interface SessionListFeedDeps {
  /** The list shown now; null before the first read (or after signing out). */
  read(): SessionSummary[] | null;
  write(list: SessionSummary[]): void;
  /** Reads `GET /sessions`; null when it failed (the caller has said why: a 401, an error with a retry). */
  load(): Promise<SessionDetail[] | null>;
  /** Calls `fn` in `ms`; returns its cancel. */
  after(ms: number, fn: () => void): () => void;
}

export class SessionListFeed {
  readonly #deps: SessionListFeedDeps;
  #cancelReload: (() => void) | null = null;
  #reading: Promise<void> | null = null;
  #readAgain = false;
  /** Events that arrived while a read was under way, to apply over its answer; null: no read. */
  #sinceRead: DaemonEvent[] | null = null;

  constructor(deps: SessionListFeedDeps) {
    this.#deps = deps;
  }

  /** An event of the `sessions` topic. */
  apply(event: DaemonEvent): void {
    this.#sinceRead?.push(event);
    const list = this.#deps.read();
    if (list === null) {
      // Not read yet: the read under way (or the one asked for now) brings it.
      if (this.#reading === null) this.reloadSoon();
      return;
    }
    const change = applySessionEvent(list, event);
    if (change.kind === 'changed') this.#deps.write(change.list);
    else if (change.kind === 'reload') this.reloadSoon();
  }

  /** Reads the list once the burst of events is over. */
  reloadSoon(): void {
    this.#cancelReload?.();
    this.#cancelReload = this.#deps.after(RELOAD_DEBOUNCE_MS, () => {
      this.#cancelReload = null;
      void this.reload();
    });
  }

  /** Reads the list now (after the read under way, if any); settles when the list is written. */
  reload(): Promise<void> {
    if (this.#reading !== null) {
      this.#readAgain = true;
      return this.#reading;
    }
    this.#reading = this.#read().finally(() => {
      this.#reading = null;
      if (!this.#readAgain) return;
      this.#readAgain = false;
      void this.reload();
    });
    return this.#reading;
  }

  /** Cancels the read asked for (the page signs out or goes away). */
  stop(): void {
    this.#cancelReload?.();
    this.#cancelReload = null;
    this.#readAgain = false;
  }

  async #read(): Promise<void> {
    const since: DaemonEvent[] = [];
    this.#sinceRead = since;
    let answer: SessionDetail[] | null;
    try {
      answer = await this.#deps.load().catch(() => null);
    } finally {
      // From here on, events apply to the list written below.
      this.#sinceRead = null;
    }
    if (answer === null) return;
    let list = summariesOf(answer);
    let stale = false;
    for (const event of since) {
      const change = applySessionEvent(list, event);
      if (change.kind === 'changed') list = change.list;
      else if (change.kind === 'reload') stale = true;
    }
    this.#deps.write(list);
    if (stale) this.reloadSoon();
  }
}
