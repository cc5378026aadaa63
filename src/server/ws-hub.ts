/**
 * The WebSocket connections after their upgrade was authorized: every client message is
 * validated by the protocol's schema (an invalid one gets an `error` message and the
 * connection stays; `maxInvalidMessages` of them close it with 1008), subscriptions are
 * owned per connection and disposed on close, and input, resize and lease are scope-checked;
 * `input` is rate-limited and audited like the HTTP keystroke routes.
 *
 * Nothing is queued onto a socket that already holds `maxBacklogBytes` unsent: the send closes
 * the connection instead (4001; the client reconnects and resumes by `since`), so a client that
 * reads nothing cannot grow the daemon's memory whatever it asks for. An `ack` beyond what its
 * subscription sent closes it with 1002. Each connection is a live channel of its token: a
 * revocation ends it at once.
 * @module
 */
import type { WebSocket } from 'ws';
import { ClientMessage, encodeTerminalFrame, PROTOCOL_VERSION, SpectermError, WS_CLOSE, type ServerMessage, type TerminalFrame } from '../protocol/index.js';
import type { RequestContext, TopicSubscription, WsSink } from '../ops/contracts.js';
import { toSpectermError } from '../ops/errors.js';
import type { Operations } from '../ops/executor.js';
import { parseOrThrow } from '../ops/validate.js';
import { parseJson } from './body.js';
import type { LiveChannels } from './live-channels.js';

export interface WsHubOptions {
  operations: Operations;
  maxMessageBytes: number;
  /** Invalid messages tolerated per connection before it is closed (10). */
  maxInvalidMessages: number;
  /** Subscriptions per connection (256): bounds what one client can make the daemon hold. */
  maxSubscriptions: number;
  /** Unsent bytes a socket may hold before a further send closes it with 4001 (4 MiB). */
  maxBacklogBytes: number;
  /** Where each connection registers as a live channel of its token. */
  channels: LiveChannels;
  onUnexpected: (error: unknown) => void;
}

export class WsHub {
  readonly #options: WsHubOptions;
  readonly #connections = new Set<Connection>();

  constructor(options: WsHubOptions) {
    this.#options = options;
  }

  /** Takes over an upgraded socket for `ctx`'s principal. */
  accept(socket: WebSocket, ctx: RequestContext): void {
    const connection = new Connection(socket, ctx, this.#options, () => {
      this.#connections.delete(connection);
      unregister();
    });
    this.#connections.add(connection);
    // Registered last: a token revoked while the upgrade completed ends the connection here.
    const unregister = this.#options.channels.open(ctx.principal.tokenId, () => connection.end(WS_CLOSE.POLICY, 'token revoked'));
  }

  /** Closes every connection (server shutdown). */
  closeAll(): void {
    for (const connection of this.#connections) connection.end(WS_CLOSE.GOING_AWAY, 'server shutting down');
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
      sendTerminal: (frame) => this.#sendTerminal(frame),
      get bufferedBytes() { return socket.bufferedAmount; },
    };
    socket.on('message', (data, isBinary) => {
      this.#onMessage(data as Buffer, isBinary).catch((error) => this.#options.onUnexpected(error));
    });
    socket.on('error', () => {}); // a protocol error (e.g. too big: 1009) closes the socket; 'close' cleans up
    socket.on('close', () => {
      this.#stop();
      onClose();
    });
    this.#send({ type: 'hello', protocol_version: PROTOCOL_VERSION, scope: ctx.principal.scope, max_message_bytes: options.maxMessageBytes, device: { id: ctx.principal.tokenId, name: ctx.principal.name } });
  }

  /**
   * Closes the connection now: its subscriptions end at once (not when the close handshake
   * completes, which a client that reads nothing never does; `ws` destroys the socket 30 s on).
   */
  end(code: number, reason: string): void {
    if (this.#closed) return;
    this.#stop();
    this.#socket.close(code, reason);
  }

  #stop(): void {
    this.#closed = true;
    for (const sub of this.#subscriptions.values()) sub?.dispose();
    this.#subscriptions.clear();
  }

  /** Whether the socket may take one more message: past the backlog bound the connection ends instead. */
  #hasRoom(): boolean {
    if (this.#closed) return false;
    if (this.#socket.bufferedAmount <= this.#options.maxBacklogBytes) return true;
    this.end(WS_CLOSE.TOO_SLOW, `client too slow: over ${this.#options.maxBacklogBytes} bytes unread; reconnect and resume with since`);
    return false;
  }

  #send(message: ServerMessage): void {
    if (this.#hasRoom()) this.#socket.send(JSON.stringify(message));
  }

  #sendTerminal(frame: TerminalFrame): void {
    if (this.#hasRoom()) this.#socket.send(encodeTerminalFrame(frame));
  }

  async #onMessage(data: Buffer, isBinary: boolean): Promise<void> {
    // Ended (revoked, too slow): what the client still sends before the close handshake is ignored.
    if (this.#closed) return;
    let ref: string | undefined;
    try {
      if (isBinary) throw new SpectermError({ code: 'WS_BINARY_REFUSED', title: 'Binary frames are refused', detail: 'client messages are JSON text frames' });
      const raw = parseJson(data.toString('utf8'));
      if (raw && typeof raw === 'object' && typeof (raw as { ref?: unknown }).ref === 'string') ref = (raw as { ref: string }).ref.slice(0, 64);
      const message = parseOrThrow(ClientMessage, raw, 'message', 'WebSocket message');
      await this.#dispatch(message);
    } catch (error) {
      const e = toSpectermError(error, this.#options.onUnexpected);
      if (e.status < 500 && e.code !== 'RATE_LIMITED') this.#invalid += 1;
      this.#send({ type: 'error', ref, code: e.code, message: e.message, errors: e.errors });
      if (this.#invalid >= this.#options.maxInvalidMessages) this.end(WS_CLOSE.POLICY, 'too many invalid messages');
    }
  }

  async #dispatch(message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'ping':
        return this.#send({ type: 'pong', ref: message.ref });
      case 'subscribe': {
        if (this.#subscriptions.has(message.topic)) throw new SpectermError({ code: 'ALREADY_SUBSCRIBED', title: 'Already subscribed', detail: `already subscribed to '${message.topic}'; unsubscribe first to resume from another seq` });
        if (this.#subscriptions.size >= this.#options.maxSubscriptions) throw new SpectermError({ code: 'TOO_MANY_SUBSCRIPTIONS', title: 'Too many subscriptions', detail: `at most ${this.#options.maxSubscriptions} subscriptions per connection` });
        this.#subscriptions.set(message.topic, null); // reserved while the handler runs
        try {
          const sub = await this.#options.operations.open<TopicSubscription>('subscribeTopic', { body: message, label: `a subscription to '${message.topic}'` }, this.#ctx, this.#sink);
          if (this.#closed || !this.#subscriptions.has(message.topic)) return sub.dispose();
          this.#subscriptions.set(message.topic, sub);
        } catch (error) {
          this.#subscriptions.delete(message.topic);
          throw error;
        }
        return this.#send({ type: 'subscribed', ref: message.ref, topic: message.topic });
      }
      case 'unsubscribe': {
        if (!this.#subscriptions.has(message.topic)) throw new SpectermError({ code: 'NOT_SUBSCRIBED', title: 'Not subscribed', detail: `not subscribed to '${message.topic}'` });
        this.#subscriptions.get(message.topic)?.dispose();
        this.#subscriptions.delete(message.topic);
        return this.#send({ type: 'unsubscribed', ref: message.ref, topic: message.topic });
      }
      case 'ack': {
        const sub = this.#subscriptions.get(message.topic);
        if (sub === undefined) throw new SpectermError({ code: 'NOT_SUBSCRIBED', title: 'Not subscribed', detail: `ack for '${message.topic}', which this connection does not subscribe to` });
        if (sub?.ack?.(message.bytes) !== false) return;
        this.#send({ type: 'error', code: 'ACK_BEYOND_SENT', message: `ack of byte ${message.bytes} on '${message.topic}' is beyond what it was sent; ack the seq after the last byte you rendered`, errors: [] });
        return this.end(WS_CLOSE.PROTOCOL_ERROR, 'ack beyond what was sent');
      }
      case 'input':
      case 'resize':
      case 'lease':
        return this.#command(message);
    }
  }

  async #command(message: Extract<ClientMessage, { type: 'input' | 'resize' | 'lease' }>): Promise<void> {
    const id = message.type === 'input' ? 'terminalInput' : message.type === 'resize' ? 'terminalResize' : 'terminalLease';
    const raw = { params: { id: message.session_id }, body: message, label: `a WebSocket '${message.type}' message` };
    const answer = await this.#options.operations.call(id, raw, this.#ctx);
    if (message.type === 'lease') this.#send({ type: 'lease', ref: message.ref, session_id: message.session_id, holder: answer as 'you' | 'other' | 'none' });
    else this.#send({ type: 'ok', ref: message.ref });
  }
}
