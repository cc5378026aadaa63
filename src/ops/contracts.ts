/**
 * What the operations executor calls: one handler per operation (typed by the route table),
 * the event stream and the live channels' handlers, and the audit callback. The composition
 * root (src/serve) supplies them from the session manager; every transport reaches them
 * through `Operations` (./executor.ts) only.
 * @module
 */
import type { ClientMessage, DaemonEvent, RouteId, RouteInput, RouteOutput, ServerMessage, TerminalFrame } from '../protocol/index.js';
import type { Principal } from './principal.js';

/** The transports an operation can arrive by. */
export type Transport = 'http' | 'sse' | 'ws' | 'nats' | 'mcp' | 'cli';

/** Who is asking, for handlers and audit. */
export interface RequestContext {
  principal: Principal;
  requestId: string;
  remoteAddress: string;
  /** The transport that carried the call (audited). */
  via?: Transport;
  /** The agent session the call is made for, as its `specterm mcp` declares it (audited; the rules for agents apply). */
  callerSession?: string;
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
  /** The subscriber lost messages (a transport without a socket's guarantees): send a fresh snapshot. */
  resync?(): void;
}

type Msg<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;

/**
 * The live operations' handlers (`subscribeTopic`, `terminalInput`, `terminalResize`,
 * `terminalLease`; ./operations.ts); a missing one refuses its calls (topics: TOPIC_UNAVAILABLE).
 */
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
  /** The operation id (`sendMessage`, `terminalInput` …). */
  what: string;
  /** The transport that carried it. */
  via: Transport;
  /** The agent session it was made for, when one was declared. */
  callerSession?: string;
  params: Record<string, unknown>;
  body: unknown;
  outcome: 'ok' | 'refused' | 'error';
  status: number;
  code: string | null;
}
