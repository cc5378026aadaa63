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
import { writePrivateFile } from '../fs/private-file.js';
import type { DaemonEvent } from '../protocol/index.js';
import { eventMessageId, eventSubject } from './subjects.js';

/** Publishes one message and resolves once JetStream stored it; rejects when it could not. */
export type PublishFn = (subject: string, data: string, msgId: string) => Promise<void>;

export interface EventSource {
  page(since: number, limit: number): DaemonEvent[];
  subscribe(listener: (event: DaemonEvent) => void): () => void;
  readonly lastSeq: number;
}

const PAGE = 200;
/** How soon a publish that failed is tried again (NATS back but JetStream still recovering answers a timeout). */
const RETRY_MS = 2_000;

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
  /** Why the last drain stopped short (NATS away), until a drain gets through again. */
  #blocked: string | null = null;
  #retry: NodeJS.Timeout | null = null;

  constructor(options: { node: string; events: EventSource; publish: PublishFn; cursorFile: string; log: (message: string) => void }) {
    this.#node = options.node;
    this.#events = options.events;
    this.#publish = options.publish;
    this.#cursorFile = options.cursorFile;
    this.#log = options.log;
    this.#cursor = readCursor(options.cursorFile);
    // A journal that numbers from scratch (moved aside as corrupt) is published from its start.
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
    this.#unsubscribe?.();
    if (this.#retry) clearTimeout(this.#retry);
  }

  async #drain(): Promise<void> {
    for (;;) {
      const page = this.#events.page(this.#cursor, PAGE);
      if (page.length === 0 || this.#stopped) return;
      for (const event of page) {
        try {
          await this.#publish(eventSubject(this.#node, event.session_id), JSON.stringify(event), eventMessageId(this.#node, event.seq));
        } catch (error) {
          if (this.#blocked === null) this.#log(`events wait for NATS (${(error as Error).message}); ${this.backlog} to publish when it returns`);
          this.#blocked = (error as Error).message;
          // A node with nothing new to say would otherwise wait for the next reconnect, which may never come.
          this.#retry ??= setTimeout(() => { this.#retry = null; this.kick(); }, RETRY_MS);
          this.#retry.unref?.();
          return;
        }
        this.#cursor = event.seq;
      }
      if (this.#blocked !== null) { this.#log('NATS is back: published what was waiting'); this.#blocked = null; }
      writePrivateFile(this.#cursorFile, JSON.stringify({ seq: this.#cursor }) + '\n');
    }
  }

  /** Lets the next kick try again after a failure (NATS reconnected). */
  resume(): void {
    this.#blocked = null;
    this.kick();
  }
}

function readCursor(file: string): number {
  try {
    const seq = (JSON.parse(fs.readFileSync(file, 'utf8')) as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
  } catch {
    return 0;
  }
}
