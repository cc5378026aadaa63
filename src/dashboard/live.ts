/**
 * The dashboard's one WebSocket to `/api/v1/ws`, authenticated by the session cookie (same
 * origin; the server checks the Origin). Topics are (re)subscribed on every connect, so a
 * dropped network resumes by itself (backoff 0.5 s doubling to 10 s); a 1008 close (token
 * revoked) is final and reported as signed out.
 * @module
 */
import { decodeTerminalFrame, type TerminalFrame } from '../protocol/terminal-frame.js';
import { WS_PATH, WS_SUBPROTOCOL } from '../protocol/version.js';
import type { DaemonEvent } from '../protocol/events.js';
import type { ClientMessage, ServerMessage } from '../protocol/ws.js';

export type LiveStatus = 'connecting' | 'open' | 'closed' | 'signed-out';

export interface TopicHandler {
  /** `since` for the (re)subscription: e.g. the terminal's next byte seq. */
  since?: () => number | undefined;
  message(message: ServerMessage): void;
  terminal?(frame: TerminalFrame): void;
}

/** A subscription to a topic of daemon events (`sessions`, `session/<id>`, `transcript/<id>`). */
export interface EventTopicHandler {
  /**
   * The seq it starts after: the newest event what the page read reflects. Undefined replays the
   * whole kept history (up to 10,000 events, turns' text included) — on every reconnect too.
   */
  from: number | undefined;
  event(event: DaemonEvent): void;
  /** Each (re)subscription's acknowledgement: after a drop, what the replay cannot bring is read again. */
  subscribed?(): void;
}

const CLOSE_POLICY = 1008;

export class LiveConnection {
  readonly #topics = new Map<string, TopicHandler>();
  /** Listeners of the messages that belong to no topic (`hello`, `lease`, `ok`, `error`). */
  readonly #listeners = new Set<(message: ServerMessage) => void>();
  readonly #onStatus: (status: LiveStatus) => void;
  #socket: WebSocket | null = null;
  #retryMs = 500;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(onStatus: (status: LiveStatus) => void) {
    this.#onStatus = onStatus;
    this.#connect();
  }

  subscribe(topic: string, handler: TopicHandler): () => void {
    this.#topics.set(topic, handler);
    this.#sendSubscribe(topic, handler);
    return () => {
      if (this.#topics.get(topic) !== handler) return;
      this.#topics.delete(topic);
      this.send({ type: 'unsubscribe', topic });
    };
  }

  /**
   * Subscribes to an event topic from `handler.from`, and after a drop resumes after the newest
   * event it delivered, so a reconnect brings what was missed and nothing twice.
   */
  subscribeEvents(topic: string, handler: EventTopicHandler): () => void {
    let newest = handler.from;
    return this.subscribe(topic, {
      since: () => newest,
      message: (message) => {
        if (message.type === 'subscribed') return handler.subscribed?.();
        if (message.type !== 'event') return;
        if (newest === undefined || message.event.seq > newest) newest = message.event.seq;
        handler.event(message.event);
      },
    });
  }

  /** Listens to the messages outside any topic (`hello` on each connect, `lease`, errors). */
  listen(listener: (message: ServerMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  /** Re-subscribes `topic` from its handler's `since` (after a gap in a terminal stream). */
  resubscribe(topic: string): void {
    const handler = this.#topics.get(topic);
    if (!handler) return;
    this.send({ type: 'unsubscribe', topic });
    this.#sendSubscribe(topic, handler);
  }

  send(message: ClientMessage): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message));
  }

  /** Drops the socket as a network failure would (tests, and "reconnect now"). */
  drop(): void {
    this.#socket?.close(4000, 'dropped by the client');
  }

  close(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#socket?.close(1000, 'page closed');
  }

  #sendSubscribe(topic: string, handler: TopicHandler): void {
    const since = handler.since?.();
    this.send(since === undefined ? { type: 'subscribe', topic } : { type: 'subscribe', topic, since });
  }

  #connect(): void {
    this.#onStatus('connecting');
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
    const socket = new WebSocket(url, [WS_SUBPROTOCOL]);
    socket.binaryType = 'arraybuffer';
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#retryMs = 500;
      this.#onStatus('open');
      for (const [topic, handler] of this.#topics) this.#sendSubscribe(topic, handler);
    });
    socket.addEventListener('message', (event) => this.#dispatch(event.data));
    socket.addEventListener('close', (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (this.#stopped) return;
      if (event.code === CLOSE_POLICY) return this.#onStatus('signed-out');
      this.#onStatus('closed');
      this.#timer = setTimeout(() => this.#connect(), this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, 10_000);
    });
  }

  #dispatch(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      const frame = decodeTerminalFrame(new Uint8Array(data));
      if (frame) this.#topics.get(`terminal/${frame.sessionId}`)?.terminal?.(frame);
      return;
    }
    let message: ServerMessage;
    try {
      message = JSON.parse(String(data)) as ServerMessage;
    } catch {
      return;
    }
    const topic = 'topic' in message ? message.topic : undefined;
    if (topic !== undefined) return this.#topics.get(topic)?.message(message);
    for (const listener of this.#listeners) listener(message);
    if (message.type === 'error') for (const handler of this.#topics.values()) handler.message(message);
  }
}
