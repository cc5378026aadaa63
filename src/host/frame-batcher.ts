/**
 * The frames one host connection sends in an event-loop turn, written to its socket together.
 * At 100 streaming sessions about 1,000 output chunks a second reach the host; a write per chunk
 * costs a syscall on the host and a wake-up and a read on the daemon per chunk, while one write
 * per turn costs them once for everything the turn produced (docs/performance.md).
 *
 * The backlog rule is checked on what the socket could not take AFTER the turn's write: counted
 * before it (as a corked socket counts it), a replay bigger than the limit that the kernel takes
 * at once would drop a client that reads fine (session 9 reverted corking for that).
 *
 * @module
 */
import type net from 'node:net';

/** Queues frames for one socket and writes them as one buffer once the current turn is done. */
export class FrameBatcher {
  readonly #socket: net.Socket;
  /** Called after each write with the bytes the socket still holds unsent. */
  readonly #afterWrite: (unsentBytes: number) => void;
  #frames: Buffer[] = [];
  #bytes = 0;
  #scheduled = false;

  constructor(socket: net.Socket, afterWrite: (unsentBytes: number) => void) {
    this.#socket = socket;
    this.#afterWrite = afterWrite;
  }

  /** Queues a frame; the queue is written after the I/O callbacks of this turn (setImmediate). */
  push(frame: Buffer): void {
    this.#frames.push(frame);
    this.#bytes += frame.length;
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes what is queued now (before an `end()`, so a closing error still goes out first). */
  flush(): void {
    this.#scheduled = false;
    if (this.#frames.length === 0) return;
    const data = this.#frames.length === 1 ? this.#frames[0]! : Buffer.concat(this.#frames, this.#bytes);
    this.#frames = [];
    this.#bytes = 0;
    if (this.#socket.destroyed || !this.#socket.writable) return;
    this.#socket.write(data);
    this.#afterWrite(this.#socket.writableLength);
  }

  /** Forgets what is queued (the connection is gone). */
  clear(): void {
    this.#frames = [];
    this.#bytes = 0;
  }
}
