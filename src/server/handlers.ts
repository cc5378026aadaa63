/**
 * What the server calls: one handler per route of the table (typed by it), the SSE and
 * WebSocket hooks, and the audit callback. The session manager (src/daemon) supplies them.
 * @module
 */
import type { ClientMessage, DaemonEvent, RouteId, RouteInput, RouteOutput, ServerMessage, TerminalFrame } from '../protocol/index.js';
import type { Principal } from './auth.js';

/** Who is asking, for handlers and audit. */
export interface RequestContext {
  principal: Principal;
  requestId: string;
  remoteAddress: string;
  /** HTTP only: headers the handler adds to its success answer (the pairing routes' Set-Cookie). */
  responseHeaders?: Record<string, string>;
}

/** Routes the server answers itself (health, OpenAPI, tokens, WS tickets, pairing). */
export type BuiltInRouteId = 'health' | 'openapi' | 'createWsTicket' | 'listTokens' | 'createToken' | 'revokeToken' | 'createPairing' | 'pair' | 'signOut';

export type RouteHandler<K extends RouteId> = (input: RouteInput<K>, ctx: RequestContext) => RouteOutput<K> | Promise<RouteOutput<K>>;

/** Where an SSE handler writes events; `closed` turns true when the client leaves or is dropped. */
export interface SseSink {
  send(event: DaemonEvent): void;
  readonly closed: boolean;
  /** The stream's unsent backlog; past the server's `maxClientBacklogBytes` a send ends the stream (the client resumes with Last-Event-ID). */
  readonly bufferedBytes: number;
}

/** Streams events from `since` (exclusive; from `Last-Event-ID` or `?since=`); returns the unsubscribe. */
export type SseHandler = (
  input: RouteInput<'events'> & { since: number | undefined },
  ctx: RequestContext,
  sink: SseSink,
) => (() => void) | Promise<() => void>;

export type RouteHandlers = { [K in Exclude<RouteId, BuiltInRouteId | 'events'>]?: RouteHandler<K> } & { events?: SseHandler };

/**
 * What a WebSocket subscription may push. `bufferedBytes` is the socket's unsent backlog: a
 * pusher that can degrade (skip frames, resync later) checks it; past the server's
 * `maxClientBacklogBytes` any send closes the connection instead (4001, the client resumes).
 */
export interface WsSink {
  send(message: ServerMessage): void;
  sendTerminal(frame: TerminalFrame): void;
  readonly bufferedBytes: number;
}

/**
 * A live subscription: disposed on unsubscribe or close; `ack` gets the client's byte acks and
 * answers `false` for an ack beyond anything the subscription sent (the hub then closes the
 * connection with 1002: no client renders bytes it was never sent).
 */
export interface TopicSubscription {
  dispose(): void;
  ack?(bytes: number): unknown;
}

type Msg<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;

/** The WebSocket's hooks; a missing hook refuses its messages (topics: TOPIC_UNAVAILABLE). */
export interface WsHandlers {
  subscribe?(message: Msg<'subscribe'>, ctx: RequestContext, sink: WsSink): TopicSubscription | Promise<TopicSubscription>;
  input?(message: Msg<'input'>, ctx: RequestContext): void | Promise<void>;
  resize?(message: Msg<'resize'>, ctx: RequestContext): void | Promise<void>;
  lease?(message: Msg<'lease'>, ctx: RequestContext): 'you' | 'other' | 'none' | Promise<'you' | 'other' | 'none'>;
}

/** One audited command: who typed what into which session, when, and how it ended. */
export interface AuditEntry {
  at: number;
  who: string;
  tokenId: string;
  remoteAddress: string;
  /** The route id, or `ws.input` / `ws.resize` / `ws.lease`. */
  what: string;
  params: Record<string, unknown>;
  body: unknown;
  outcome: 'ok' | 'refused' | 'error';
  status: number;
  code: string | null;
}
