/**
 * A node's events onto JetStream, in order, none lost, none twice. The daemon's event journal
 * (SQLite) is the queue: a cursor says up to which seq JetStream has acknowledged, and the
 * publisher pages through the journal after it whenever there is something new — so a node cut
 * off from NATS keeps working, and when NATS returns it catches up in order. Each event goes
 * with the message id `<node>.<seq>`: if the node dies between an ack and saving the cursor,
 * the republished events are stored once (the stream's duplicate window).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { writePrivateFile } from '../fs/private-file.js';
import type { DaemonEvent } from '../protocol/index.js';
import { eventMessageId, eventSubject } from './subjects.js';

/** Publishes one message and resolves once JetStream stored it; rejects when it could not. */
export type PublishFn = (subject: string, data: string, msgId: string) => Promise<void>;

export interface EventSource {
  page(since: number, limit: number): DaemonEvent[];
  /** Moves the events after `since` to seqs after `after` (EventLog.renumberAfter); how many moved. */
  renumberAfter(since: number, after: number): number;
  subscribe(listener: (event: DaemonEvent) => void): () => void;
  readonly lastSeq: number;
}

/** What identifies an event on the stream: its seq, and what no other journal's event of that seq shares. */
export interface PublishedEvent {
  seq: number;
  type?: unknown;
  at?: unknown;
  session_id?: unknown;
}

/** Whether a journal's event is the one the stream has under its seq (its type, session and time alike). */
function sameEvent(mine: DaemonEvent, theirs: PublishedEvent): boolean {
  const m = mine as PublishedEvent;
  return m.type === theirs.type && m.at === theirs.at && (m.session_id ?? null) === (theirs.session_id ?? null);
}

const PAGE = 200;
/**
 * How often a blocked publisher tries again by itself. A reconnect resumes it at once, but a
 * partition that heals before the client notices it (a silent one: nothing reset) brings no
 * reconnect, and an idle node no new event: without this, its backlog would wait for either.
 */
export const RETRY_MS = 500;

export class EventPublisher {
  readonly #node: string;
  readonly #events: EventSource;
  readonly #publish: PublishFn;
  readonly #cursorFile: string;
  readonly #log: (message: string) => void;
  #cursor: number;
  #draining = false;
  #again = false;
  #stopped = false;
  #unsubscribe: (() => void) | null = null;
  #retry: NodeJS.Timeout | null = null;
  readonly #retryMs: number;
  /** Why the last drain stopped short (NATS away), until a drain gets through again. */
  #blocked: string | null = null;

  constructor(options: { node: string; events: EventSource; publish: PublishFn; cursorFile: string; log: (message: string) => void; retryMs?: number }) {
    this.#retryMs = options.retryMs ?? RETRY_MS;
    this.#node = options.node;
    this.#events = options.events;
    this.#publish = options.publish;
    this.#cursorFile = options.cursorFile;
    this.#log = options.log;
    this.#cursor = readCursor(options.cursorFile);
    // The daemon numbers a journal made anew after this cursor (serve: continueAfter), so this is
    // a journal from elsewhere: it is published from its start.
    if (this.#cursor > this.#events.lastSeq) this.#cursor = 0;
  }

  /** The last seq JetStream acknowledged. */
  get cursor(): number {
    return this.#cursor;
  }

  /** Events not yet on JetStream. */
  get backlog(): number {
    return Math.max(0, this.#events.lastSeq - this.#cursor);
  }

  start(): void {
    this.#unsubscribe = this.#events.subscribe(() => this.kick());
    this.kick();
  }

  /**
   * Squares the journal with the last event the fleet's stream has of this node ('none': no
   * event; null: unknown). The journal that published it holds it: its cursor reaches that far,
   * or its event of that seq is the same event (a cursor saved late is caught up by message id).
   * Any other journal is new under an old name — the state dir made anew — however far it
   * reaches, and its seqs would be taken for events the fleet has (JetStream drops a repeated
   * message id, the hub skips a seq it has passed): what it holds after the cursor is renumbered
   * after the stream's last, and the cursor moves there.
   */
  reconcile(last: PublishedEvent | 'none' | null): void {
    if (last === null || last === 'none' || last.seq <= this.#cursor) return;
    const [mine] = this.#events.page(last.seq - 1, 1);
    if (mine && mine.seq === last.seq && sameEvent(mine, last)) return;
    const reaches = this.#events.lastSeq;
    const moved = this.#events.renumberAfter(this.#cursor, last.seq);
    const why = reaches < last.seq ? `its journal reaches ${reaches}` : `its event ${last.seq} is not the one the stream has`;
    this.#log(`the fleet's stream has events of this node up to ${last.seq} but ${why}: its state dir is new under an old name. Its events number on after ${last.seq}${moved ? ` (${moved} waiting were renumbered)` : ''}`);
    this.#cursor = last.seq;
    writePrivateFile(this.#cursorFile, JSON.stringify({ seq: this.#cursor }) + '\n');
  }

  /** Publishes what is new; called on every event and when NATS comes back. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#draining) { this.#again = true; return; }
    this.#draining = true;
    void this.#drain().finally(() => {
      this.#draining = false;
      if (this.#again && !this.#blocked) { this.#again = false; this.kick(); }
    });
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#unsubscribe?.();
  }

  async #drain(): Promise<void> {
    for (;;) {
      const page = this.#events.page(this.#cursor, PAGE);
      if (page.length === 0 || this.#stopped) return;
      // A page goes out at once and its acks are awaited after: one round trip a page, not one an
      // event (a node catching up after an outage has thousands). The publishes leave in call
      // order on the one connection, so the stream keeps the journal's order; the cursor moves
      // through the acknowledged prefix only, and anything after a failure is sent again (its
      // message id makes a copy JetStream already stored count once).
      // An event journaled before the node was linked (or under another name) is stamped with
      // the name it goes out under, as its subject is.
      const acks = page.map((event) => this.#publish(eventSubject(this.#node, event.session_id), JSON.stringify(event.node === this.#node ? event : { ...event, node: this.#node }), eventMessageId(this.#node, event.seq))
        .then(() => null, (error: unknown) => error as Error));
      for (const [i, event] of page.entries()) {
        const failed = await acks[i];
        if (failed) {
          if (this.#blocked === null) this.#log(`events wait for NATS (${failed.message}); ${this.backlog} to publish when it returns`);
          this.#blocked = failed.message;
          this.#retryLater();
          return;
        }
        this.#cursor = event.seq;
      }
      if (this.#blocked !== null) { this.#log('NATS is back: published what was waiting'); this.#blocked = null; }
      writePrivateFile(this.#cursorFile, JSON.stringify({ seq: this.#cursor }) + '\n');
    }
  }

  #retryLater(): void {
    if (this.#retry || this.#stopped) return;
    this.#retry = setTimeout(() => { this.#retry = null; this.kick(); }, this.#retryMs);
    this.#retry.unref();
  }

  /** Lets the next kick try again after a failure (NATS reconnected). */
  resume(): void {
    this.#blocked = null;
    this.kick();
  }
}

/** The publisher's cursor file in a node's state dir. */
export const PUBLISHED_CURSOR_FILE = 'nats-published.json';

/** The last seq of this node JetStream acknowledged, as its cursor file says (0: none). */
export function publishedCursor(stateDir: string): number {
  return readCursor(path.join(stateDir, PUBLISHED_CURSOR_FILE));
}

function readCursor(file: string): number {
  try {
    const seq = (JSON.parse(fs.readFileSync(file, 'utf8')) as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
  } catch {
    return 0;
  }
}
