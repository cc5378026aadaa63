/**
 * The write queue of the PTY transport: every byte written to the child goes through it, in
 * order, in bounded pieces, and the event loop gets a turn between pieces (issue 12, item 1).
 *
 * Why it exists: node-pty writes through a libuv tty handle, and libuv cannot reopen a PTY master
 * in non-blocking mode, so it falls back to *blocking* writes, spinning on EAGAIN until every
 * byte is taken. A child that echoes what it reads (every TUI does) stops reading once its own
 * output fills up, and its output is read only by our event loop, which is stuck in that write:
 * a 64 KB paste froze the process for good. The queue instead makes one non-blocking attempt at a
 * time, takes what the kernel accepted, and tries again after the loop has read the child's
 * output (at once when the last attempt made progress, after a short timer when the kernel's
 * buffer was full).
 *
 * @module
 */

import { TerminalError } from './errors.js';

/**
 * One non-blocking write attempt. Returns how many bytes the kernel took (0 when its buffer is
 * full: try later). Throws when the PTY can no longer be written (the child is gone); the queue
 * then drops what it holds.
 */
export type TryWrite = (bytes: Buffer) => number;

/**
 * Most bytes offered per attempt. The kernel takes about 4 KiB of terminal input at a time
 * (Linux's line discipline buffer is 4096 bytes), so a larger attempt only comes back partial,
 * and a small one leaves the child's output waiting for at most one attempt.
 */
export const WRITE_CHUNK_BYTES = 4096;

/**
 * Wait before retrying after the kernel took nothing: long enough not to spin on a child that is
 * not reading, short enough that a paste into a busy TUI is not noticeably slowed.
 */
export const WRITE_RETRY_MS = 5;

/**
 * Most bytes that may wait in the queue: 16 messages of the largest size (1 MiB). A child that
 * lets this much pile up is not reading its input at all; refusing more keeps a session's memory
 * bounded instead of growing with every write.
 */
export const MAX_PENDING_WRITE_BYTES = 16 * 1024 * 1024;

/** Options of {@link PtyWriteQueue}. */
export interface PtyWriteQueueOptions {
  /** Bytes per attempt; default {@link WRITE_CHUNK_BYTES}. */
  chunkBytes?: number;
  /** Delay after an attempt that wrote nothing; default {@link WRITE_RETRY_MS}. */
  retryMs?: number;
  /** Bytes that may wait at most; default {@link MAX_PENDING_WRITE_BYTES}. */
  maxPendingBytes?: number;
  /** Told why the queue closed itself when an attempt threw (the PTY is gone). */
  onClosedByError?: (error: unknown) => void;
}

/** A FIFO of bytes for one PTY; writes never block and keep the order of `enqueue` calls. */
export class PtyWriteQueue {
  readonly #tryWrite: TryWrite;
  readonly #chunkBytes: number;
  readonly #retryMs: number;
  readonly #maxPendingBytes: number;
  readonly #onClosedByError: ((error: unknown) => void) | undefined;
  /** Buffers not fully written yet; the first one is written from `#offset`. */
  #buffers: Buffer[] = [];
  #offset = 0;
  #pendingBytes = 0;
  #immediate: ReturnType<typeof setImmediate> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /**
   * @param tryWrite - one non-blocking attempt on the PTY (see {@link TryWrite}).
   * @param options - chunk size, retry delay, error sink.
   */
  constructor(tryWrite: TryWrite, options: PtyWriteQueueOptions = {}) {
    this.#tryWrite = tryWrite;
    this.#chunkBytes = options.chunkBytes ?? WRITE_CHUNK_BYTES;
    this.#retryMs = options.retryMs ?? WRITE_RETRY_MS;
    this.#maxPendingBytes = options.maxPendingBytes ?? MAX_PENDING_WRITE_BYTES;
    this.#onClosedByError = options.onClosedByError;
  }

  /** Bytes accepted by {@link enqueue} that the kernel has not taken yet. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** True once {@link close} ran (or an attempt failed): later writes are ignored. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /**
   * Queues `data` (as UTF-8) behind everything queued before. When nothing is queued, the first
   * attempt happens at once, so a keystroke reaches the child without waiting for a loop turn.
   *
   * @throws TerminalError (`PTY_WRITE_QUEUE_FULL`) when `data` would make more than
   *   `maxPendingBytes` wait; nothing of `data` is queued then (all or nothing keeps the order).
   */
  enqueue(data: string): void {
    if (this.#closed || data.length === 0) return;
    const bytes = Buffer.from(data, 'utf8');
    if (this.#pendingBytes + bytes.length > this.#maxPendingBytes) {
      throw new TerminalError(
        'PTY_WRITE_QUEUE_FULL',
        `cannot queue ${bytes.length} more bytes for the child: ${this.#pendingBytes} bytes are still waiting and at most ${this.#maxPendingBytes} may be queued; the child is not reading its input: wait until it does, or end it`,
        bytes.length,
      );
    }
    this.#buffers.push(bytes);
    this.#pendingBytes += bytes.length;
    if (!this.#isScheduled()) this.#attempt();
  }

  /** Drops everything still queued and cancels the pending attempt. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#buffers = [];
    this.#offset = 0;
    this.#pendingBytes = 0;
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#immediate = this.#retryTimer = undefined;
  }

  #isScheduled(): boolean {
    return this.#immediate !== undefined || this.#retryTimer !== undefined;
  }

  readonly #onTurn = (): void => {
    this.#immediate = this.#retryTimer = undefined;
    this.#attempt();
  };

  #attempt(): void {
    if (this.#closed || this.#pendingBytes === 0) return;
    let written: number;
    try {
      written = this.#tryWrite(this.#nextPiece());
    } catch (error) {
      this.close();
      this.#onClosedByError?.(error);
      return;
    }
    this.#advance(written);
    if (this.#pendingBytes === 0) return;
    // Give the loop a turn to read the child's output before offering more input.
    if (written > 0) this.#immediate = setImmediate(this.#onTurn);
    else this.#retryTimer = setTimeout(this.#onTurn, this.#retryMs);
  }

  /** Up to `chunkBytes` from the front of the queue; small buffers are joined into one piece. */
  #nextPiece(): Buffer {
    const first = this.#buffers[0]!;
    const head = first.subarray(this.#offset, this.#offset + this.#chunkBytes);
    if (head.length === this.#chunkBytes || this.#buffers.length === 1) return head;
    const parts = [head];
    let size = head.length;
    for (let i = 1; i < this.#buffers.length && size < this.#chunkBytes; i++) {
      const part = this.#buffers[i]!.subarray(0, this.#chunkBytes - size);
      parts.push(part);
      size += part.length;
    }
    return Buffer.concat(parts, size);
  }

  /** Removes `count` written bytes from the front of the queue. */
  #advance(count: number): void {
    this.#pendingBytes -= count;
    let left = count;
    while (left > 0) {
      const first = this.#buffers[0]!;
      const rest = first.length - this.#offset;
      if (left < rest) {
        this.#offset += left;
        return;
      }
      left -= rest;
      this.#buffers.shift();
      this.#offset = 0;
    }
  }
}
