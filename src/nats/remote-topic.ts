/**
 * The subscriber side of terminals over NATS (the node side is ./topic-bridge.ts; the wire is
 * ./topic-wire.ts): a `WsHandlers['subscribe']` for `terminal/<id>` of sessions that live on
 * other nodes. It opens the subscription on the session's node with the caller's token and
 * hands the node's messages to the local sink in order — and never a torn stream: a lost
 * message or a jump in the byte seq stops the frames until the fresh snapshot it asks for.
 * The local client's acks go to the node (its credit); keepalives keep the subscription; a node
 * that forgot it (restarted, or ended it) gets a new one, starting with a snapshot — retried at
 * each keepalive tick while the node is away.
 * @module
 */
import { nuid, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { RequestContext, TopicSubscription, WsHandlers, WsSink } from '../ops/contracts.js';
import { decodeTerminalFrame, SpectermError, type ServerMessage, type TerminalFrame } from '../protocol/index.js';
import { topicControlSubject, topicDeliverSubject, topicsSubject } from './subjects.js';
import { DEFAULT_KEEPALIVE_MS, PayloadAssembler, type TopicControl, type TopicEnd, type TopicPayload } from './topic-wire.js';
import { refusalOf, type WireError } from './wire-error.js';

export interface RemoteTopicOptions {
  nc: NatsConnection;
  /** The node a session lives on; undefined when no node of the fleet has it. */
  nodeOf: (sessionId: string) => string | undefined;
  /** The token the node is asked with, for the local caller (a device token the fleet issued). */
  tokenOf: (ctx: RequestContext) => string | undefined;
  /** How long the node keeps a subscription that hears nothing (keepalives go three times as often). */
  keepaliveMs?: number;
  /** How long a node has to answer a subscription (10 s). */
  openTimeoutMs?: number;
}

/** A remote terminal subscription; `node` and `subscription` name it for the node's lease and resize (`subscription` in an ops request). */
export interface RemoteTopicSubscription extends TopicSubscription {
  readonly node: string;
  readonly subscription: string;
  ack(bytes: number): boolean;
}

type SubscribeMessage = Parameters<NonNullable<WsHandlers['subscribe']>>[0];

/** The subscribe handler for terminal topics of remote sessions. */
export function remoteTerminalTopics(options: RemoteTopicOptions): (message: SubscribeMessage, ctx: RequestContext, sink: WsSink) => Promise<RemoteTopicSubscription> {
  return async (message, ctx, sink) => {
    if (!message.topic.startsWith('terminal/')) {
      throw new SpectermError({ code: 'TOPIC_UNAVAILABLE', detail: `only terminal topics of other nodes travel over NATS, not '${message.topic}'; their events are on the JetStream stream SPECTERM_EVENTS` });
    }
    const sessionId = message.topic.slice('terminal/'.length);
    const node = options.nodeOf(sessionId);
    if (node === undefined) {
      throw new SpectermError({ code: 'TERMINAL_SESSION_NOT_FOUND', detail: `no node of the fleet has a session '${sessionId}'; the session list names each session's node`, errors: [{ path: '/topic', code: 'TERMINAL_SESSION_NOT_FOUND', message: `unknown session '${sessionId}'` }] });
    }
    const remote = new RemoteTerminal(options, node, message, ctx, sink);
    await remote.open(message.since);
    return remote;
  };
}

class RemoteTerminal implements RemoteTopicSubscription {
  readonly node: string;
  readonly #o: RemoteTopicOptions;
  readonly #topic: string;
  readonly #sink: WsSink;
  readonly #request: { token?: string; caller_session?: string; keepalive_ms: number };
  readonly #keepaliveMs: number;
  #inbox: Subscription | null = null;
  #assembler = new PayloadAssembler();
  #id = '';
  /** Seq of the next byte the sink may get; null while a snapshot is awaited (a gap, a new subscription). */
  #next: number | null = null;
  /** The highest seq the local client may ack: the end of what it was given. */
  #ackable = 0;
  #timer: NodeJS.Timeout | null = null;
  #reopening = false;
  /** The node could not be reached for a new subscription: each keepalive tick tries again. */
  #orphaned = false;
  #closed = false;

  constructor(options: RemoteTopicOptions, node: string, message: SubscribeMessage, ctx: RequestContext, sink: WsSink) {
    this.#o = options;
    this.node = node;
    this.#topic = message.topic;
    this.#sink = sink;
    this.#keepaliveMs = options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
    this.#request = { token: options.tokenOf(ctx), caller_session: ctx.callerSession, keepalive_ms: this.#keepaliveMs };
  }

  get subscription(): string {
    return this.#id;
  }

  /** Opens the subscription on the node (resuming after `since` when it still holds those bytes); rejects with the node's refusal. */
  async open(since: number | undefined): Promise<void> {
    this.#next = since ?? null;
    this.#ackable = Math.max(this.#ackable, since ?? 0);
    const inbox = topicDeliverSubject(this.node, nuid.next());
    const assembler = new PayloadAssembler();
    let answer!: (msg: Msg) => void;
    const answered = new Promise<Msg>((resolve) => { answer = resolve; });
    let first = true;
    const sub = this.#o.nc.subscribe(inbox, {
      callback: (error, msg) => {
        if (error || sub !== this.#inbox) return;
        if (first) { first = false; answer(msg); return; }
        this.#onMessage(msg);
      },
    });
    this.#inbox?.unsubscribe();
    this.#inbox = sub;
    this.#assembler = assembler;
    const request = { ...this.#request, topic: this.#topic, ...(since === undefined ? {} : { since }) };
    this.#o.nc.publish(topicsSubject(this.node), JSON.stringify(request), { reply: inbox });
    const timeoutMs = this.#o.openTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const reply = await Promise.race([answered, new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), timeoutMs); })]);
    clearTimeout(timer);
    try {
      this.#id = this.#readAnswer(reply, timeoutMs);
    } catch (error) {
      if (this.#inbox === sub) { sub.unsubscribe(); this.#inbox = null; }
      throw error;
    }
    this.#timer ??= setInterval(() => void this.#keepalive(), Math.max(250, Math.floor(this.#keepaliveMs / 3)));
    this.#timer.unref();
  }

  ack(bytes: number): boolean {
    if (bytes > this.#ackable) return false;
    this.#control({ type: 'ack', bytes });
    return true;
  }

  dispose(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#control({ type: 'close' });
    this.#inbox?.unsubscribe();
    this.#inbox = null;
  }

  #readAnswer(reply: Msg | null, timeoutMs: number): string {
    const unreachable = (why: string) => new SpectermError({ code: 'NODE_UNREACHABLE', detail: `node '${this.node}' ${why}; check that it runs with --nats and that its presence record is fresh` });
    if (reply === null) throw unreachable(`did not answer within ${timeoutMs / 1000} s`);
    if (reply.headers?.code === 503) throw unreachable('is not linked to NATS (nothing listens for its topics)');
    let answer: { ok?: unknown; subscription?: unknown; error?: Partial<WireError> };
    try { answer = reply.json(); } catch { throw unreachable('answered something that is not JSON'); }
    if (answer.ok !== true) throw refusalOf(answer.error, this.node);
    if (typeof answer.subscription !== 'string') throw unreachable('answered without a subscription id');
    return answer.subscription;
  }

  #onMessage(msg: Msg): void {
    const payload = this.#assembler.take(msg);
    if (payload === 'gap') return this.#resync();
    if (payload === null || this.#closed) return;
    try {
      this.#deliver(payload);
    } catch {
      // A payload that does not decode is as good as lost.
      this.#resync();
    }
  }

  #deliver(payload: TopicPayload): void {
    if (payload.kind === 'frame') {
      const frame = decodeTerminalFrame(payload.data);
      if (!frame) return this.#resync();
      return this.#frame(frame);
    }
    const value: unknown = JSON.parse(new TextDecoder().decode(payload.data));
    if (payload.kind === 'end') return void this.#ended(value as TopicEnd);
    const message = value as ServerMessage;
    if (message.type === 'snapshot') {
      this.#next = message.seq;
      this.#ackable = Math.max(this.#ackable, message.seq);
    }
    this.#sink.send(message);
  }

  /** Bytes after the last ones given, in order: a jump means bytes were lost. */
  #frame(frame: TerminalFrame): void {
    if (this.#next === null) return; // dropped until the snapshot comes
    const end = frame.seq + frame.data.length;
    if (frame.seq > this.#next) return this.#resync();
    if (end <= this.#next) return;
    const data = frame.seq < this.#next ? frame.data.subarray(this.#next - frame.seq) : frame.data;
    this.#sink.sendTerminal({ sessionId: frame.sessionId, seq: this.#next, data });
    this.#next = end;
    this.#ackable = Math.max(this.#ackable, end);
  }

  /** Stops the frames and asks the node for a fresh snapshot (again on each gap: the snapshot itself may be what was lost). */
  #resync(): void {
    this.#next = null;
    this.#control({ type: 'resync' });
  }

  /** The node ended the subscription: a new one (a fresh snapshot), unless the node says this side broke the protocol. */
  async #ended(end: TopicEnd): Promise<void> {
    if (end.code === 'ACK_BEYOND_SENT') return this.#fail(refusalOf({ code: end.code, detail: end.detail }, this.node));
    await this.#reopen();
  }

  async #keepalive(): Promise<void> {
    if (this.#closed || this.#reopening) return;
    if (this.#orphaned) return this.#reopen();
    let answer: { ok?: unknown; error?: { code?: unknown } };
    try {
      const reply = await this.#o.nc.request(topicControlSubject(this.node, this.#id), JSON.stringify({ type: 'keepalive' }), { timeout: Math.max(250, Math.floor(this.#keepaliveMs / 3)) });
      answer = reply.json();
    } catch {
      return; // the node (or NATS) is away: the next keepalive asks again
    }
    if (answer.ok !== true && answer.error?.code === 'NOT_SUBSCRIBED') await this.#reopen();
  }

  async #reopen(): Promise<void> {
    if (this.#closed || this.#reopening) return;
    this.#reopening = true;
    try {
      await this.open(undefined);
      this.#orphaned = false;
    } catch (error) {
      // A node restarting ends its subscriptions and is away for a moment: wait for it.
      if (error instanceof SpectermError && error.code === 'NODE_UNREACHABLE') this.#orphaned = true;
      else this.#fail(error instanceof SpectermError ? error : refusalOf(undefined, this.node));
    } finally {
      this.#reopening = false;
    }
  }

  /** The subscription cannot go on: the local client is told (it may subscribe again). */
  #fail(error: SpectermError): void {
    if (this.#closed) return;
    this.#sink.send({ type: 'error', code: error.code, message: `terminal of node '${this.node}': ${error.message}`, errors: error.errors });
    this.dispose();
  }

  #control(control: TopicControl): void {
    if (!this.#id) return;
    try {
      this.#o.nc.publish(topicControlSubject(this.node, this.#id), JSON.stringify(control));
    } catch {
      // NATS closed: nothing to tell the node, whose keepalive time then ends the subscription.
    }
  }
}
