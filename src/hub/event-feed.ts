/**
 * The fleet's events into the hub's own event log: a **durable** JetStream consumer on the stream
 * `SPECTERM_EVENTS`, named for the hub, so a hub that stops and starts again resumes where it
 * stopped. Each event is appended to the hub's journal (SQLite) before it is acknowledged, and
 * gets the hub's own `seq` (what SSE's Last-Event-ID and the WebSocket's `since` count) while it
 * keeps `node` and its node's seq as `node_seq`.
 *
 * Many events are in flight at once (a round trip per event capped a hub behind a 20 ms link at
 * 50 events a second, fewer than 100 streaming agents make), yet none is overtaken: each time the
 * feed starts consuming it makes the consumer anew from its acknowledged floor, so what a stopped
 * hub was delivered and never stored comes first, in stream order — a node's events in its
 * order. Within one run the feed stores in delivery order, so a redelivery (the hub stalled past
 * the ack wait) is a repeat; a repeat is known by its `node_seq` (a node publishes in order) and
 * appended once.
 * @module
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventLog, DaemonEventInput } from '../daemon/event-log.js';
import { ensureEventsStream } from '../nats/node-link.js';
import { EVENTS_STREAM } from '../nats/subjects.js';
import { DaemonEvent } from '../protocol/index.js';

/** How long an event delivered to the hub may wait for its ack before it is delivered again (a hub that stalled). */
const ACK_WAIT_NS = 5 * 1e9;
/** Events delivered and not yet acknowledged, at most: what keeps a distant hub's link full. */
const MAX_ACK_PENDING = 1_000;

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
  /** The stream seq of the last event this run took (stored, or known as a repeat): 0 before any. */
  #taken = 0;
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
      let lost = false;
      try {
        current ??= await this.#consume();
        lost = await this.#takeAll(current);
        said = false;
      } catch (error) {
        if (!said && !this.#stopped) this.#o.log(`the event feed waits for JetStream (${(error as Error).message}); it resumes where it stopped`);
        said = true;
      }
      current = null;
      // A delivery lost in transit: the consumer is made anew at once, from the event after it.
      if (!this.#stopped && !lost) await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
    }
  }

  /**
   * Takes the deliveries in order until they end; true when one went missing (the consumer
   * numbers its deliveries, repeats included, so a gap is one lost on the way: a reconnect).
   * Anything later would overtake it and acknowledge it unseen, so the feed stops there.
   */
  async #takeAll(messages: ConsumerMessages): Promise<boolean> {
    let delivered = 0;
    for await (const m of messages) {
      const n = m.info.deliverySequence;
      if (delivered !== 0 && n !== delivered + 1) {
        if (this.#stopped) return false;
        this.#o.log(`a reconnect dropped events on their way to the hub; it reads them again from stream seq ${this.#taken + 1}`);
        // Not awaited: a close waits for the pull under way to expire (30 s); remaking the consumer ends it.
        void messages.close().catch(() => {});
        return true;
      }
      delivered = n;
      this.#take(m);
    }
    return false;
  }

  async #consume(): Promise<ConsumerMessages> {
    await ensureEventsStream(this.#nc);
    const durable = EventFeed.durableName(this.#o.hub);
    const jsm = await jetstreamManager(this.#nc);
    // Made anew from where it was acknowledged: the events delivered to a hub that stopped before
    // storing them wait for their ack wait to come again, and anything later would overtake them.
    // (After an outage in this run it knows better: from the event after the last it took.)
    const info = await jsm.consumers.info(EVENTS_STREAM, durable).catch(() => null);
    const after = Math.max(info?.ack_floor.stream_seq ?? 0, this.#taken);
    if (info) await jsm.consumers.delete(EVENTS_STREAM, durable);
    const start = after > 0 ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: after + 1 } : { deliver_policy: DeliverPolicy.All };
    await jsm.consumers.add(EVENTS_STREAM, { durable_name: durable, ack_policy: AckPolicy.All, max_ack_pending: MAX_ACK_PENDING, ack_wait: ACK_WAIT_NS, ...start });
    const consumer = await jetstream(this.#nc).consumers.get(EVENTS_STREAM, durable);
    this.#messages = await consumer.consume({ max_messages: 256 });
    if (this.#stopped) await this.#messages.close().catch(() => {});
    return this.#messages;
  }

  /** Stores one delivered event (unless its node_seq is stored already), then acknowledges it and all before it. */
  #take(m: JsMsg): void {
    const event = parseEvent(m.data);
    const node = event?.node ?? m.subject.split('.')[1]!;
    if (event && event.seq > (this.#seen.get(node) ?? 0)) {
      const { seq, ...rest } = event;
      this.#o.events.append({ ...rest, node, node_seq: seq } as DaemonEventInput);
      this.#seen.set(node, seq);
      this.#o.onEvent(node, event);
    } else if (!event) {
      this.#o.log(`an event on ${m.subject} is not one this hub reads (a newer node?); skipped`);
    }
    this.#taken = Math.max(this.#taken, m.seq);
    m.ack();
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
