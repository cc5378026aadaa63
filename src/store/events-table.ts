/**
 * The `events` table: the daemon's event stream (`DaemonEvent`s, the SSE and WebSocket resume
 * source) kept on disk, so a client that resumes with `Last-Event-ID` after a daemon restart gets
 * exactly what it missed. `seq` is an AUTOINCREMENT id: it only grows, across restarts and
 * across retention, and is never handed out twice.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { DaemonEvent } from '../protocol/index.js';

/** An event before the table numbers it. */
export type UnnumberedEvent = DaemonEvent extends infer E ? (E extends { seq: number } ? Omit<E, 'seq'> : never) : never;

interface EventRow { seq: number; payload: string }

/** Typed access to `events`. */
export class EventsTable {
  readonly #insert: Database.Statement;
  readonly #after: Database.Statement;
  readonly #afterInSession: Database.Statement;
  readonly #from: Database.Statement;
  readonly #last: Database.Statement;
  readonly #raise: Database.Statement;
  readonly #db: Database.Database;
  readonly #moving: Database.Statement;
  readonly #drop: Database.Statement;
  readonly #seed: Database.Statement;

  constructor(db: Database.Database) {
    this.#insert = db.prepare('INSERT INTO events (t, type, session_id, payload) VALUES (@t, @type, @session_id, @payload)');
    // The newest `limit` rows after `since`, oldest first: a client too far behind gets the most
    // recent history (and re-reads the session list for the rest), as a ring would give it.
    this.#after = db.prepare('SELECT seq, payload FROM (SELECT seq, payload FROM events WHERE seq > @since ORDER BY seq DESC LIMIT @limit) ORDER BY seq');
    this.#afterInSession = db.prepare(
      'SELECT seq, payload FROM (SELECT seq, payload FROM events WHERE session_id = @session_id AND seq > @since ORDER BY seq DESC LIMIT @limit) ORDER BY seq');
    // The oldest `limit` rows after `since`: a reader that must see every event in order (a fleet publisher).
    this.#from = db.prepare('SELECT seq, payload FROM events WHERE seq > @since ORDER BY seq LIMIT @limit');
    // sqlite_sequence remembers the highest seq ever handed out, even once retention deleted it.
    this.#last = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'");
    this.#db = db;
    this.#moving = db.prepare('SELECT seq, t, type, session_id, payload FROM events WHERE seq > @since ORDER BY seq');
    this.#drop = db.prepare('DELETE FROM events WHERE seq > @since AND seq <= @upTo');
    this.#raise = db.prepare("UPDATE sqlite_sequence SET seq = @seq WHERE name = 'events'");
    this.#seed = db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('events', @seq)");
  }

  /** Stores `event` and returns it with its seq. */
  append(event: UnnumberedEvent): DaemonEvent {
    const result = this.#insert.run({ t: event.at, type: event.type, session_id: event.session_id, payload: JSON.stringify(event) });
    return { ...event, seq: Number(result.lastInsertRowid) } as DaemonEvent;
  }

  /** Up to `limit` stored events with a seq above `since` (the newest ones), oldest first, optionally of one session. */
  after(since: number, options: { sessionId?: string; limit: number }): DaemonEvent[] {
    const rows = (options.sessionId === undefined
      ? this.#after.all({ since, limit: options.limit })
      : this.#afterInSession.all({ since, limit: options.limit, session_id: options.sessionId })) as EventRow[];
    return rows.map((row) => ({ ...(JSON.parse(row.payload) as object), seq: row.seq }) as DaemonEvent);
  }

  /** Up to `limit` stored events with a seq above `since` (the oldest ones), oldest first: a page of a reader that misses none. */
  from(since: number, limit: number): DaemonEvent[] {
    return (this.#from.all({ since, limit }) as EventRow[]).map((row) => ({ ...(JSON.parse(row.payload) as object), seq: row.seq }) as DaemonEvent);
  }

  /**
   * Numbers the next event after `seq` when this table has not handed that far out yet: a
   * journal made anew (the old one moved aside as corrupt) goes on from the seqs the fleet has
   * already seen of this node, so no new event takes an old one's number.
   */
  continueAfter(seq: number): void {
    if (this.lastSeq() >= seq) return;
    if (this.#raise.run({ seq }).changes === 0) this.#seed.run({ seq });
  }

  /**
   * Moves the events after `since` to seqs after `after` (none handed out yet), in order, in one
   * transaction; returns how many moved. A fleet node's new journal under an old name: its events
   * take seqs the fleet has not seen (EventPublisher.reconcile).
   */
  renumberAfter(since: number, after: number): number {
    return this.#db.transaction(() => {
      const rows = this.#moving.all({ since }) as Array<{ seq: number; t: number; type: string; session_id: string | null; payload: string }>;
      this.continueAfter(after);
      for (const row of rows) this.#insert.run({ t: row.t, type: row.type, session_id: row.session_id, payload: row.payload });
      this.#drop.run({ since, upTo: rows.at(-1)?.seq ?? since });
      return rows.length;
    })();
  }

  /** The highest seq ever handed out (0 before the first event). */
  lastSeq(): number {
    return (this.#last.get() as { seq: number } | undefined)?.seq ?? 0;
  }
}
