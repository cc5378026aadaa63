/**
 * `specterm serve --nats <url>`: the node's link to a fleet. It publishes the node's events to
 * JetStream (./event-publisher.ts), keeps the node's presence record in a KV bucket (node,
 * version, sessions with their states, when), and answers operations by request/reply through
 * the operations layer (./ops-service.ts), and serves terminal topics with flow control
 * (./topic-bridge.ts). NATS going away never stops the node: it keeps
 * serving locally, and the link reconnects for as long as the daemon runs, then catches up.
 * @module
 */
import path from 'node:path';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type Authenticator, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { Operations } from '../ops/executor.js';
import type { Principal } from '../ops/principal.js';
import type { SessionDetail } from '../protocol/index.js';
import { EventPublisher, type PublishedEvent, PUBLISHED_CURSOR_FILE, type EventSource } from './event-publisher.js';
import { FleetTokens } from './fleet-tokens.js';
import { answerOpsRequest } from './ops-service.js';
import { redactUrl } from './servers.js';
import { EVENTS_STREAM, eventsFilter, inboxPrefixOf, lastEventSubject, opsSubject, PRESENCE_BUCKET } from './subjects.js';
import { TopicBridge } from './topic-bridge.js';

export { redactUrl };

/** How long JetStream remembers a message id (a republished event within it is stored once). */
const DUPLICATE_WINDOW_NS = 60 * 60 * 1e9;
/** The presence record is refreshed at least this often (a record older than 3× is a lost node). */
export const PRESENCE_EVERY_MS = 10_000;

export interface NodeLinkOptions {
  /** The server's URL, or a cluster's servers separated by commas. */
  url: string;
  node: string;
  version: string;
  stateDir: string;
  authenticator?: Authenticator;
  operations: Operations;
  authenticate: (secret: string | undefined, address: string) => Principal;
  events: EventSource;
  sessions: () => SessionDetail[];
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** What the presence bucket holds for a node. */
export interface PresenceRecord {
  node: string;
  version: string;
  at: number;
  sessions: Array<{ id: string; name: string | null; lifecycle: string; state: string | null; status: string | null; waiting: boolean }>;
  /** Events this node has not published yet (it was cut off). */
  backlog: number;
}

export class NodeLink {
  readonly #o: NodeLinkOptions;
  readonly #nc: NatsConnection;
  readonly #publisher: EventPublisher;
  #kv: KV | null = null;
  #fleetTokens: FleetTokens | null = null;
  #ops: Subscription | null = null;
  #topics: TopicBridge | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  private constructor(options: NodeLinkOptions, nc: NatsConnection, js: JetStreamClient) {
    this.#o = options;
    this.#nc = nc;
    this.#publisher = new EventPublisher({
      node: options.node, events: options.events, cursorFile: path.join(options.stateDir, PUBLISHED_CURSOR_FILE),
      publish: async (subject, data, msgID) => { await js.publish(subject, data, { msgID, timeout: 5_000 }); },
      log: (message) => options.log('warn', `nats: ${message}`),
    });
  }

  /** Connects (retrying for as long as it takes once connected), sets the stream and the bucket up, and starts serving. */
  static async start(options: NodeLinkOptions): Promise<NodeLink> {
    const nc = await connect({
      servers: options.url.split(','), name: `specterm-node-${options.node}`,
      // Replies to the node's own requests come to inboxes only it may read (docs/fleet.md, permissions).
      inboxPrefix: inboxPrefixOf(options.node), authenticator: options.authenticator,
      maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: false,
      // A silent partition (nothing reset) is noticed after three unanswered pings, not the default's four minutes.
      pingInterval: 10_000, maxPingOut: 3,
    });
    try {
      return await NodeLink.#linkOn(nc, options);
    } catch (error) {
      // A link that failed half-way (JetStream slow to answer) leaves no connection behind to
      // reconnect forever beside the next attempt's.
      await nc.close().catch(() => {});
      throw error;
    }
  }

  static async #linkOn(nc: NatsConnection, options: NodeLinkOptions): Promise<NodeLink> {
    const replicas = replicasFor(nc.info);
    await ensureEventsStream(nc, replicas);
    const link = new NodeLink(options, nc, jetstream(nc));
    link.#kv = await new Kvm(nc).create(PRESENCE_BUCKET, { history: 1, replicas });
    // A device token the fleet (its hub) issued works here with its scope, besides the node's own.
    const fleet = link.#fleetTokens = await FleetTokens.watch(nc);
    const authenticate = async (secret: string | undefined, address: string) => {
      try {
        return fleet.verify(secret) ?? options.authenticate(secret, address);
      } catch (error) {
        const late = await fleet.verifySoon(secret);
        if (late) return late;
        throw error;
      }
    };
    const onUnexpected = (e: unknown) => options.log('error', `nats: ${(e as Error)?.stack ?? String(e)}`);
    const topics = link.#topics = new TopicBridge({ nc, node: options.node, operations: options.operations, authenticate, onUnexpected });
    topics.start();
    link.#ops = nc.subscribe(opsSubject(options.node), {
      callback: (error, msg) => {
        if (error) return;
        void answerOpsRequest(msg.data, { operations: options.operations, authenticate, onUnexpected, subscriptionContext: (id, principal) => topics.contextOf(id, principal) })
          .then((reply) => msg.respond(reply));
      },
    });
    // A journal that does not hold the node's last event on the stream is new (the state dir
    // was made anew under an old name): it numbers on after that event before anything goes out.
    link.#publisher.reconcile(await lastPublishedEvent(nc, options.node));
    link.#publisher.start();
    link.#watchStatus();
    link.#timer = setInterval(() => void link.announce(), PRESENCE_EVERY_MS);
    link.#timer.unref();
    await link.announce();
    options.log('info', `nats: node ${options.node} linked to ${redactUrl(options.url)}`);
    return link;
  }

  /** Events published so far (the cursor) and still waiting. */
  get published(): { cursor: number; backlog: number } {
    return { cursor: this.#publisher.cursor, backlog: this.#publisher.backlog };
  }

  /** Writes the presence record now. */
  async announce(): Promise<void> {
    if (!this.#kv || this.#closed) return;
    const record: PresenceRecord = {
      node: this.#o.node, version: this.#o.version, at: Date.now(), backlog: this.#publisher.backlog,
      sessions: this.#o.sessions().map((s) => ({ id: s.id, name: s.name, lifecycle: s.lifecycle, state: s.state?.id ?? null, status: s.state?.status ?? null, waiting: s.modal !== null })),
    };
    try {
      await this.#kv.put(this.#o.node, JSON.stringify(record));
    } catch {
      // NATS is away: the next announce (or the reconnect) writes it.
    }
  }

  #watchStatus(): void {
    void (async () => {
      for await (const status of this.#nc.status()) {
        if (status.type === 'disconnect') this.#o.log('warn', 'nats: disconnected; the node keeps working and catches up when NATS returns');
        if (status.type === 'reconnect') {
          this.#o.log('info', 'nats: reconnected');
          this.#publisher.resume();
          void this.announce();
        }
      }
    })().catch(() => {});
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#publisher.stop();
    this.#ops?.unsubscribe();
    this.#topics?.close();
    this.#fleetTokens?.close();
    await this.#nc.close().catch(() => {});
  }
}

/**
 * How many copies JetStream keeps of what the node writes: three in a cluster of three or more
 * servers (any one may fail without losing an event or the stream's availability), else one.
 * An existing stream keeps what it was created with.
 */
export function replicasFor(info: { cluster?: string; connect_urls?: string[] } | undefined): number {
  return info?.cluster && (info.connect_urls?.length ?? 0) >= 3 ? 3 : 1;
}

/**
 * Makes the events stream when it is missing (a node or the hub, whoever links first), with
 * `replicas` copies and direct gets allowed (a node reads its own last event: lastPublishedEvent).
 * A stream made before direct gets is updated — by whoever may (the hub; a node's user may not).
 */
export async function ensureEventsStream(nc: NatsConnection, replicas = replicasFor(nc.info)): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const stream = { name: EVENTS_STREAM, subjects: [eventsFilter()], duplicate_window: DUPLICATE_WINDOW_NS, num_replicas: replicas, allow_direct: true };
  let info;
  try {
    info = await jsm.streams.info(EVENTS_STREAM);
  } catch {
    await jsm.streams.add(stream).catch(async () => { await jsm.streams.info(EVENTS_STREAM); });
    return;
  }
  if (!info.config.allow_direct) await jsm.streams.update(EVENTS_STREAM, { ...info.config, allow_direct: true }).catch(() => {});
}

/**
 * The last of `node`'s events JetStream holds ('none'), or null when it cannot say (no direct
 * gets on an older stream, not permitted, NATS slow, a payload that is not an event): what a
 * node tells its own journal by (EventPublisher.reconcile).
 */
export async function lastPublishedEvent(nc: NatsConnection, node: string): Promise<PublishedEvent | 'none' | null> {
  try {
    const reply = await nc.request(lastEventSubject(node), '', { timeout: 5_000 });
    if (reply.headers?.code === 404) return 'none';
    if (reply.headers?.code) return null;
    const event = JSON.parse(reply.string()) as Partial<PublishedEvent> | null;
    const seq = event?.seq;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? event as PublishedEvent : null;
  } catch {
    return null;
  }
}
