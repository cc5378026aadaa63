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

/**
 * Storage comes in chunks of this size, each allocated once when output first reaches it and
 * kept until the ring goes. Growing by doubling instead allocated (and freed) about twice the
 * capacity per ring: with 100 sessions the freed 128/256 KiB buffers stayed as holes in the
 * host's malloc heap, ~0.4 MB of RSS per session on top of the ring (docs/performance.md).
 * 16 KiB: a quiet session costs one chunk, and chunks stay below malloc's mmap threshold.
 */
export const RING_CHUNK_BYTES = 16 * 1024;

/** Fixed-capacity ring of the most recent output bytes; storage is allocated on demand, chunk by chunk. */
export class ByteRing {
  /** Byte `seq` lives at ring offset `seq % capacity`, i.e. in chunk `offset / chunkBytes`. */
  readonly #chunks: Buffer[] = [];
  readonly #chunkBytes: number;
  /** Total bytes ever appended (= seq of the next byte). */
  #seq = 0;
  #allocated = 0;

  /**
   * @param capacityBytes - bytes kept; a positive integer.
   * @param chunkBytes - size of each storage chunk (default {@link RING_CHUNK_BYTES}).
   */
  constructor(readonly capacityBytes: number, chunkBytes = RING_CHUNK_BYTES) {
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes < 1) {
      throw new RangeError(`ring capacityBytes must be a positive integer, got ${capacityBytes}`);
    }
    if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) {
      throw new RangeError(`ring chunkBytes must be a positive integer, got ${chunkBytes}`);
    }
    this.#chunkBytes = Math.min(chunkBytes, capacityBytes);
  }

  /** Total bytes appended so far. */
  get seq(): number {
    return this.#seq;
  }

  /** Seq of the oldest byte still held. */
  get start(): number {
    return Math.max(0, this.#seq - this.capacityBytes);
  }

  /** Bytes of storage allocated now (at most the capacity; never freed while the ring lives). */
  get allocatedBytes(): number {
    return this.#allocated;
  }

  /** Appends bytes; the oldest fall out when the ring is full. */
  append(bytes: Uint8Array): void {
    // Only the last `capacity` bytes of a huge chunk can survive: copy just those.
    const src = bytes.length > this.capacityBytes ? bytes.subarray(bytes.length - this.capacityBytes) : bytes;
    let at = this.#seq + (bytes.length - src.length);
    for (let offset = 0; offset < src.length;) {
      const { chunk, index, room } = this.#slot(at, true);
      const n = Math.min(src.length - offset, room);
      chunk.set(src.subarray(offset, offset + n), index);
      offset += n;
      at += n;
    }
    this.#seq += bytes.length;
  }

  /**
   * The bytes after `since` (clamped to what the ring holds), as a fresh copy.
   * A `since` beyond `seq` (from another host's life) reads from `seq`: nothing.
   */
  readSince(since: number): RingRead {
    const wanted = Math.min(Math.max(0, Math.floor(since)), this.#seq);
    const from = Math.max(wanted, this.start);
    const out = Buffer.allocUnsafe(this.#seq - from);
    for (let offset = 0; offset < out.length;) {
      const { chunk, index, room } = this.#slot(from + offset, false);
      const n = Math.min(out.length - offset, room);
      chunk.copy(out, offset, index, index + n);
      offset += n;
    }
    return { from, bytes: out, missedBytes: from - wanted };
  }

  /** Where byte `seq` goes: its chunk (allocated when `create`), its index there and the room after it. */
  #slot(seq: number, create: boolean): { chunk: Buffer; index: number; room: number } {
    const offset = seq % this.capacityBytes;
    const n = Math.floor(offset / this.#chunkBytes);
    const first = n * this.#chunkBytes;
    let chunk = this.#chunks[n];
    if (!chunk) {
      if (!create) throw new RangeError(`ring chunk ${n} read before it was written`);
      // Unzeroed: a chunk's bytes are only read after they were written.
      chunk = Buffer.allocUnsafeSlow(Math.min(this.#chunkBytes, this.capacityBytes - first));
      this.#chunks[n] = chunk;
      this.#allocated += chunk.length;
    }
    const index = offset - first;
    return { chunk, index, room: chunk.length - index };
  }
}
