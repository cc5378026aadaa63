/**
 * One WebSocket subscription to a session's terminal, with its flow control: it starts with a
 * snapshot (or, resuming with `since`, with just the bytes after `since` when the feed still
 * holds them), then sends every byte after it once, in order, as binary frames. The client
 * acks the seq it rendered. A client too far behind (more than `maxUnackedBytes` sent but not
 * acked, or the socket's own backlog over `maxBufferedBytes`) stops getting frames; once it
 * has acked everything it was sent, and its socket's backlog is back under `maxBufferedBytes`,
 * it gets a fresh snapshot and goes on from there. Nothing here waits: the PTY and the other
 * viewers never slow down for a slow one, and no snapshot is queued onto a full socket (a
 * client that reads nothing but acks everything would otherwise get one per ack).
 *
 * An ack beyond anything this subscription sent (or, resuming, the `since` it named) is no
 * client's rendering: `ack` answers false and the server closes the connection.
 *
 * Frames are coalesced: the bytes of one tick (a {@link FrameTicker}, ~10 ms) go out as one
 * binary frame per viewer, not one per PTY chunk (a TUI repaint arrives in many small chunks;
 * each frame costs a WebSocket send and a client render). The bytes stay contiguous and in
 * order; anything else the viewer sends (a snapshot) flushes them first.
 * @module
 */
import type { ServerMessage, TerminalFrame } from '../protocol/index.js';
import type { FeedListener, TerminalFeed } from './terminal-feed.js';

/** Where a viewer writes (the server's `WsSink`). */
export interface ViewerSink {
  send(message: ServerMessage): void;
  sendTerminal(frame: TerminalFrame): void;
  readonly bufferedBytes: number;
}

export interface ViewerLimits {
  /** Bytes sent and not acked before the viewer counts as behind (1 MiB). */
  maxUnackedBytes: number;
  /** The socket's unsent backlog before the viewer counts as behind (1 MiB). */
  maxBufferedBytes: number;
}

export const DEFAULT_VIEWER_LIMITS: ViewerLimits = { maxUnackedBytes: 1024 * 1024, maxBufferedBytes: 1024 * 1024 };

/** How long bytes wait to be coalesced into one frame (10 ms: well inside a 60 Hz render, far below the 50 ms lag target). */
export const DEFAULT_FRAME_TICK_MS = 10;

/** Something with bytes to flush at the next tick. */
interface Flushable { flush(): void }

/**
 * One timer for every viewer of a stream: a viewer with queued bytes asks for the next tick,
 * and the tick flushes each such viewer once. No timer runs while nothing is queued.
 */
export class FrameTicker {
  readonly #due = new Set<Flushable>();
  #timer: NodeJS.Timeout | null = null;

  constructor(readonly tickMs: number = DEFAULT_FRAME_TICK_MS) {}

  schedule(target: Flushable): void {
    this.#due.add(target);
    this.#timer ??= setTimeout(() => this.#tick(), this.tickMs);
  }

  cancel(target: Flushable): void {
    this.#due.delete(target);
  }

  /** Flushes everything now (shutdown, tests). */
  flushAll(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#tick();
  }

  #tick(): void {
    this.#timer = null;
    const due = [...this.#due];
    this.#due.clear();
    for (const target of due) target.flush();
  }
}

/** `waiting`: for a moment a snapshot can be taken; `live`: sending; `behind`: dropped until it acks. */
export type ViewerState = 'waiting' | 'live' | 'behind';

export class TerminalViewer implements FeedListener {
  readonly #feed: TerminalFeed;
  readonly #sink: ViewerSink;
  readonly #topic: `terminal/${string}`;
  readonly #sessionId: string;
  readonly #limits: ViewerLimits;
  #state: ViewerState = 'waiting';
  /** Seq of the next byte to send. */
  #sent = 0;
  /** Highest seq the client acked (≤ `#sent`). */
  #acked = 0;
  /** Highest seq the client may ack: the most ever sent here, or the `since` it resumed from. */
  #ackable = 0;
  /** Retries the catch-up at the next tick while the socket has no room for a snapshot. */
  readonly #catchUpLater: Flushable = { flush: () => this.#catchUp() };
  readonly #ticker: FrameTicker;
  /** Bytes queued for the next tick, from seq `#queuedFrom` to `#sent`. */
  #queued: Buffer[] = [];
  #queuedFrom = 0;
  /** Frames sent (for tests and stats). */
  frames = 0;
  /** Bytes of frames and snapshots handed to the socket (for tests and stats). */
  sentBytes = 0;
  /** Snapshots sent, and how many of them because the viewer fell behind (for tests and stats). */
  snapshots = 0;
  resyncs = 0;

  constructor(feed: TerminalFeed, sink: ViewerSink, sessionId: string, limits: ViewerLimits = DEFAULT_VIEWER_LIMITS, ticker: FrameTicker = new FrameTicker()) {
    this.#feed = feed;
    this.#ticker = ticker;
    this.#sink = sink;
    this.#sessionId = sessionId;
    this.#topic = `terminal/${sessionId}`;
    this.#limits = limits;
  }

  get state(): ViewerState {
    return this.#state;
  }

  /** Seq after the last byte sent (for tests and stats). */
  get sentSeq(): number {
    return this.#sent;
  }

  /** What the socket holds unsent for this viewer's client (for tests and stats). */
  get backlogBytes(): number {
    return this.#sink.bufferedBytes;
  }

  /** Starts the stream: from `since` when the feed holds the bytes after it, else with a snapshot. */
  start(since: number | undefined): void {
    // Acks of bytes rendered before a resubscribe may still be on their way.
    if (since !== undefined && since <= this.#feed.seq) this.#ackable = since;
    const held = since === undefined ? null : this.#feed.readSince(since);
    if (held) {
      this.#acked = held.from;
      this.#sent = held.from;
      this.#state = 'live';
      this.#sendBytes(held.from, held.bytes);
      return;
    }
    this.#resync();
  }

  /** The client rendered up to `bytes`; false when that is beyond anything it was sent (a protocol error). */
  ack(bytes: number): boolean {
    if (bytes > this.#ackable) return false;
    this.#acked = Math.max(this.#acked, Math.min(bytes, this.#sent));
    this.#catchUp();
    return true;
  }

  bytes(seq: number, bytes: Uint8Array): void {
    if (this.#state !== 'live') return;
    const skip = this.#sent - seq;
    if (skip >= bytes.length) return;
    const fresh = skip > 0 ? bytes.subarray(skip) : bytes;
    if (this.#sent + fresh.length - this.#acked > this.#limits.maxUnackedBytes || this.#sink.bufferedBytes > this.#limits.maxBufferedBytes) {
      // What is queued still goes out (it is in order); the acks then have to reach it.
      this.flush();
      this.#state = 'behind';
      return;
    }
    this.#sendBytes(this.#sent, fresh);
  }

  /** Sends the queued bytes as one frame (the ticker calls it; so does anything sent after them). */
  flush(): void {
    if (this.#queued.length === 0) return;
    const data = this.#queued.length === 1 ? this.#queued[0]! : Buffer.concat(this.#queued);
    this.#queued = [];
    this.#ticker.cancel(this);
    this.frames += 1;
    this.sentBytes += data.length;
    this.#sink.sendTerminal({ sessionId: this.#sessionId, seq: this.#queuedFrom, data });
  }

  /** The subscription ended: queued bytes are dropped, the ticker forgets this viewer. */
  close(): void {
    this.#queued = [];
    this.#ticker.cancel(this);
    this.#ticker.cancel(this.#catchUpLater);
  }

  settled(): void {
    if (this.#state === 'waiting') this.#resync();
    else this.#catchUp();
  }

  reset(): void {
    if (this.#state === 'live') this.#resync();
  }

  /** A viewer behind that acked all it was sent gets a fresh snapshot, once its socket has room for one. */
  #catchUp(): void {
    if (this.#state === 'behind' && this.#acked >= this.#sent) this.#resync();
  }

  /** A fresh snapshot and the bytes after it; `waiting` until one can be taken, `behind` while the socket is full. */
  #resync(): void {
    if (this.#sink.bufferedBytes > this.#limits.maxBufferedBytes) {
      this.flush();
      this.#state = 'behind';
      this.#ticker.schedule(this.#catchUpLater);
      return;
    }
    const snapshot = this.#feed.snapshot();
    if (!snapshot) {
      this.#state = 'waiting';
      return;
    }
    if (this.#state === 'behind') this.resyncs += 1;
    this.snapshots += 1;
    this.flush();
    this.sentBytes += snapshot.data.length;
    this.#sink.send({ type: 'snapshot', topic: this.#topic, seq: snapshot.seq, data: snapshot.data, cols: snapshot.cols, rows: snapshot.rows });
    this.#acked = snapshot.seq;
    this.#sent = snapshot.seq;
    this.#ackable = Math.max(this.#ackable, snapshot.seq);
    this.#state = 'live';
    const after = this.#feed.readSince(snapshot.seq);
    if (after) this.#sendBytes(after.from, after.bytes);
  }

  /** Queues bytes for the next tick (a copy: the feed's array is only valid during its call). */
  #sendBytes(seq: number, bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#queued.length > 0 && seq !== this.#sent) this.flush();
    if (this.#queued.length === 0) {
      this.#queuedFrom = seq;
      this.#ticker.schedule(this);
    }
    this.#queued.push(Buffer.from(bytes));
    this.#sent = seq + bytes.length;
    this.#ackable = Math.max(this.#ackable, this.#sent);
  }
}
