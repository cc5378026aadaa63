/**
 * A bounded byte ring with sequence numbers: `seq` is the total number of bytes ever appended,
 * the ring keeps the last `capacityBytes` of them. Readers ask for the bytes after a `since`
 * they already have; what fell out of the ring is reported, never silently skipped.
 *
 * @module
 */

/** What {@link ByteRing.readSince} returns. */
export interface RingRead {
  /** Seq of the first returned byte. */
  from: number;
  /** The bytes from `from` to the ring's current `seq`. */
  bytes: Buffer;
  /** Bytes between `since` and `from` that are no longer held (0 when none were lost). */
  missedBytes: number;
}

/** First allocation: a quiet session never costs its full capacity in memory. */
const INITIAL_BYTES = 16 * 1024;

/** Fixed-capacity ring of the most recent output bytes; storage grows to the capacity on demand. */
export class ByteRing {
  /** Holds seq `0..length` linearly until it reaches the capacity; wraps only from then on. */
  #buffer: Buffer;
  /** Total bytes ever appended (= seq of the next byte). */
  #seq = 0;

  /**
   * @param capacityBytes - bytes kept; a positive integer.
   * @param initialBytes - storage allocated up front (it doubles as output arrives).
   */
  constructor(readonly capacityBytes: number, initialBytes = INITIAL_BYTES) {
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes < 1) {
      throw new RangeError(`ring capacityBytes must be a positive integer, got ${capacityBytes}`);
    }
    this.#buffer = Buffer.alloc(Math.max(1, Math.min(capacityBytes, initialBytes)));
  }

  /** Total bytes appended so far. */
  get seq(): number {
    return this.#seq;
  }

  /** Seq of the oldest byte still held. */
  get start(): number {
    return Math.max(0, this.#seq - this.capacityBytes);
  }

  /** Appends bytes; the oldest fall out when the ring is full. */
  append(bytes: Uint8Array): void {
    this.#grow(this.#seq + bytes.length);
    const cap = this.capacityBytes;
    // Only the last `cap` bytes of a huge chunk can survive: copy just those.
    const src = bytes.length > cap ? bytes.subarray(bytes.length - cap) : bytes;
    const skipped = bytes.length - src.length;
    let at = (this.#seq + skipped) % cap;
    let offset = 0;
    while (offset < src.length) {
      const n = Math.min(src.length - offset, cap - at);
      this.#buffer.set(src.subarray(offset, offset + n), at);
      offset += n;
      at = (at + n) % cap;
    }
    this.#seq += bytes.length;
  }

  /** Bytes of storage allocated now (at most the capacity). */
  get allocatedBytes(): number {
    return this.#buffer.length;
  }

  /** Before the ring is full it is linear (seq = offset): growing is a copy of the prefix. */
  #grow(needed: number): void {
    const length = this.#buffer.length;
    if (needed <= length || length === this.capacityBytes) return;
    let size = length;
    while (size < needed) size *= 2;
    const grown = Buffer.alloc(Math.min(this.capacityBytes, size));
    this.#buffer.copy(grown, 0, 0, this.#seq);
    this.#buffer = grown;
  }

  /**
   * The bytes after `since` (clamped to what the ring holds), as a fresh copy.
   * A `since` beyond `seq` (from another host's life) reads from `seq`: nothing.
   */
  readSince(since: number): RingRead {
    const wanted = Math.min(Math.max(0, Math.floor(since)), this.#seq);
    const from = Math.max(wanted, this.start);
    const length = this.#seq - from;
    const out = Buffer.alloc(length);
    const cap = this.capacityBytes;
    let at = from % cap;
    let offset = 0;
    while (offset < length) {
      const n = Math.min(length - offset, cap - at);
      this.#buffer.copy(out, offset, at, at + n);
      offset += n;
      at = (at + n) % cap;
    }
    return { from, bytes: out, missedBytes: from - wanted };
  }
}
