/**
 * The active buffer's rows as text, translated once per change: a ring over the bottom rows (the
 * row window) that each read after a write patches in place, and a cache by line id for the deep
 * scrollback above it. The headless screen reads every row through here.
 *
 * @module
 */
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { CELL_WORDS, cellText, rowText, xtermRowText, type CellLine } from './row-text.js';
import { CellSnapshots } from './cell-snapshots.js';
import { readActiveType, readBaseY, type XtermInternals } from './xterm-internals.js';

/**
 * Rows kept above the viewport in the row window: at least the guard frame's 200
 * (spec-format §9.4), so a guard frame is served from the window.
 */
export const WINDOW_SCROLLBACK_ROWS = 256;

/** The row caches of one headless screen (see the module doc). */
export class RowWindow {
  readonly #term: XtermTerminal;
  readonly #internals: XtermInternals | null;
  /**
   * Text of rows above the row window (deep scrollback), by line id: absolute buffer row + rows
   * trimmed off the top so far (scrollback overflow shifts absolute rows but not ids). Output only
   * ever writes viewport rows, which the window holds, so an entry stays right until ids are
   * renumbered (buffer switch, reset, resize, cleared scrollback), when the map is emptied. Null
   * when the internals the row caches need are missing: then every read translates (correct, slower).
   */
  #rows: Map<number, string> | null = new Map();
  /** The active buffer's line list, read without the public API wrappers (null if unavailable). */
  readonly #internalLines: (() => { get(y: number): CellLine | undefined }) | null;
  #trimmed = 0;
  #trimSub: { dispose(): void } | null = null;
  #trackedLines: unknown = null;
  #trackedType: string | null = null;
  /** Dirty viewport rows reported during the current write (start > end: none); all for a full refresh. */
  #dirtyAll = false;
  #dirtyStart = Infinity;
  #dirtyEnd = -Infinity;
  /**
   * The row window: the bottom `rows + WINDOW_SCROLLBACK_ROWS` buffer rows as of the last read
   * after a change, ids `[#windowFirstId, #windowEndId)`, held in a ring (slot = id mod capacity).
   * Each read after a write brings it up to date in place: new rows at the bottom, and the rows
   * written since (`#windowDirty*`, an id range) — nothing else is touched, so an evaluation
   * costs the rows that really changed, not a pass over the screen.
   */
  #ring: string[] = [];
  /** The cells each ring slot's text came from, so an unchanged dirty row is not translated again. */
  readonly #cells: CellSnapshots;
  #windowFirstId = 0;
  #windowEndId = 0;
  /** True after a write or resize until the next read brings the window up to date. */
  #windowStale = true;
  #windowDirtyAll = true;
  #windowDirtyFrom = Infinity;
  #windowDirtyTo = -Infinity;

  constructor(term: XtermTerminal, internals: XtermInternals | null) {
    this.#term = term;
    this.#internals = internals;
    this.#cells = new CellSnapshots(() => this.#term.rows);
    this.#internalLines = internals ? () => (internals.buffers.active.lines as unknown as { get(y: number): CellLine | undefined }) : null;
    if (internals) {
      // Fires synchronously inside the parser; must not throw.
      internals.inputHandler.onRequestRefreshRows((range) => {
        if (!range) { this.#dirtyAll = true; return; }
        if (range.start < this.#dirtyStart) this.#dirtyStart = range.start;
        if (range.end > this.#dirtyEnd) this.#dirtyEnd = range.end;
      });
      this.#trackBuffer();
    } else {
      this.#rows = null;
    }
  }

  /** Top of the live bottom screen (`buffer.active.baseY`). */
  baseY(): number {
    return readBaseY(this.#term, this.#internals);
  }

  /** `'normal'` or `'alternate'`. */
  activeType(): string {
    return readActiveType(this.#term, this.#internals);
  }

  /** Rows scrollback overflow has trimmed off the top so far: a row's id is its buffer row plus this. */
  trimmedRows(): number {
    return this.#trimmed;
  }

  /** Buffer rows in the active buffer (scrollback + viewport). */
  lineCount(): number {
    return this.#internals ? this.#internals.buffers.active.lines.length : this.#term.buffer.active.length;
  }

  /** Call right before a write is parsed; pass the result to {@link afterWrite}. */
  beginWrite(): number {
    const idsBefore = this.baseY() + this.#trimmed;
    this.#dirtyAll = false;
    this.#dirtyStart = Infinity;
    this.#dirtyEnd = -Infinity;
    return idsBefore;
  }

  /** Call right after a write was parsed, with what {@link beginWrite} returned. */
  afterWrite(idsBefore: number): void {
    this.#windowStale = true;
    this.#invalidateAfterWrite(idsBefore);
  }

  /** Call after the emulator was resized. */
  afterResize(): void {
    this.#windowStale = true;
    this.#windowDirtyAll = true;
    // Reflow rewrites rows and may renumber them.
    this.#rows?.clear();
    this.#trackedLines = null;
    this.#trackBuffer();
  }

  /** Buffer rows `[from, to)` as text. */
  translateRows(from: number, to: number): string[] {
    const n = Math.max(0, to - from);
    if (n > 0 && this.#freshWindow() && from + this.#trimmed >= this.#windowFirstId && to + this.#trimmed <= this.#windowEndId) {
      // All in the window (the usual case): one or two native slices of the ring.
      const ring = this.#ring;
      const k = (from + this.#trimmed) % ring.length;
      if (k + n <= ring.length) return ring.slice(k, k + n);
      return ring.slice(k).concat(ring.slice(0, k + n - ring.length));
    }
    // Rows partly above the window (deep scrollback), or no row caches: row by row.
    const lines: string[] = new Array<string>(n);
    for (let y = from; y < to; y++) lines[y - from] = this.rowText(y);
    return lines;
  }

  /** Row `y`'s text: from the row window when it holds the row, else from the deep-row cache. */
  rowText(y: number): string {
    const id = y + this.#trimmed;
    if (this.#freshWindow() && id >= this.#windowFirstId && id < this.#windowEndId) return this.#ring[id % this.#ring.length]!;
    return this.#deepRowText(y);
  }

  /** Drops the caches and the trim subscription. */
  dispose(): void {
    this.#trimSub?.dispose();
    this.#rows?.clear();
  }

  /** Follows the active buffer: a switch (alt screen) or a reset (new line list) drops the cache. */
  #trackBuffer(): void {
    const internals = this.#internals;
    if (!internals || !this.#rows) return;
    const active = internals.buffers.active;
    const type = this.activeType();
    if (active.lines === this.#trackedLines && type === this.#trackedType) return;
    this.#trimSub?.dispose();
    this.#windowDirtyAll = true;
    this.#rows.clear();
    this.#trimmed = 0;
    this.#trackedLines = active.lines;
    this.#trackedType = type;
    this.#trimSub = active.lines.onTrim((amount) => { this.#trimmed += amount; });
  }

  #invalidateAfterWrite(idsBefore: number): void {
    const rowsCache = this.#rows;
    if (!rowsCache) return;
    const active = this.#internals!.buffers.active;
    if (this.activeType() !== this.#trackedType || active.lines !== this.#trackedLines) {
      this.#trackBuffer();
      return;
    }
    const idsAfter = active.ybase + this.#trimmed;
    const scrolled = idsAfter - idsBefore;
    if (scrolled < 0) {
      // The scrollback shrank (cleared): rows were renumbered.
      rowsCache.clear();
      this.#windowDirtyAll = true;
      return;
    }
    if (this.#dirtyAll) {
      this.#markWindowDirty(idsBefore, idsAfter + this.#term.rows - 1);
    } else if (this.#dirtyStart <= this.#dirtyEnd) {
      // Rows keep their ids when the screen scrolls; only the dirty marks are in viewport rows of
      // the moment they were made. A row marked at y and scrolled k times since sits at y − k in
      // the final viewport (0 ≤ k ≤ scrolled), so [start − scrolled, end] covers every mark.
      this.#markWindowDirty(idsAfter + this.#dirtyStart - scrolled, idsAfter + this.#dirtyEnd);
    }
    // Lines trimmed off the top can never be read again.
    if (rowsCache.size > 2 * active.lines.length + 64) {
      for (const id of rowsCache.keys()) if (id < this.#trimmed) rowsCache.delete(id);
    }
  }

  #markWindowDirty(from: number, to: number): void {
    if (from < this.#windowDirtyFrom) this.#windowDirtyFrom = from;
    if (to > this.#windowDirtyTo) this.#windowDirtyTo = to;
  }

  /** Brings the row window up to date if a write came since; false without the row caches. */
  #freshWindow(): boolean {
    if (!this.#rows) return false;
    if (!this.#windowStale) return true;
    const trimmed = this.#trimmed;
    const ybase = this.baseY();
    const rows = this.#term.rows;
    const firstId = Math.max(trimmed, ybase + trimmed - WINDOW_SCROLLBACK_ROWS);
    const endId = ybase + trimmed + rows; // exclusive
    const capacity = rows + WINDOW_SCROLLBACK_ROWS;
    // The row caches exist only with the internals (see the constructor).
    const lines = this.#internalLines!();
    const oldFirst = this.#windowFirstId;
    const oldEnd = this.#windowEndId;
    const overlaps = !this.#windowDirtyAll && this.#ring.length === capacity && firstId >= oldFirst && firstId < oldEnd;
    const viewportTop = endId - rows;
    if (overlaps) {
      // New rows at the bottom, then the rows written since (most of them unchanged, which their
      // cells tell). Rows that left the top are overwritten by new ones in the ring.
      for (let id = oldEnd; id < endId; id++) this.#translateWindowRow(lines, id - trimmed, id % capacity, id >= viewportTop);
      const patchTo = Math.min(this.#windowDirtyTo, oldEnd - 1, endId - 1);
      for (let id = Math.max(this.#windowDirtyFrom, firstId); id <= patchTo; id++) this.#translateWindowRow(lines, id - trimmed, id % capacity, id >= viewportTop);
      // Rows that scrolled out of the viewport give their cell buffers back.
      for (let id = Math.max(oldEnd - rows, firstId); id < viewportTop; id++) this.#cells.release(id % capacity);
    } else {
      // Packed (not a holey `new Array(n)`): frames are slices of it, read in tight loops.
      this.#ring = Array.from({ length: capacity }, () => '');
      this.#cells.reset(capacity);
      for (let id = firstId; id < endId; id++) this.#translateWindowRow(lines, id - trimmed, id % capacity, id >= viewportTop);
    }
    this.#windowFirstId = firstId;
    this.#windowEndId = endId;
    this.#windowStale = false;
    this.#windowDirtyAll = false;
    this.#windowDirtyFrom = Infinity;
    this.#windowDirtyTo = -Infinity;
    return true;
  }

  /**
   * Brings ring slot `k` (buffer row `y`) up to date: kept when the row's cells equal those seen
   * when it was last translated, else translated afresh (its cells recorded when `keepCells`: a
   * viewport row, which output may rewrite).
   */
  #translateWindowRow(lines: { get(y: number): CellLine | undefined }, y: number, k: number, keepCells: boolean): void {
    const texts = this.#ring;
    const cells = this.#cells;
    const line = lines.get(y);
    if (!line) {
      cells.release(k);
      texts[k] = '';
      return;
    }
    const data = line._data;
    const words = CELL_WORDS * line.length;
    if (!data || data.length < words) {
      cells.release(k);
      texts[k] = xtermRowText(line, this.#term.cols);
      return;
    }
    const bytes = cells.bytesOf(k, data, words);
    if (cells.isSame(k, bytes)) return;
    const text = cellText(line, this.#term.cols);
    // A combined character's text lives outside the cell words: never reuse such a row.
    if (text === null) {
      cells.release(k);
      texts[k] = xtermRowText(line, this.#term.cols);
      return;
    }
    texts[k] = text;
    if (!keepCells) {
      cells.release(k);
      return;
    }
    cells.remember(k, bytes);
  }

  /** A row outside the window (or any row without the internals), cached by id when possible. */
  #deepRowText(y: number): string {
    const cache = this.#rows;
    const id = y + this.#trimmed;
    if (cache) {
      const hit = cache.get(id);
      if (hit !== undefined) return hit;
    }
    // The internal buffer line is read directly: the public getLine() builds a wrapper object
    // per call and checks the proposed-API flag, which cost more than the translation itself.
    const internal = this.#internalLines?.();
    if (internal) {
      const line = internal.get(y);
      const text = line ? rowText(line, this.#term.cols) : '';
      // Only rows above the window are cached here; the window serves the rest.
      if (cache && id < this.#windowFirstId) cache.set(id, text);
      return text;
    }
    return this.#term.buffer.active.getLine(y)?.translateToString(true, 0, this.#term.cols).trimEnd() ?? '';
  }
}
