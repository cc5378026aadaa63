/**
 * One session's terminal as the WebSocket stream serves it: the raw PTY bytes with their byte
 * seqs (kept in a bounded ring, so a viewer that dropped resumes from its seq without a
 * snapshot) and snapshots of the daemon's headless screen (`serializeScreen`) tagged
 * with the seq they reflect. Viewers (terminal-viewer.ts) listen for bytes and for the moments
 * a snapshot can be taken.
 *
 * Why a snapshot is not always possible: the screen is fed text decoded from the bytes, so it
 * reflects the bytes up to `transport.textSeq`; a snapshot must also end on a sequence
 * boundary (a chunk may end inside `ESC[31`; the serialized copy would then be followed by
 * `m` as text). `snapshot()` answers null then, and `settled` tells viewers to try again after
 * the next chunk reached the screen. The same holds in the one state the serializer cannot
 * redraw exactly (`redrawsExactly`: the cursor waiting to wrap behind an emptied cell).
 * @module
 */
import { ByteRing } from '../host/byte-ring.js';
import type { OutputBytes } from '../host/host-transport.js';
import { redrawsExactly, serializeScreen, type Disposable, type TerminalScreen } from '../terminal/index.js';

/** What the feed reads: the screen the driver keeps and the transport its bytes come over. */
export interface TerminalSource {
  screen: TerminalScreen;
  transport: {
    readonly seq: number;
    readonly textSeq: number;
    onBytes(listener: (chunk: OutputBytes) => void): Disposable;
  };
}

/** The screen serialized: writing `data` into an empty terminal of `cols`×`rows` reproduces it. */
export interface TerminalSnapshot { seq: number; data: string; cols: number; rows: number }

/** A viewer of the feed. Neither callback may throw (they run inside the transport's fan-out). */
export interface FeedListener {
  /** Raw output bytes starting at `seq`; the array is only valid during the call. */
  bytes(seq: number, bytes: Uint8Array): void;
  /** A chunk's text reached the screen (or the size changed): a snapshot may be possible now. */
  settled(): void;
  /** The size changed or bytes were lost: a viewer needs a fresh snapshot (with the new size). */
  reset(): void;
}

export interface TerminalFeedOptions {
  /** Bytes kept for resumes (256 KiB; storage grows on demand). */
  ringBytes?: number;
  /** Scrollback rows a snapshot carries (all the screen keeps when omitted). */
  snapshotScrollback?: number;
}

export const DEFAULT_FEED_RING_BYTES = 256 * 1024;

/** How long a snapshot serves later subscribers (with the bytes after it): a subscribe storm costs one serialization per session per 100 ms. */
export const SNAPSHOT_REUSE_MS = 100;

export class TerminalFeed {
  readonly #source: TerminalSource;
  readonly #ringBytes: number;
  #ring: ByteRing;
  /** Seq of the ring's byte 0: the transport's seq when the feed started listening. */
  #base: number;
  readonly #snapshotScrollback: number | undefined;
  readonly #listeners = new Set<FeedListener>();
  readonly #subscription: Disposable;
  #settlePending = false;
  /** The last snapshot and the screen's `writeSeq` it was taken at. */
  #snapshot: { writeSeq: number; at: number; value: TerminalSnapshot } | undefined;
  /** Screens serialized so far (for tests and stats). */
  serializations = 0;
  #cols: number;
  #rows: number;
  #disposed = false;

  constructor(source: TerminalSource, options: TerminalFeedOptions = {}) {
    this.#source = source;
    this.#ringBytes = options.ringBytes ?? DEFAULT_FEED_RING_BYTES;
    this.#ring = new ByteRing(this.#ringBytes);
    this.#base = source.transport.seq;
    this.#snapshotScrollback = options.snapshotScrollback;
    this.#cols = source.screen.cols;
    this.#rows = source.screen.rows;
    // The serializer reads `buffer`, which xterm creates on first use and cannot register once the
    // terminal is disposed (the driver disposes the screen when the child exits): create it now,
    // so an exited session still serves its last picture.
    void source.screen.headless.buffer;
    this.#subscription = source.transport.onBytes((chunk) => this.#onBytes(chunk));
  }

  /** Seq after the last byte received. */
  get seq(): number {
    return this.#base + this.#ring.seq;
  }

  /** Seq of the oldest byte still held. */
  get start(): number {
    return this.#base + this.#ring.start;
  }

  add(listener: FeedListener): Disposable {
    this.#listeners.add(listener);
    return { dispose: () => { this.#listeners.delete(listener); } };
  }

  /** The bytes after `since` when the ring still holds all of them, else null. */
  readSince(since: number): { from: number; bytes: Buffer } | null {
    if (!Number.isSafeInteger(since) || since < this.start || since > this.seq) return null;
    return { from: since, bytes: this.#ring.readSince(since - this.#base).bytes };
  }

  /**
   * The screen now, tagged with the seq it reflects; null when no snapshot can be taken now
   * (see the module comment). The bytes after its seq are held (`readSince(snapshot.seq)`).
   * Serialized once per screen change: the viewers that subscribe between two writes (a
   * dashboard reconnecting with ten tabs, ten clients at start-up) share one snapshot object.
   */
  snapshot(): TerminalSnapshot | null {
    if (this.#disposed) return null;
    const { screen, transport } = this.#source;
    const seq = transport.textSeq;
    if (seq < this.start || seq > this.seq || !screen.isParserAtRest() || !redrawsExactly(screen.headless)) return null;
    const cached = this.#snapshot;
    // writeSeq counts writes and resizes: equal means the serialized picture would be the same.
    if (cached && cached.writeSeq === screen.writeSeq && cached.value.seq === seq) return cached.value;
    // A streaming screen changes every few ms, so viewers arriving over a moment would each pay
    // a serialization. A recent snapshot plus the bytes after its seq (still in the ring; the
    // viewer sends them right after it) is the same screen — unless the size changed since.
    if (cached && performance.now() - cached.at <= SNAPSHOT_REUSE_MS && cached.value.seq >= this.start && cached.value.cols === screen.cols && cached.value.rows === screen.rows) return cached.value;
    const data = serializeScreen(screen.headless, this.#snapshotScrollback === undefined ? {} : { scrollback: this.#snapshotScrollback });
    this.serializations += 1;
    const value = { seq, data, cols: screen.cols, rows: screen.rows };
    this.#snapshot = { writeSeq: screen.writeSeq, at: performance.now(), value };
    return value;
  }

  /**
   * Checks the screen's size now (after a resize the stream made, or one the driver made on
   * its own): viewers get `reset` when it changed. Runs after every chunk too.
   */
  checkSize(): void {
    const { cols, rows } = this.#source.screen;
    if (cols === this.#cols && rows === this.#rows) return;
    // A resize reflows the screen: no snapshot from before it may be reused.
    this.#snapshot = undefined;
    this.#cols = cols;
    this.#rows = rows;
    for (const listener of [...this.#listeners]) listener.reset();
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#subscription.dispose();
    this.#listeners.clear();
    this.#snapshot = undefined;
  }

  #onBytes(chunk: OutputBytes): void {
    let bytes = chunk.bytes;
    let gap = false;
    if (chunk.seq < this.seq) bytes = bytes.subarray(Math.min(bytes.length, this.seq - chunk.seq));
    else if (chunk.seq > this.seq) {
      // The first output of an attach starts where the host's ring does; later the transport
      // never jumps, but if it did, the bytes in between are gone: start over from this chunk.
      gap = this.#ring.seq > 0;
      this.#ring = new ByteRing(this.#ringBytes);
      this.#base = chunk.seq;
    }
    if (bytes.length === 0) return;
    const seq = this.seq;
    this.#ring.append(bytes);
    if (gap) for (const listener of [...this.#listeners]) listener.reset();
    for (const listener of this.#listeners) listener.bytes(seq, bytes);
    if (this.#settlePending) return;
    this.#settlePending = true;
    // The chunk's text reaches the screen later in the same fan-out (the driver's onData listener).
    queueMicrotask(() => {
      this.#settlePending = false;
      if (this.#disposed) return;
      this.checkSize();
      for (const listener of [...this.#listeners]) listener.settled();
    });
  }
}
