/**
 * The byte bookkeeping of one terminal stream: after a snapshot tagged with seq N, bytes from N
 * on are written exactly once. A frame entirely before N is a duplicate (a resend after a
 * reconnect), one overlapping N is trimmed, and one starting after N is a gap: the caller
 * resubscribes from N (the server answers a fresh snapshot or the missing bytes).
 * @module
 */
export type FrameVerdict =
  | { kind: 'write'; data: Uint8Array; end: number }
  | { kind: 'duplicate' }
  | { kind: 'gap'; expected: number; got: number }
  | { kind: 'no-snapshot' };

export class TerminalSeq {
  /** The seq of the next byte to write; null before the first snapshot. */
  #next: number | null = null;

  get next(): number | null {
    return this.#next;
  }

  snapshot(seq: number): void {
    this.#next = seq;
  }

  /** What to do with `data` whose first byte has seq `seq`. */
  frame(seq: number, data: Uint8Array): FrameVerdict {
    if (this.#next === null) return { kind: 'no-snapshot' };
    const end = seq + data.length;
    if (end <= this.#next) return { kind: 'duplicate' };
    if (seq > this.#next) return { kind: 'gap', expected: this.#next, got: seq };
    const fresh = data.subarray(this.#next - seq);
    this.#next = end;
    return { kind: 'write', data: fresh, end };
  }
}
