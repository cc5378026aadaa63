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

export class EventFeed {
  readonly #messages: ConsumerMessages;

  private constructor(messages: ConsumerMessages) {
    this.#messages = messages;
  }

  /** The consumer's name for a hub. */
  static durableName(hub: string): string {
    return `specterm-hub-${hub}`;
  }

  static async start(nc: NatsConnection, options: { hub: string; events: EventLog; onEvent: (node: string, event: DaemonEvent) => void; log: (message: string) => void }): Promise<EventFeed> {
    await ensureEventsStream(nc);
    const durable = EventFeed.durableName(options.hub);
    const jsm = await jetstreamManager(nc);
    // One event in flight at a time: an event delivered to a hub that died before storing it is
    // delivered again (after ACK_WAIT) before any later one, so none is overtaken and skipped.
    const config = { ack_policy: AckPolicy.Explicit, max_ack_pending: 1, ack_wait: ACK_WAIT_NS };
    try {
      const info = await jsm.consumers.info(EVENTS_STREAM, durable);
      if (info.config.max_ack_pending !== 1 || info.config.ack_wait !== ACK_WAIT_NS) await jsm.consumers.update(EVENTS_STREAM, durable, config);
    } catch {
      await jsm.consumers.add(EVENTS_STREAM, { durable_name: durable, deliver_policy: DeliverPolicy.All, ...config });
    }
    const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, durable);
    const seen = lastSeqByNode(options.events);
    const messages = await consumer.consume({ max_messages: 64 });
    void (async () => {
      for await (const m of messages) {
        const event = parseEvent(m.data);
        const node = event?.node ?? m.subject.split('.')[1]!;
        if (event && event.seq > (seen.get(node) ?? 0)) {
          const { seq, ...rest } = event;
          options.events.append({ ...rest, node, node_seq: seq } as DaemonEventInput);
          seen.set(node, seq);
          options.onEvent(node, event);
        } else if (!event) {
          options.log(`an event on ${m.subject} is not one this hub reads (a newer node?); skipped`);
        }
        m.ack();
      }
    })().catch((error: unknown) => options.log(`the event feed stopped: ${(error as Error).message}`));
    return new EventFeed(messages);
  }

  async stop(): Promise<void> {
    await this.#messages.close().catch(() => {});
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
