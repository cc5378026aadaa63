/**
 * A node's topics served over NATS (the node side of ./remote-topic.ts; the wire is
 * ./topic-wire.ts): a request on `specterm.<node>.topics` opens a subscription through the SAME
 * executor as a WebSocket `subscribe` — authentication, scope and refusal codes alike — and the
 * topic's handler writes to a {@link PublishingSink} that publishes to the request's reply subject (one of the node's own delivery subjects, subjects.ts topicDeliverSubject)
 * with credit-based flow control. The subscriber's acks, keepalives, resyncs and close arrive on
 * `specterm.<node>.topic.<subscription>`; a subscription that hears nothing for its keepalive
 * time is disposed, so a subscriber that vanished (a hub that died) never leaks a viewer.
 *
 * Only terminal topics travel here: a node's events are on JetStream already (./event-publisher.ts).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { callerSessionOf } from '../ops/caller-session.js';
import type { RequestContext, TopicSubscription } from '../ops/contracts.js';
import type { Operations } from '../ops/executor.js';
import type { Principal } from '../ops/principal.js';
import { SpectermError } from '../protocol/index.js';
import { isTopicDeliverSubject, topicControlFilter, topicDeliverSubject, topicsSubject } from './subjects.js';
import { PublishingSink } from './topic-sink.js';
import { DEFAULT_KEEPALIVE_MS, MAX_KEEPALIVE_MS, MIN_KEEPALIVE_MS, type TopicControl, type TopicEnd } from './topic-wire.js';
import { refusalReply } from './wire-error.js';

export interface TopicBridgeOptions {
  nc: NatsConnection;
  node: string;
  operations: Operations;
  authenticate: (secret: string | undefined, address: string) => Principal | Promise<Principal>;
  onUnexpected: (error: unknown) => void;
  /** Subscriptions served at once (256, as one WebSocket connection may hold). */
  maxSubscriptions?: number;
  /** Unacknowledged bytes before a further send ends the subscription (4 MiB, as the WebSocket's backlog). */
  maxBacklogBytes?: number;
}

interface Bridged {
  ctx: RequestContext;
  sink: PublishingSink;
  sub: TopicSubscription | null;
  timer: NodeJS.Timeout;
}

const DEFAULT_MAX_SUBSCRIPTIONS = 256;
const DEFAULT_MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Room for the headers under NATS's max_payload. */
const HEADER_ROOM = 256;

export class TopicBridge {
  readonly #o: TopicBridgeOptions;
  readonly #subs = new Map<string, Bridged>();
  #listeners: Subscription[] = [];

  constructor(options: TopicBridgeOptions) {
    this.#o = options;
  }

  start(): void {
    const { nc, node } = this.#o;
    this.#listeners = [
      // An answer that cannot go out (the connection closed meanwhile) has nobody to reach.
      nc.subscribe(topicsSubject(node), { callback: (error, msg) => { if (!error) this.#open(msg).catch(() => {}); } }),
      nc.subscribe(topicControlFilter(node), { callback: (error, msg) => { if (!error) this.#control(msg); } }),
    ];
  }

  /** Subscriptions open now. */
  get size(): number {
    return this.#subs.size;
  }

  /** The context a subscription runs as, for an operation its own token makes about it (lease, resize). */
  contextOf(subscription: string, principal: Principal): RequestContext {
    const bridged = this.#subs.get(subscription);
    if (!bridged || bridged.ctx.principal.tokenId !== principal.tokenId) {
      throw new SpectermError({ code: 'NOT_SUBSCRIBED', detail: `no open subscription '${subscription.slice(0, 64)}' of this token on this node; open one on specterm.<node>.topics and name the id it answers` });
    }
    return bridged.ctx;
  }

  close(): void {
    for (const listener of this.#listeners) listener.unsubscribe();
    this.#listeners = [];
    for (const id of [...this.#subs.keys()]) this.#dispose(id, { code: 'NOT_SUBSCRIBED', detail: 'the node is shutting down; subscribe again once it is back' });
  }

  async #open(msg: Msg): Promise<void> {
    // Without an inbox there is nowhere to send the topic (nor a refusal).
    if (!msg.reply) return;
    const reply = msg.reply;
    let id: string | undefined;
    try {
      if (!isTopicDeliverSubject(this.#o.node, reply)) {
        throw new SpectermError({ code: 'VALIDATION_FAILED', detail: `open a topic with the reply subject ${topicDeliverSubject(this.#o.node, '<name>')} (a name of 8–64 letters, digits, _ or -) and listen on it first: a node streams only under its own subjects`, errors: [{ path: '/reply', code: 'invalid_subject', message: `the reply subject must be ${topicDeliverSubject(this.#o.node, '<name>')}` }] });
      }
      const request = parseOpenRequest(msg.data);
      const principal = await this.#o.authenticate(request.token, 'nats');
      const ctx: RequestContext = { principal, requestId: randomUUID(), remoteAddress: 'nats', via: 'nats', ...callerSessionOf(request.caller_session, '"caller_session"') };
      if (typeof request.message.topic === 'string' && !request.message.topic.startsWith('terminal/')) {
        throw new SpectermError({ code: 'TOPIC_UNAVAILABLE', detail: `only terminal topics ('terminal/<id>') are served over NATS; '${request.message.topic.slice(0, 80)}' is a node's events: read them from the JetStream stream SPECTERM_EVENTS (subjects specterm.<node>.events.<session>)` });
      }
      if (this.#subs.size >= (this.#o.maxSubscriptions ?? DEFAULT_MAX_SUBSCRIPTIONS)) {
        throw new SpectermError({ code: 'TOO_MANY_SUBSCRIPTIONS', detail: `this node already serves ${this.#subs.size} topic subscriptions over NATS; close one (a "close" on its subject) and retry` });
      }
      const subscription = randomUUID().replaceAll('-', '');
      id = subscription;
      const sink = new PublishingSink({
        publish: (data, headers) => {
          // Runs in the viewer's frame timer: a closed connection must not throw there (the link
          // that closes it disposes every subscription first).
          try { this.#o.nc.publish(reply, data, { headers }); } catch { /* closing */ }
        },
        maxPayload: Math.max(1024, (this.#o.nc.info?.max_payload ?? 1024 * 1024) - HEADER_ROOM),
        maxBacklogBytes: this.#o.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES,
        onTooSlow: () => queueMicrotask(() => this.#dispose(subscription, { code: 'SUBSCRIBER_TOO_SLOW', detail: 'over the unacknowledged bytes a subscriber may hold; subscribe again (a fresh snapshot) and ack what you render' })),
      });
      const timer = setTimeout(() => this.#dispose(subscription, { code: 'NOT_SUBSCRIBED', detail: `no keepalive for ${request.keepaliveMs} ms: the subscription was closed; subscribe again` }), request.keepaliveMs);
      timer.unref();
      const bridged: Bridged = { ctx, sink, sub: null, timer };
      // Registered before the handler runs: a refusal below removes it, and it counts toward the bound.
      this.#subs.set(subscription, bridged);
      bridged.sub = await this.#o.operations.open<TopicSubscription>('subscribeTopic', { body: request.message, label: `a NATS subscription to '${String(request.message.topic).slice(0, 80)}'` }, ctx, sink);
      if (!this.#subs.has(subscription)) {
        bridged.sub.dispose();
        throw new SpectermError({ code: 'NOT_SUBSCRIBED', detail: 'the subscription ended while it opened (the node is shutting down); subscribe again' });
      }
      msg.respond(JSON.stringify({ ok: true, subscription, keepalive_ms: request.keepaliveMs }));
      sink.release();
    } catch (error) {
      if (id !== undefined) this.#forget(id);
      msg.respond(refusalReply(error, this.#o.onUnexpected));
    }
  }

  #control(msg: Msg): void {
    const id = msg.subject.slice(msg.subject.lastIndexOf('.') + 1);
    const answer = (text: string) => { try { if (msg.reply) msg.respond(text); } catch { /* closing */ } };
    try {
      const bridged = this.#subs.get(id);
      if (!bridged) throw new SpectermError({ code: 'NOT_SUBSCRIBED', detail: `no open subscription '${id.slice(0, 64)}' on this node (closed, expired or the node restarted); subscribe again` });
      bridged.timer.refresh();
      const control = parseControl(msg.data);
      if (control.type === 'close') this.#dispose(id, null);
      else if (control.type === 'ack') this.#ack(id, bridged, control.bytes);
      else if (control.type === 'resync') this.#resync(id, bridged);
      answer(JSON.stringify({ ok: true }));
    } catch (error) {
      answer(refusalReply(error, this.#o.onUnexpected));
    }
  }

  /** Credit back first: the ack may let the viewer resync at once, and it checks `bufferedBytes`. */
  #ack(id: string, bridged: Bridged, seq: number): void {
    bridged.sink.ack(seq);
    if (bridged.sub?.ack?.(seq) === false) {
      this.#dispose(id, { code: 'ACK_BEYOND_SENT', detail: `ack of byte ${seq} is beyond what this subscription was sent; ack the seq after the last byte you rendered` });
    }
  }

  /**
   * The subscriber lost messages and drops whatever is still in flight: all of it is credit
   * back (first, so the snapshot the viewer takes sees the room), the viewer sends a fresh
   * snapshot, and the ack of everything lets a viewer that was behind catch up with one.
   */
  #resync(id: string, bridged: Bridged): void {
    const seq = bridged.sink.publishedSeq;
    bridged.sink.ack(seq);
    bridged.sub?.resync?.();
    this.#ack(id, bridged, seq);
  }

  /** Ends a subscription; `end` tells the subscriber why (none when it asked). */
  #dispose(id: string, end: TopicEnd | null): void {
    const bridged = this.#forget(id);
    if (!bridged) return;
    bridged.sub?.dispose();
    if (end) bridged.sink.end(end);
  }

  #forget(id: string): Bridged | undefined {
    const bridged = this.#subs.get(id);
    if (!bridged) return undefined;
    this.#subs.delete(id);
    clearTimeout(bridged.timer);
    return bridged;
  }
}

interface OpenRequest { token?: string; caller_session?: unknown; keepaliveMs: number; message: Record<string, unknown> }

/** The request's own fields; the rest is the WebSocket's subscribe message, which the executor validates. */
function parseOpenRequest(data: Uint8Array): OpenRequest {
  const value = parseObject(data, 'a NATS topic request is JSON {"token": "…", "topic": "terminal/<session id>", "since"?: <byte seq>}');
  const { token, caller_session, keepalive_ms, type: _type, ...message } = value;
  if (token !== undefined && typeof token !== 'string') {
    throw invalid('/token', '"token" must be a string: a device token of this node');
  }
  let keepaliveMs = DEFAULT_KEEPALIVE_MS;
  if (keepalive_ms !== undefined) {
    if (typeof keepalive_ms !== 'number' || !Number.isInteger(keepalive_ms) || keepalive_ms < MIN_KEEPALIVE_MS || keepalive_ms > MAX_KEEPALIVE_MS) {
      throw invalid('/keepalive_ms', `"keepalive_ms" is how long the node waits for a keepalive: a whole number of milliseconds from ${MIN_KEEPALIVE_MS} to ${MAX_KEEPALIVE_MS}`);
    }
    keepaliveMs = keepalive_ms;
  }
  return { token, caller_session, keepaliveMs, message: { type: 'subscribe', ...message } };
}

function parseControl(data: Uint8Array): TopicControl {
  const value = parseObject(data, 'a subscription\'s control message is JSON {"type": "ack" | "keepalive" | "resync" | "close", …}');
  switch (value.type) {
    case 'keepalive':
    case 'close':
    case 'resync':
      return { type: value.type };
    case 'ack':
      if (typeof value.bytes !== 'number' || !Number.isSafeInteger(value.bytes) || value.bytes < 0) throw invalid('/bytes', '"bytes" is the byte seq your client rendered up to: a whole number ≥ 0');
      return { type: 'ack', bytes: value.bytes as number };
    default:
      throw invalid('/type', '"type" must be "ack", "keepalive", "resync" or "close"');
  }
}

function parseObject(data: Uint8Array, shape: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(data));
  } catch {
    throw new SpectermError({ code: 'BODY_MALFORMED_JSON', detail: `the message is not JSON; ${shape}` });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SpectermError({ code: 'VALIDATION_FAILED', detail: `${shape}, not ${Array.isArray(value) ? 'an array' : String(value)}` });
  return value as Record<string, unknown>;
}

function invalid(path: string, message: string): SpectermError {
  return new SpectermError({ code: 'VALIDATION_FAILED', detail: message, errors: [{ path, code: 'invalid', message }] });
}
