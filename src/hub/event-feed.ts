/**
 * The fleet's events into the hub's own event log: a **durable** JetStream consumer on the stream
 * `SPECTERM_EVENTS`, named for the hub, so a hub that stops and starts again resumes where it
 * stopped. Each event is appended to the hub's journal (SQLite) before it is acknowledged, and
 * gets the hub's own `seq` (what SSE's Last-Event-ID and the WebSocket's `since` count) while it
 * keeps `node` and its node's seq as `node_seq`. One event is in flight at a time, so one a
 * stopped hub never stored comes again before any later one; an event delivered again after it
 * was stored (the hub stopped between the append and the ack) is known by its `node_seq` — a
 * node publishes in order — and appended once.
 * @module
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventLog, DaemonEventInput } from '../daemon/event-log.js';
import { ensureEventsStream } from '../nats/node-link.js';
import { EVENTS_STREAM } from '../nats/subjects.js';
import { DaemonEvent } from '../protocol/index.js';

/** How long an event delivered to the hub may wait for its ack before it is delivered again (a hub that stopped). */
const ACK_WAIT_NS = 5 * 1e9;

/** How far back in its journal the hub looks for each node's last event at start (far beyond any unacknowledged window). */
const TAIL_EVENTS = 10_000;

export interface EventFeedOptions {
  hub: string;
  events: EventLog;
  onEvent: (node: string, event: DaemonEvent) => void;
  log: (message: string) => void;
}

/** How long the feed waits before it consumes again after NATS (or JetStream) went away under it. */
const RETRY_MS = 1_000;

export class EventFeed {
  readonly #nc: NatsConnection;
  readonly #o: EventFeedOptions;
  readonly #seen: Map<string, number>;
  #messages: ConsumerMessages | null = null;
  #stopped = false;
  #running: Promise<void> = Promise.resolve();

  private constructor(nc: NatsConnection, options: EventFeedOptions) {
    this.#nc = nc;
    this.#o = options;
    this.#seen = lastSeqByNode(options.events);
  }

  /** The consumer's name for a hub. */
  static durableName(hub: string): string {
    return `specterm-hub-${hub}`;
  }

  /** Sets the consumer up (the first time must succeed) and consumes until stopped, again and again across outages. */
  static async start(nc: NatsConnection, options: EventFeedOptions): Promise<EventFeed> {
    const feed = new EventFeed(nc, options);
    const first = await feed.#consume();
    feed.#running = feed.#run(first);
    return feed;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#messages?.close().catch(() => {});
    await this.#running;
  }

  /**
   * Reads until the iterator ends; it ends (or fails) when NATS restarts under it (JetStream not
   * ready yet, the pull lost), so the feed consumes again after a moment until it is stopped.
   */
  async #run(messages: ConsumerMessages): Promise<void> {
    let current: ConsumerMessages | null = messages;
    let said = false;
    while (!this.#stopped) {
      try {
        current ??= await this.#consume();
        for await (const m of current) this.#take(m.subject, m.data, () => m.ack());
        said = false;
      } catch (error) {
        if (!said && !this.#stopped) this.#o.log(`the event feed waits for JetStream (${(error as Error).message}); it resumes where it stopped`);
        said = true;
      }
      current = null;
      if (!this.#stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
    }
  }

  async #consume(): Promise<ConsumerMessages> {
    await ensureEventsStream(this.#nc);
    const durable = EventFeed.durableName(this.#o.hub);
    const jsm = await jetstreamManager(this.#nc);
    // One event in flight at a time: an event delivered to a hub that died before storing it is
    // delivered again (after ACK_WAIT) before any later one, so none is overtaken and skipped.
    const config = { ack_policy: AckPolicy.Explicit, max_ack_pending: 1, ack_wait: ACK_WAIT_NS };
    try {
      const info = await jsm.consumers.info(EVENTS_STREAM, durable);
      if (info.config.max_ack_pending !== 1 || info.config.ack_wait !== ACK_WAIT_NS) await jsm.consumers.update(EVENTS_STREAM, durable, config);
    } catch {
      await jsm.consumers.add(EVENTS_STREAM, { durable_name: durable, deliver_policy: DeliverPolicy.All, ...config });
    }
    const consumer = await jetstream(this.#nc).consumers.get(EVENTS_STREAM, durable);
    this.#messages = await consumer.consume({ max_messages: 64 });
    if (this.#stopped) await this.#messages.close().catch(() => {});
    return this.#messages;
  }

  /** Stores one delivered event (unless its node_seq is stored already), then acknowledges it. */
  #take(subject: string, data: Uint8Array, ack: () => void): void {
    const event = parseEvent(data);
    const node = event?.node ?? subject.split('.')[1]!;
    if (event && event.seq > (this.#seen.get(node) ?? 0)) {
      const { seq, ...rest } = event;
      this.#o.events.append({ ...rest, node, node_seq: seq } as DaemonEventInput);
      this.#seen.set(node, seq);
      this.#o.onEvent(node, event);
    } else if (!event) {
      this.#o.log(`an event on ${subject} is not one this hub reads (a newer node?); skipped`);
    }
    ack();
  }
}

/** Each node's last event in the hub's journal (its `node_seq`). */
function lastSeqByNode(events: EventLog): Map<string, number> {
  const seen = new Map<string, number>();
  let since = Math.max(0, events.lastSeq - TAIL_EVENTS);
  for (let page = events.page(since, 500); page.length > 0; page = events.page(since, 500)) {
    for (const e of page) if (e.node !== undefined && e.node_seq !== undefined) seen.set(e.node, Math.max(seen.get(e.node) ?? 0, e.node_seq));
    since = page.at(-1)!.seq;
  }
  return seen;
}

function parseEvent(data: Uint8Array): DaemonEvent | null {
  try {
    const checked = DaemonEvent.safeParse(JSON.parse(new TextDecoder().decode(data)));
    return checked.success ? checked.data : null;
  } catch {
    return null;
  }
}
