/**
 * The WebSocket connections after their upgrade was authorized: every client message is
 * validated by the protocol's schema (an invalid one gets an `error` message and the
 * connection stays; `maxInvalidMessages` of them close it with 1008), subscriptions are
 * owned per connection and disposed on close, and input, resize and lease are scope-checked;
 * `input` is rate-limited and audited like the HTTP keystroke routes.
 * @module
 */
import type { WebSocket } from 'ws';
import { ClientMessage, encodeTerminalFrame, PROTOCOL_VERSION, scopeAllows, type ServerMessage } from '../protocol/index.js';
import { forbiddenScope } from './auth.js';
import { parseJson } from './body.js';
import { ApiError, notImplemented } from './errors.js';
import type { AuditEntry, RequestContext, TopicSubscription, WsHandlers, WsSink } from './handlers.js';
import { takeOrRefuse, type RateLimiter } from './rate-limiter.js';
import { parseOrThrow } from './validate.js';

/** WebSocket close code for a policy violation (RFC 6455). */
const CLOSE_POLICY = 1008;

export interface WsHubOptions {
  handlers: WsHandlers;
  rateLimiter: RateLimiter;
  maxMessageBytes: number;
  /** Invalid messages tolerated per connection before it is closed (10). */
  maxInvalidMessages: number;
  /** Subscriptions per connection (256): bounds what one client can make the daemon hold. */
  maxSubscriptions: number;
  audit?: (entry: AuditEntry) => void;
  now: () => number;
  onUnexpected: (error: unknown) => void;
}

export class WsHub {
  readonly #options: WsHubOptions;
  /** Each open socket and the token it authenticated with. */
  readonly #sockets = new Map<WebSocket, string>();

  constructor(options: WsHubOptions) {
    this.#options = options;
  }

  /** Takes over an upgraded socket for `ctx`'s principal. */
  accept(socket: WebSocket, ctx: RequestContext): void {
    this.#sockets.set(socket, ctx.principal.tokenId);
    new Connection(socket, ctx, this.#options, () => this.#sockets.delete(socket));
  }

  /** Closes every connection (server shutdown). */
  closeAll(): void {
    for (const socket of this.#sockets.keys()) socket.close(1001, 'server shutting down');
  }

  /** Closes every connection of a revoked token: revocation must not wait for a reconnect. */
  closeToken(tokenId: string): void {
    for (const [socket, id] of this.#sockets) if (id === tokenId) socket.close(CLOSE_POLICY, 'token revoked');
  }
}

class Connection {
  readonly #socket: WebSocket;
  readonly #ctx: RequestContext;
  readonly #options: WsHubOptions;
  readonly #subscriptions = new Map<string, TopicSubscription | null>();
  readonly #sink: WsSink;
  #invalid = 0;
  #closed = false;

  constructor(socket: WebSocket, ctx: RequestContext, options: WsHubOptions, onClose: () => void) {
    this.#socket = socket;
    this.#ctx = ctx;
    this.#options = options;
    this.#sink = {
      send: (message) => this.#send(message),
      sendTerminal: (frame) => { if (!this.#closed) socket.send(encodeTerminalFrame(frame)); },
      get bufferedBytes() { return socket.bufferedAmount; },
    };
    socket.on('message', (data, isBinary) => {
      this.#onMessage(data as Buffer, isBinary).catch((error) => this.#options.onUnexpected(error));
    });
    socket.on('error', () => {}); // a protocol error (e.g. too big: 1009) closes the socket; 'close' cleans up
    socket.on('close', () => {
      this.#closed = true;
      for (const sub of this.#subscriptions.values()) sub?.dispose();
      this.#subscriptions.clear();
      onClose();
    });
    this.#send({ type: 'hello', protocol_version: PROTOCOL_VERSION, scope: ctx.principal.scope, max_message_bytes: options.maxMessageBytes });
  }

  #send(message: ServerMessage): void {
    if (!this.#closed) this.#socket.send(JSON.stringify(message));
  }

  async #onMessage(data: Buffer, isBinary: boolean): Promise<void> {
    let ref: string | undefined;
    try {
      if (isBinary) throw new ApiError({ status: 400, code: 'WS_BINARY_REFUSED', title: 'Binary frames are refused', detail: 'client messages are JSON text frames' });
      const raw = parseJson(data.toString('utf8'));
      if (raw && typeof raw === 'object' && typeof (raw as { ref?: unknown }).ref === 'string') ref = (raw as { ref: string }).ref.slice(0, 64);
      const message = parseOrThrow(ClientMessage, raw, 'message', 'WebSocket message');
      await this.#dispatch(message);
    } catch (error) {
      if (!(error instanceof ApiError)) this.#options.onUnexpected(error);
      const e = error instanceof ApiError ? error : new ApiError({ status: 500, code: 'INTERNAL', title: 'Internal error', detail: 'the server failed on this message; see the daemon log' });
      if (e.status < 500 && e.code !== 'RATE_LIMITED') this.#invalid += 1;
      this.#send({ type: 'error', ref, code: e.code, message: e.message, errors: e.errors });
      if (this.#invalid >= this.#options.maxInvalidMessages) this.#socket.close(CLOSE_POLICY, 'too many invalid messages');
    }
  }

  async #dispatch(message: ClientMessage): Promise<void> {
    const { handlers } = this.#options;
    switch (message.type) {
      case 'ping':
        return this.#send({ type: 'pong', ref: message.ref });
      case 'subscribe': {
        if (this.#subscriptions.has(message.topic)) throw new ApiError({ status: 409, code: 'ALREADY_SUBSCRIBED', title: 'Already subscribed', detail: `already subscribed to '${message.topic}'; unsubscribe first to resume from another seq` });
        if (this.#subscriptions.size >= this.#options.maxSubscriptions) throw new ApiError({ status: 429, code: 'TOO_MANY_SUBSCRIPTIONS', title: 'Too many subscriptions', detail: `at most ${this.#options.maxSubscriptions} subscriptions per connection` });
        if (!handlers.subscribe) throw new ApiError({ status: 404, code: 'TOPIC_UNAVAILABLE', title: 'Unknown topic', detail: `topic '${message.topic}' is not served by this daemon` });
        this.#subscriptions.set(message.topic, null); // reserved while the handler runs
        try {
          const sub = await handlers.subscribe(message, this.#ctx, this.#sink);
          if (this.#closed || !this.#subscriptions.has(message.topic)) return sub.dispose();
          this.#subscriptions.set(message.topic, sub);
        } catch (error) {
          this.#subscriptions.delete(message.topic);
          throw error;
        }
        return this.#send({ type: 'subscribed', ref: message.ref, topic: message.topic });
      }
      case 'unsubscribe': {
        if (!this.#subscriptions.has(message.topic)) throw new ApiError({ status: 404, code: 'NOT_SUBSCRIBED', title: 'Not subscribed', detail: `not subscribed to '${message.topic}'` });
        this.#subscriptions.get(message.topic)?.dispose();
        this.#subscriptions.delete(message.topic);
        return this.#send({ type: 'unsubscribed', ref: message.ref, topic: message.topic });
      }
      case 'ack': {
        const sub = this.#subscriptions.get(message.topic);
        if (sub === undefined) throw new ApiError({ status: 404, code: 'NOT_SUBSCRIBED', title: 'Not subscribed', detail: `ack for '${message.topic}', which this connection does not subscribe to` });
        return sub?.ack?.(message.bytes);
      }
      case 'input':
      case 'resize':
      case 'lease':
        return this.#command(message);
    }
  }

  async #command(message: Extract<ClientMessage, { type: 'input' | 'resize' | 'lease' }>): Promise<void> {
    const { principal } = this.#ctx;
    const what = `ws.${message.type}`;
    let status = 200;
    let code: string | null = null;
    try {
      if (!scopeAllows(principal.scope, 'input')) throw forbiddenScope(principal, 'input', `a WebSocket '${message.type}' message`);
      if (message.type === 'input') takeOrRefuse(this.#options.rateLimiter, principal.tokenId, principal.name);
      const handler = this.#options.handlers[message.type] as ((m: typeof message, c: RequestContext) => unknown) | undefined;
      if (!handler) throw notImplemented(`the WebSocket '${message.type}' message`);
      const result = await handler(message, this.#ctx);
      if (message.type === 'lease') this.#send({ type: 'lease', ref: message.ref, session_id: message.session_id, holder: result as 'you' | 'other' | 'none' });
      else this.#send({ type: 'ok', ref: message.ref });
    } catch (error) {
      status = error instanceof ApiError ? error.status : 500;
      code = error instanceof ApiError ? error.code : 'INTERNAL';
      throw error;
    } finally {
      if (message.type === 'input' && this.#options.audit) {
        const { type: _type, ref: _ref, ...body } = message;
        this.#options.audit({
          at: this.#options.now(), who: principal.name, tokenId: principal.tokenId, remoteAddress: this.#ctx.remoteAddress,
          what, params: { session_id: message.session_id }, body, status, code, outcome: status < 400 ? 'ok' : status < 500 ? 'refused' : 'error',
        });
      }
    }
  }
}
