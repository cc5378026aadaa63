/**
 * The WebSocket's terminal side, as `WsHandlers` pieces the session manager wires in: the
 * `terminal/<id>` topic (one {@link TerminalViewer} per subscription over one shared
 * {@link TerminalFeed} per session), `input`, and `resize` + `lease` (the controller lease,
 * terminal-lease.ts). Sessions come from a lookup, so this module holds no session state of
 * its own beyond the feeds, and it works for whatever the lookup serves.
 * @module
 */
import type { ClientMessage } from '../protocol/index.js';
import type { DispatchResult } from '../driver/events.js';
import type { FsmDriver } from '../driver/fsm-driver.js';
import type { HostTransport } from '../host/host-transport.js';
import type { Disposable } from '../terminal/index.js';
import { TerminalStreamError, unknownSession } from './terminal-errors.js';
import { TerminalFeed, type TerminalFeedOptions } from './terminal-feed.js';
import { TerminalLeases, type LeaseHolder, type LeaseView } from './terminal-lease.js';
import { DEFAULT_VIEWER_LIMITS, FrameTicker, TerminalViewer, type ViewerLimits, type ViewerSink } from './terminal-viewer.js';

/** What the stream needs of a session. */
export interface TerminalSession {
  driver: Pick<FsmDriver, 'screen' | 'dispatch'>;
  transport: Pick<HostTransport, 'seq' | 'textSeq' | 'onBytes'>;
  /** The session's own resize when it keeps the size (the daemon's session record); else the driver resizes. */
  resize?: (cols: number, rows: number) => DispatchResult;
  /** Told of each keystroke a person typed here: a picker it opens waits for nobody (managed-session.ts). */
  /** The person's keystrokes reached the session (`data`: what they typed). */
  notePersonInput?: (data: string) => void;
}

export type TerminalSessionLookup = (id: string) => TerminalSession | undefined;

export interface TerminalStreamOptions {
  sessions: TerminalSessionLookup;
  limits?: Partial<ViewerLimits>;
  feed?: TerminalFeedOptions;
  /** How long bytes are coalesced into one frame per viewer (see terminal-viewer.ts). */
  frameTickMs?: number;
}

type Msg<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;

/** The connection a message came over: the server passes one context object per socket. */
type ConnectionContext = LeaseHolder;

interface SessionFeed {
  session: TerminalSession;
  feed: TerminalFeed;
  /** Each subscribed connection and its viewer. */
  viewers: Map<ConnectionContext, { viewer: TerminalViewer; sink: ViewerSink; feedListener: Disposable }>;
}

const TOPIC_PREFIX = 'terminal/';

export class TerminalStream {
  readonly #sessions: TerminalSessionLookup;
  readonly #limits: ViewerLimits;
  readonly #feedOptions: TerminalFeedOptions;
  readonly #feeds = new Map<string, SessionFeed>();
  /** One timer for every viewer of the stream. */
  readonly #ticker: FrameTicker;
  readonly leases = new TerminalLeases((id) => this.#announceLease(id));

  constructor(options: TerminalStreamOptions) {
    this.#sessions = options.sessions;
    this.#limits = { ...DEFAULT_VIEWER_LIMITS, ...options.limits };
    this.#feedOptions = options.feed ?? {};
    this.#ticker = new FrameTicker(options.frameTickMs);
  }

  /**
   * Starts following a session's output now (before anyone subscribes), so the first viewer
   * can resume by seq too. Subscribing does it on demand otherwise.
   */
  follow(sessionId: string): void {
    this.#feedOf(sessionId);
  }

  /** `WsHandlers.subscribe` for topics `terminal/<id>`. */
  subscribe = (message: Msg<'subscribe'>, ctx: ConnectionContext, sink: ViewerSink): { dispose(): void; ack(bytes: number): boolean; resync(): void } => {
    if (!message.topic.startsWith(TOPIC_PREFIX)) {
      throw new TerminalStreamError('TERMINAL_BAD_TOPIC', `the terminal stream serves topics 'terminal/<id>', not '${message.topic}'`, '/topic');
    }
    const sessionId = message.topic.slice(TOPIC_PREFIX.length);
    const entry = this.#feedOf(sessionId, '/topic');
    const viewer = new TerminalViewer(entry.feed, sink, sessionId, this.#limits, this.#ticker);
    const feedListener = entry.feed.add(viewer);
    entry.viewers.set(ctx, { viewer, sink, feedListener });
    viewer.start(message.since);
    let disposed = false;
    return {
      ack: (bytes) => viewer.ack(bytes),
      resync: () => viewer.reset(),
      dispose: () => {
        if (disposed) return;
        disposed = true;
        viewer.close();
        feedListener.dispose();
        if (entry.viewers.get(ctx)?.viewer === viewer) entry.viewers.delete(ctx);
        this.leases.release(sessionId, ctx);
      },
    };
  };

  /** `WsHandlers.input`: raw keystrokes to the child (the server checked the input scope). */
  input = (message: Msg<'input'>): void => {
    const session = this.#lookup(message.session_id);
    const result = session.driver.dispatch({ kind: 'pty_write', data: message.data });
    if (result.ok) session.notePersonInput?.(message.data);
    if (!result.ok) throw new TerminalStreamError('TERMINAL_INPUT_REFUSED', `session '${message.session_id}' took no input: ${result.reason}`);
  };

  /** `WsHandlers.resize`: only the lease holder resizes; every viewer then gets a snapshot of the new size. */
  resize = (message: Msg<'resize'>, ctx: ConnectionContext): void => {
    const session = this.#lookup(message.session_id);
    this.leases.assertHolder(message.session_id, ctx);
    const result = session.resize ? session.resize(message.cols, message.rows) : session.driver.dispatch({ kind: 'resize', cols: message.cols, rows: message.rows });
    if (!result.ok) throw new TerminalStreamError('TERMINAL_RESIZE_REFUSED', `session '${message.session_id}' was not resized: ${result.reason}`);
    this.#feeds.get(message.session_id)?.feed.checkSize();
  };

  /** `WsHandlers.lease`: acquire or release the controller lease; needs a terminal subscription on this connection. */
  lease = (message: Msg<'lease'>, ctx: ConnectionContext): LeaseView => {
    this.#lookup(message.session_id);
    if (message.action === 'release') return this.leases.release(message.session_id, ctx);
    if (!this.#feeds.get(message.session_id)?.viewers.has(ctx)) {
      throw new TerminalStreamError('LEASE_NEEDS_SUBSCRIPTION', `subscribe to 'terminal/${message.session_id}' on this connection before taking its lease: the lease ends with that subscription`);
    }
    return this.leases.acquire(message.session_id, ctx);
  };

  /** Drops a removed session's feed and lease (its viewers keep their last picture). */
  forget(sessionId: string): void {
    const entry = this.#feeds.get(sessionId);
    if (!entry) return;
    this.#feeds.delete(sessionId);
    for (const { feedListener, viewer } of entry.viewers.values()) {
      // The session's last bytes still reach its viewers.
      viewer.flush();
      viewer.close();
      feedListener.dispose();
    }
    entry.feed.dispose();
    this.leases.forget(sessionId);
  }

  /** Stops every feed. */
  close(): void {
    for (const id of [...this.#feeds.keys()]) this.forget(id);
  }

  /** The session's feed when the stream follows it (tests, stats). */
  feedOf(sessionId: string): TerminalFeed | undefined {
    return this.#feeds.get(sessionId)?.feed;
  }

  /** Viewer states of a session, for tests and stats. */
  viewersOf(sessionId: string): TerminalViewer[] {
    return [...(this.#feeds.get(sessionId)?.viewers.values() ?? [])].map((v) => v.viewer);
  }

  #lookup(sessionId: string, path?: string): TerminalSession {
    const session = this.#sessions(sessionId);
    if (!session) {
      this.forget(sessionId);
      throw unknownSession(sessionId, path);
    }
    return session;
  }

  /** The session's feed; a new one when the session is new or was restarted (another transport). */
  #feedOf(sessionId: string, path?: string): SessionFeed {
    const session = this.#lookup(sessionId, path);
    const known = this.#feeds.get(sessionId);
    if (known && known.session.transport === session.transport && known.session.driver === session.driver) return known;
    if (known) this.forget(sessionId);
    const entry: SessionFeed = { session, feed: new TerminalFeed({ screen: session.driver.screen, transport: session.transport }, this.#feedOptions), viewers: new Map() };
    this.#feeds.set(sessionId, entry);
    return entry;
  }

  #announceLease(sessionId: string): void {
    const entry = this.#feeds.get(sessionId);
    if (!entry) return;
    for (const [ctx, { sink }] of entry.viewers) sink.send({ type: 'lease', session_id: sessionId, holder: this.leases.viewOf(sessionId, ctx) });
  }
}
