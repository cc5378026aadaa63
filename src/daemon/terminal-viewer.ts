/**
 * One WebSocket subscription to a session's terminal, with its flow control: it starts with a
 * snapshot (or, resuming with `since`, with just the bytes after `since` when the feed still
 * holds them), then sends every byte after it once, in order, as binary frames. The client
 * acks the seq it rendered. A client too far behind (more than `maxUnackedBytes` sent but not
 * acked, or the socket's own backlog over `maxBufferedBytes`) stops getting frames; once it
 * has acked everything it was sent, it gets a fresh snapshot and goes on from there. Nothing
 * here waits: the PTY and the other viewers never slow down for a slow one.
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
  /** Snapshots sent, and how many of them because the viewer fell behind (for tests and stats). */
  snapshots = 0;
  resyncs = 0;

  constructor(feed: TerminalFeed, sink: ViewerSink, sessionId: string, limits: ViewerLimits = DEFAULT_VIEWER_LIMITS) {
    this.#feed = feed;
    this.#sink = sink;
    this.#sessionId = sessionId;
    this.#topic = `terminal/${sessionId}`;
    this.#limits = limits;
  }

  get state(): ViewerState {
    return this.#state;
  }

  /** Starts the stream: from `since` when the feed holds the bytes after it, else with a snapshot. */
  start(since: number | undefined): void {
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

  ack(bytes: number): void {
    this.#acked = Math.max(this.#acked, Math.min(bytes, this.#sent));
    if (this.#state === 'behind' && this.#acked >= this.#sent) this.#resync();
  }

  bytes(seq: number, bytes: Uint8Array): void {
    if (this.#state !== 'live') return;
    const skip = this.#sent - seq;
    if (skip >= bytes.length) return;
    const fresh = skip > 0 ? bytes.subarray(skip) : bytes;
    if (this.#sent + fresh.length - this.#acked > this.#limits.maxUnackedBytes || this.#sink.bufferedBytes > this.#limits.maxBufferedBytes) {
      this.#state = 'behind';
      return;
    }
    this.#sendBytes(this.#sent, fresh);
  }

  settled(): void {
    if (this.#state === 'waiting') this.#resync();
  }

  reset(): void {
    if (this.#state === 'live') this.#resync();
  }

  /** A fresh snapshot and the bytes after it; `waiting` until one can be taken. */
  #resync(): void {
    const snapshot = this.#feed.snapshot();
    if (!snapshot) {
      this.#state = 'waiting';
      return;
    }
    if (this.#state === 'behind') this.resyncs += 1;
    this.snapshots += 1;
    this.#sink.send({ type: 'snapshot', topic: this.#topic, seq: snapshot.seq, data: snapshot.data, cols: snapshot.cols, rows: snapshot.rows });
    this.#acked = snapshot.seq;
    this.#sent = snapshot.seq;
    this.#state = 'live';
    const after = this.#feed.readSince(snapshot.seq);
    if (after) this.#sendBytes(after.from, after.bytes);
  }

  #sendBytes(seq: number, bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#sink.sendTerminal({ sessionId: this.#sessionId, seq, data: bytes });
    this.#sent = seq + bytes.length;
  }
}
