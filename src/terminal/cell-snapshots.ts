/**
 * The cell words each slot of the row window last translated its text from, so a row reported
 * dirty whose cells did not change keeps its text. TUIs built on Ink erase and rewrite their
 * whole bottom block on every spinner frame, so most rows reported dirty hold the same cells as
 * before; comparing them (one `memcmp`, about twice as fast as a JS loop over the content words)
 * is far cheaper than building the string again. Attribute-only changes are retranslated, to
 * the same text.
 *
 * @module
 */
import { Buffer } from 'node:buffer';

/** A byte view of an xterm row array. */
interface RowBytes {
  data: Uint32Array;
  bytes: Buffer;
}

/** Per-slot cell snapshots of the row window (see the module doc). */
export class CellSnapshots {
  /**
   * The cell words of each slot's row as last translated, as bytes (null: no buffer yet; valid
   * only where `#known` says so — not for a combined character, whose text lives outside).
   */
  #cells: Array<Buffer | null> = [];
  /**
   * Per slot, 1 when `#cells` holds the cells its text was translated from. A slot's buffer
   * outlives the rows that pass through it (it is overwritten in place), and a row entering the
   * slot is compared with the cells of the row it replaces: equal cells mean equal text.
   */
  #known: Uint8Array = new Uint8Array(0);
  /**
   * Cell buffers given back by rows that scrolled above the viewport, for the next row that needs
   * one. Output only rewrites viewport rows, so a snapshot pays off only there: keeping one for
   * every scrollback row of the window cost `cols × 12` bytes a row (0.36 MB a session at 120×40).
   */
  #pool: Buffer[] = [];
  /** Per slot, a byte view of the xterm row array last seen there (a row keeps its array while it lives). */
  #views: Array<RowBytes | null> = [];
  /** How many buffers the pool keeps at most: a viewport's worth. */
  readonly #poolLimit: () => number;

  constructor(poolLimit: () => number) {
    this.#poolLimit = poolLimit;
  }

  /** Forgets every slot's cells, with `capacity` slots from now on. */
  reset(capacity: number): void {
    if (this.#cells.length !== capacity) {
      this.#cells = new Array<Buffer | null>(capacity).fill(null);
      this.#views = new Array<RowBytes | null>(capacity).fill(null);
      this.#known = new Uint8Array(capacity);
    } else {
      for (let k = 0; k < capacity; k++) this.release(k);
    }
  }

  /** The first `words` cell words of `data` as bytes, the view kept per slot while the row keeps its array. */
  bytesOf(k: number, data: Uint32Array, words: number): Buffer {
    const known = this.#views[k];
    if (known && known.data === data && known.bytes.length === 4 * words) return known.bytes;
    const bytes = Buffer.from(data.buffer, data.byteOffset, 4 * words);
    this.#views[k] = { data, bytes };
    return bytes;
  }

  /** Slots holding a byte view (for tests: views are kept only where cells are). */
  heldViews(): number {
    return this.#views.reduce((n, view) => (view ? n + 1 : n), 0);
  }

  /** True when slot `k`'s text was translated from exactly these cells. */
  isSame(k: number, bytes: Buffer): boolean {
    const snap = this.#cells[k];
    return this.#known[k] === 1 && snap!.length === bytes.length && bytes.equals(snap!);
  }

  /** Records `bytes` as the cells slot `k`'s text was translated from. */
  remember(k: number, bytes: Buffer): void {
    const snap = this.#cells[k];
    // One buffer per slot, overwritten in place: not one per repaint or per row scrolled in.
    if (snap && snap.length === bytes.length) snap.set(bytes);
    else this.#cells[k] = this.#take(bytes);
    this.#known[k] = 1;
  }

  /**
   * Forgets slot `k`'s cells, its buffer back to the pool (at most a viewport's worth kept), and
   * its view: a slot without cells is never compared, and a view costs two objects and may hold
   * an array xterm has replaced (256 scrollback slots' views were most of this class's 83 KB of
   * heap per 120×40 session in the daemon benchmark).
   */
  release(k: number): void {
    this.#known[k] = 0;
    this.#views[k] = null;
    const buffer = this.#cells[k];
    if (!buffer) return;
    this.#cells[k] = null;
    if (this.#pool.length < this.#poolLimit()) this.#pool.push(buffer);
  }

  /** A copy of `bytes` in a pooled buffer of the same length when there is one. */
  #take(bytes: Buffer): Buffer {
    const pool = this.#pool;
    while (pool.length > 0) {
      const buffer = pool.pop()!;
      // A resize changes the row length: buffers of the old width are dropped.
      if (buffer.length === bytes.length) {
        buffer.set(bytes);
        return buffer;
      }
    }
    return Buffer.from(bytes);
  }
}
