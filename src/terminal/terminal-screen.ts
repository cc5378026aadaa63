/**
 * The exact picture of the child's screen: an `@xterm/headless` emulator fed synchronously,
 * with the snapshot rules of spec-format §9.1 (viewport and scrollback text, cursor, title, modes).
 *
 * @module
 */

import { Buffer } from 'node:buffer';
import xtermHeadless from '@xterm/headless';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import { TerminalError, assertDimension } from './errors.js';
import { ListenerSet, warnListenerError, type ListenerErrorSink } from './listener-set.js';
import { readTerminalModes, type TerminalModes } from './terminal-modes.js';
import { OscTracker } from './osc-tracker.js';
import type { Disposable } from './transport.js';
import { CELL_WORDS, cellText, rowText, xtermRowText, type CellLine } from './row-text.js';
import { GUARD_FRAME_SCROLLBACK_LINES, type GuardFrame } from '../core/screen/guard-frame.js';
import type { FrameCells } from '../core/eval/label-continuation.js';
import { BufferFrameCells } from './frame-cells.js';

const { Terminal } = xtermHeadless;

/** Scrollback rows kept by default (the reference keeps 2000). */
export const DEFAULT_SCROLLBACK_ROWS = 2000;

/** Options for {@link TerminalScreen}. */
export interface TerminalScreenOptions {
  cols: number;
  rows: number;
  /** Rows kept above the viewport; default {@link DEFAULT_SCROLLBACK_ROWS}. */
  scrollback?: number;
  /** Receives exceptions thrown by `onResponse` listeners (default: a process warning). */
  onListenerError?: ListenerErrorSink;
}

/** A 0-based cell position. */
export interface CursorPosition {
  row: number;
  col: number;
}

/**
 * The internal synchronous write path of xterm 6.0.0. `Terminal.write()` parses on a later tick
 * (so state right after the call would be stale, and virtual-time replay would depend on the
 * event loop); the core's public `writeSync` logs a deprecation warning on every call. The write
 * buffer's own `writeSync` parses the chunk before returning and is what both delegate to.
 */
interface SyncWriteBuffer {
  writeSync(data: string, maxSubsequentCalls?: number): void;
}

function getSyncWriteBuffer(term: XtermTerminal): SyncWriteBuffer {
  // `any`-free access to a private field: the shape is pinned by the exact @xterm/headless version.
  const core = (term as unknown as { _core?: { _writeBuffer?: Partial<SyncWriteBuffer> } })._core;
  const buffer = core?._writeBuffer;
  if (!buffer || typeof buffer.writeSync !== 'function') {
    throw new Error(
      '@xterm/headless no longer exposes _core._writeBuffer.writeSync; TerminalScreen relies on it for synchronous parsing. ' +
        'Pin @xterm/headless to 6.0.0 or update src/terminal/terminal-screen.ts for the new version.',
    );
  }
  return buffer as SyncWriteBuffer;
}

/** An xterm 6.0.0 internal buffer: the fields the row cache reads. */
interface InternalBuffer {
  ybase: number;
  lines: { length: number; onTrim(listener: (amount: number) => void): { dispose(): void } };
}

/** The slice of xterm internals the row cache listens to (pinned by the exact @xterm/headless version). */
interface XtermInternals {
  inputHandler: { onRequestRefreshRows(listener: (range: { start: number; end: number } | undefined) => void): { dispose(): void } };
  buffers: { active: InternalBuffer; alt: InternalBuffer };
}

function getInternals(term: XtermTerminal): XtermInternals | null {
  const core = (term as unknown as { _core?: { _inputHandler?: unknown; _bufferService?: { buffers?: unknown } } })._core;
  const inputHandler = core?._inputHandler as XtermInternals['inputHandler'] | undefined;
  const buffers = core?._bufferService?.buffers as XtermInternals['buffers'] | undefined;
  if (!inputHandler || typeof inputHandler.onRequestRefreshRows !== 'function' || !buffers?.active || typeof buffers.active.ybase !== 'number') return null;
  return { inputHandler, buffers };
}

/** A byte view of an xterm row array. */
interface RowBytes {
  data: Uint32Array;
  bytes: Buffer;
}

/**
 * Rows kept above the viewport in the row window: at least the guard frame's 200
 * (spec-format §9.4), so a guard frame is served from the window.
 */
export const WINDOW_SCROLLBACK_ROWS = 256;

/** Viewport rows translated once per change, plus how many leading blank rows were dropped. */
interface ViewportCache {
  seq: number;
  lines: string[];
  leadingBlankRows: number;
}

/**
 * A headless terminal screen. Every `write()` is parsed before it returns, so the snapshot,
 * cursor, title and modes are exact right after the call.
 *
 * Snapshot rules (spec-format §9.1): rows are right-trimmed; on the normal screen leading and
 * trailing empty rows are dropped; on the alternate screen the viewport is exactly `rows` rows.
 *
 * @example
 * const screen = new TerminalScreen({ cols: 80, rows: 24 });
 * screen.write('\x1b[3;1Hhello');
 * screen.viewportText(); // 'hello'
 * screen.cursor();       // { row: 0, col: 5 } — row index into viewportLines()
 */
export class TerminalScreen implements Disposable {
  readonly #term: XtermTerminal;
  readonly #writer: SyncWriteBuffer;
  readonly #responses: ListenerSet<string>;
  #writeSeq = 0;
  #title = '';
  /** The OSC payloads `osc` leaves read (nothing tracked until `osc.track()`). */
  readonly osc: OscTracker;
  #disposed = false;
  #viewport: ViewportCache | undefined;
  #scrollback: { seq: number; lines: string[] } | undefined;
  #tail: { seq: number; maxLines: number; lines: string[] } | undefined;
  /** The guard frame of write `seq`, and the buffer row of its frame row 0 (negative under its blank padding). */
  #guard: { seq: number; frame: GuardFrame; top: number } | undefined;
  #cells: { seq: number; guard: FrameCells | null; viewport: FrameCells | null } | undefined;
  /**
   * Text of rows above the row window (deep scrollback), by line id: absolute buffer row + rows
   * trimmed off the top so far (scrollback overflow shifts absolute rows but not ids). Output only
   * ever writes viewport rows, which the window holds, so an entry stays right until ids are
   * renumbered (buffer switch, reset, resize, cleared scrollback), when the map is emptied. Null
   * when the internals the row caches need are missing: then every read translates (correct, slower).
   */
  #rows: Map<number, string> | null = new Map();
  readonly #internals: XtermInternals | null;
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
   * The row window: the bottom `rows + WINDOW_SCROLLBACK_ROWS` buffer rows as of write `#windowSeq`,
   * ids `[#windowFirstId, #windowEndId)`, held in a ring (slot = id mod capacity). Each read after a
   * write brings it up to date in place: new rows at the bottom, and the rows written since
   * (`#windowDirty*`, an id range) — nothing else is touched, so an evaluation costs the rows that
   * really changed, not a pass over the screen.
   */
  #ring: string[] = [];
  /**
   * The cell words of each ring row as last translated, as bytes (null: no buffer yet; valid only
   * where `#ringKnown` says so — not for a combined character, whose text lives outside). TUIs
   * built on Ink erase and rewrite their whole bottom block on every spinner frame, so most rows
   * reported dirty hold the same cells as before; comparing them (one `memcmp`, about twice as fast
   * as a JS loop over the content words) is far cheaper than building the string again.
   * Attribute-only changes are retranslated, to the same text.
   */
  #ringCells: Array<Buffer | null> = [];
  /**
   * Per ring slot, 1 when `#ringCells` holds the cells its text was translated from. A slot's
   * buffer outlives the rows that pass through it (it is overwritten in place), and a row entering
   * the slot is compared with the cells of the row it replaces: equal cells mean equal text.
   */
  #ringKnown: Uint8Array = new Uint8Array(0);
  /**
   * Cell buffers given back by rows that scrolled above the viewport, for the next row that needs
   * one. Output only rewrites viewport rows, so a snapshot pays off only there: keeping one for
   * every scrollback row of the window cost `cols × 12` bytes a row (0.36 MB a session at 120×40).
   */
  #cellPool: Buffer[] = [];
  /** Per ring slot, a byte view of the xterm row array last seen there (a row keeps its array while it lives). */
  #ringViews: Array<RowBytes | null> = [];
  #windowFirstId = 0;
  #windowEndId = 0;
  #windowSeq = -1;
  #windowDirtyAll = true;
  #windowDirtyFrom = Infinity;
  #windowDirtyTo = -Infinity;

  /**
   * @param options - geometry and scrollback.
   * @throws TerminalError (`TERMINAL_INVALID_SIZE`) for a bad cols/rows/scrollback.
   */
  constructor(options: TerminalScreenOptions) {
    const cols = assertDimension('cols', options?.cols);
    const rows = assertDimension('rows', options?.rows);
    const scrollback = options.scrollback ?? DEFAULT_SCROLLBACK_ROWS;
    if (!Number.isInteger(scrollback) || scrollback < 0 || scrollback > 1_000_000) {
      throw new TerminalError(
        'TERMINAL_INVALID_SIZE',
        `scrollback must be an integer between 0 and 1000000, got ${String(scrollback)}; pass e.g. ${DEFAULT_SCROLLBACK_ROWS}`,
        scrollback,
      );
    }
    this.#term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    // Unicode 11 widths (emoji and newer wide characters take 2 cells), the same the dashboard's
    // xterm.js uses: the spec and the browser must agree on which column a character sits in.
    this.#term.loadAddon(new unicode11.Unicode11Addon());
    this.#term.unicode.activeVersion = '11';
    this.#writer = getSyncWriteBuffer(this.#term);
    this.#responses = new ListenerSet<string>('response', options.onListenerError ?? warnListenerError);
    // Both fire synchronously inside the parser; neither may throw (see ListenerSet).
    this.#term.onTitleChange((title) => {
      this.#title = title;
    });
    this.#term.onData((data) => this.#responses.emit(data));
    this.osc = new OscTracker(this.#term);
    this.#internals = getInternals(this.#term);
    const internals = this.#internals;
    this.#internalLines = internals ? () => (internals.buffers.active.lines as unknown as { get(y: number): CellLine | undefined }) : null;
    if (this.#internals) {
      this.#internals.inputHandler.onRequestRefreshRows((range) => {
        if (!range) { this.#dirtyAll = true; return; }
        if (range.start < this.#dirtyStart) this.#dirtyStart = range.start;
        if (range.end > this.#dirtyEnd) this.#dirtyEnd = range.end;
      });
      this.#trackBuffer();
    } else {
      this.#rows = null;
    }
  }

  /**
   * The headless emulator itself, for consumers that read it whole (the daemon's terminal
   * stream serializes it). Writes are synchronous (see {@link write}), so there is no write
   * queue to drain: what it shows is everything written so far. Do not write to it.
   */
  get headless(): XtermTerminal {
    return this.#term;
  }

  /**
   * True when the parser is between sequences (its ground state): output written so far ends
   * on a sequence boundary, so a serialized copy plus the bytes after it parse the same as
   * here. False while a chunk ended inside an escape sequence (xterm 6.0.0 internals; true
   * when they cannot be read).
   */
  isParserAtRest(): boolean {
    const parser = (this.#term as unknown as { _core?: { _inputHandler?: { _parser?: { currentState?: unknown } } } })._core?._inputHandler?._parser;
    return typeof parser?.currentState !== 'number' || parser.currentState === 0;
  }

  /** Current width in cells. */
  get cols(): number {
    return this.#term.cols;
  }

  /** Current height in rows. */
  get rows(): number {
    return this.#term.rows;
  }

  /**
   * Change counter: incremented by every non-empty `write()` and by `resize()`. Equal values mean
   * the screen cannot have changed, so callers may skip re-reading it.
   */
  get writeSeq(): number {
    return this.#writeSeq;
  }

  /** Window title last set by the child via OSC 0 or OSC 2 (empty until set). */
  get windowTitle(): string {
    return this.#title;
  }

  /**
   * Parses `data` (PTY output) into the screen before returning. Ignored after `dispose()`.
   *
   * @throws TerminalError (`TERMINAL_INVALID_ARGUMENT`) when `data` is not a string.
   */
  write(data: string): void {
    if (typeof data !== 'string') {
      throw new TerminalError('TERMINAL_INVALID_ARGUMENT', `TerminalScreen.write expects a string, got ${typeof data}; decode PTY output as UTF-8 first`, data);
    }
    if (this.#disposed || data.length === 0) return;
    const idsBefore = this.#baseY() + this.#trimmed;
    this.#dirtyAll = false;
    this.#dirtyStart = Infinity;
    this.#dirtyEnd = -Infinity;
    this.#writer.writeSync(data);
    this.#writeSeq++;
    this.#invalidateAfterWrite(idsBefore);
  }

  /** Top of the live bottom screen (`buffer.active.baseY`), without the public API's wrappers. */
  #baseY(): number {
    return this.#internals ? this.#internals.buffers.active.ybase : this.#term.buffer.active.baseY;
  }

  #activeType(): string {
    const internals = this.#internals;
    return internals ? (internals.buffers.active === internals.buffers.alt ? 'alternate' : 'normal') : this.#term.buffer.active.type;
  }

  /** Follows the active buffer: a switch (alt screen) or a reset (new line list) drops the cache. */
  #trackBuffer(): void {
    const internals = this.#internals;
    if (!internals || !this.#rows) return;
    const active = internals.buffers.active;
    const type = this.#activeType();
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
    if (this.#activeType() !== this.#trackedType || active.lines !== this.#trackedLines) {
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

  /**
   * Resizes the emulator (xterm reflows wrapped lines on the normal screen).
   *
   * @throws TerminalError (`TERMINAL_INVALID_SIZE`) for a bad geometry.
   */
  resize(cols: number, rows: number): void {
    assertDimension('cols', cols);
    assertDimension('rows', rows);
    if (this.#disposed) return;
    if (cols === this.#term.cols && rows === this.#term.rows) return;
    this.#term.resize(cols, rows);
    this.#writeSeq++;
    this.#windowDirtyAll = true;
    // Reflow rewrites rows and may renumber them.
    this.#rows?.clear();
    this.#trackedLines = null;
    this.#trackBuffer();
  }

  /**
   * Subscribes to the emulator's replies to the child's queries (cursor position report for
   * `ESC[6n`, device attributes, …). A live driver writes them back to the PTY: some TUIs block
   * until the reply arrives.
   */
  onResponse(listener: (data: string) => void): Disposable {
    return this.#responses.add(listener);
  }

  /** Whether the alternate screen buffer is active. */
  isAltScreen(): boolean {
    return this.#activeType() === 'alternate';
  }

  /** Modes currently set by the child (bracketed paste, focus reporting, alt screen, DECCKM, mouse). */
  modes(): TerminalModes {
    return readTerminalModes(this.#term);
  }

  /**
   * The viewport (the live bottom `rows` rows) as lines, per spec-format §9.1. O(rows) on the
   * first call after a change, O(1) after that (cached per `writeSeq`). Do not mutate the result.
   */
  viewportLines(): readonly string[] {
    return this.#readViewport().lines;
  }

  /** `viewportLines()` joined with `\n`. */
  viewportText(): string {
    return this.viewportLines().join('\n');
  }

  /**
   * Number of blank rows dropped from the top of the viewport (0 on the alternate screen; `rows`
   * when the whole viewport is blank). `rawCursor().row - leadingBlankRows() === cursor().row`.
   */
  leadingBlankRows(): number {
    return this.#readViewport().leadingBlankRows;
  }

  /**
   * The cursor with its row in `viewportLines()` coordinates, so `viewportLines()[cursor().row]`
   * is the cursor's line. The row falls outside the lines when the cursor sits on a blank row
   * that the trim removed: negative when it is above all content (a `cursor_above` window is
   * then unmeasurable and counts as changed), `>= viewportLines().length` when it is below all
   * content — the usual idle state of Ink apps, which end each frame with a newline; clamp that
   * to the line count as the reference does (see docs/terminal.md, "Cursor").
   */
  cursor(): CursorPosition {
    const raw = this.rawCursor();
    return { row: raw.row - this.leadingBlankRows(), col: raw.col };
  }

  /** The cursor as xterm reports it: 0-based row within the live viewport, 0-based column. */
  rawCursor(): CursorPosition {
    const active = this.#internals?.buffers.active as (InternalBuffer & { x?: number; y?: number }) | undefined;
    if (active && typeof active.x === 'number' && typeof active.y === 'number') return { row: active.y, col: active.x };
    const buffer = this.#term.buffer.active;
    return { row: buffer.cursorY, col: buffer.cursorX };
  }

  /** Rows above the viewport in the scrollback (0 on the alternate screen). */
  scrollbackLength(): number {
    const buffer = this.#term.buffer.active;
    return buffer.type === 'alternate' ? 0 : buffer.baseY;
  }

  /**
   * Every buffer row (scrollback + viewport), right-trimmed, blank ends dropped; on the alternate
   * screen this equals `viewportLines()`. Cached per `writeSeq`; O(buffer rows) after a change,
   * so prefer {@link scrollbackTailLines} on hot paths.
   */
  scrollbackLines(): readonly string[] {
    if (this.isAltScreen()) return this.viewportLines();
    const cached = this.#scrollback;
    if (cached && cached.seq === this.#writeSeq) return cached.lines;
    const buffer = this.#term.buffer.active;
    const lines = trimBlankEnds(this.#translateRows(0, buffer.length));
    this.#scrollback = { seq: this.#writeSeq, lines };
    return lines;
  }

  /** `scrollbackLines()` joined with `\n`. */
  scrollbackText(): string {
    return this.scrollbackLines().join('\n');
  }

  /**
   * The last `maxLines` lines of `scrollbackLines()` (all of them when there are fewer), computed
   * without translating the whole buffer: O(maxLines) in the usual case. Built for the driver's
   * guard frame (viewport + 200 scrollback lines, spec-format §9.4).
   *
   * @param maxLines - how many lines to return at most (integer ≥ 0).
   */
  scrollbackTailLines(maxLines: number): readonly string[] {
    if (!Number.isInteger(maxLines) || maxLines < 0) {
      throw new TerminalError('TERMINAL_INVALID_ARGUMENT', `scrollbackTailLines: maxLines must be an integer >= 0, got ${String(maxLines)}`, maxLines);
    }
    if (this.isAltScreen()) return maxLines === 0 ? [] : this.viewportLines().slice(-maxLines);
    const cached = this.#tail;
    if (cached && cached.seq === this.#writeSeq && cached.maxLines === maxLines) return cached.lines;
    const lines = this.#computeTail(maxLines);
    this.#tail = { seq: this.#writeSeq, maxLines, lines };
    return lines;
  }

  /**
   * The guard frame (spec-format §9.4): exactly
   * `buildGuardFrame(viewportLines(), scrollbackTailLines(viewportLines().length + GUARD_FRAME_SCROLLBACK_LINES), cursor())`,
   * built in one pass over the row window (no intermediate arrays). Cached per `writeSeq`; when
   * the frame is the viewport, its `lines` is the `viewportLines()` array itself. Do not mutate.
   */
  guardFrame(): GuardFrame {
    return this.#guardEntry().frame;
  }

  /**
   * The cells under the current guard frame (`'guard'`) or `viewportLines()` (`'viewport'`): where
   * each character of a frame row is drawn and how, for `label_continuation` (spec-format §5.2).
   * Rows and text indices are those of that frame's lines; once the screen changes (a write, a
   * resize) every answer is "unknown". Cached per `writeSeq`.
   */
  frameCells(frame: 'guard' | 'viewport'): FrameCells {
    let cached = this.#cells;
    if (!cached || cached.seq !== this.#writeSeq) cached = this.#cells = { seq: this.#writeSeq, guard: null, viewport: null };
    if (frame === 'guard') return (cached.guard ??= new BufferFrameCells(this.#term, this, this.#guardEntry().top));
    return (cached.viewport ??= new BufferFrameCells(this.#term, this, this.#viewportTop()));
  }

  #guardEntry(): { seq: number; frame: GuardFrame; top: number } {
    const cached = this.#guard;
    if (cached && cached.seq === this.#writeSeq) return cached;
    const entry = { seq: this.#writeSeq, ...this.#buildGuardFrame(GUARD_FRAME_SCROLLBACK_LINES) };
    this.#guard = entry;
    return entry;
  }

  /** The buffer row of `viewportLines()[0]`. */
  #viewportTop(): number {
    return this.#baseY() + this.leadingBlankRows();
  }

  #buildGuardFrame(n: number): { frame: GuardFrame; top: number } {
    const viewport = this.viewportLines() as string[];
    const cursor = this.cursor();
    const asViewport = { frame: { lines: viewport, cursor, viewportStartRow: 0 }, top: this.#viewportTop() };
    // The alternate screen has no scrollback: the tail is the viewport, which adds nothing.
    if (this.isAltScreen()) return asViewport;
    const vlen = viewport.length;
    const tail = this.#tailRange(vlen + n);
    if (!tail) return asViewport;
    const { first, last } = tail;
    const extra = last - first + 1 - vlen;
    if (extra <= 0) return asViewport;
    // buildGuardFrame: `n - extra` blank rows, then the whole tail (it holds vlen + extra ≤ vlen + n rows).
    const pad = n - extra;
    const rows = this.#translateRows(first, last + 1);
    const lines = pad === 0 ? rows : new Array<string>(pad).fill('').concat(rows);
    return { frame: { lines, cursor: { row: cursor.row + n, col: cursor.col }, viewportStartRow: n }, top: first - pad };
  }

  /** Releases the emulator. Idempotent; later writes and resizes are ignored. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#responses.clear();
    this.#trimSub?.dispose();
    this.#rows?.clear();
    this.osc.dispose();
    this.#term.dispose();
  }

  #computeTail(maxLines: number): string[] {
    const tail = this.#tailRange(maxLines);
    return tail ? this.#translateRows(tail.first, tail.last + 1) : [];
  }

  /**
   * The buffer rows of the last `maxLines` lines of `scrollbackLines()`: trailing blank rows are
   * skipped, then up to `maxLines` rows taken up to the last non-blank one; their leading blank
   * rows are dropped only when nothing is written above them (the full text's leading trim —
   * usually the row right above is non-blank and the scan stops at once). Null when empty.
   */
  #tailRange(maxLines: number): { first: number; last: number } | null {
    let last = (this.#internals ? this.#internals.buffers.active.lines.length : this.#term.buffer.active.length) - 1;
    while (last >= 0 && this.#rowText(last) === '') last--;
    if (last < 0 || maxLines === 0) return null;
    const start = Math.max(0, last - maxLines + 1);
    let first = start;
    let above = start - 1;
    while (above >= 0 && this.#rowText(above) === '') above--;
    if (above < 0) while (first <= last && this.#rowText(first) === '') first++;
    return first <= last ? { first, last } : null;
  }

  #readViewport(): ViewportCache {
    const cached = this.#viewport;
    if (cached && cached.seq === this.#writeSeq) return cached;
    const rows = this.#term.rows;
    // baseY (not viewportY) is the top of the live bottom screen, whatever the scroll position.
    const baseY = this.#baseY();
    const raw = this.#translateRows(baseY, baseY + rows);
    let result: ViewportCache;
    if (this.#activeType() === 'alternate') {
      result = { seq: this.#writeSeq, lines: raw, leadingBlankRows: 0 };
    } else {
      let first = 0;
      while (first < raw.length && raw[first] === '') first++;
      let end = raw.length;
      while (end > first && raw[end - 1] === '') end--;
      result = { seq: this.#writeSeq, lines: first === 0 && end === raw.length ? raw : raw.slice(first, end), leadingBlankRows: first };
    }
    this.#viewport = result;
    return result;
  }

  #translateRows(from: number, to: number): string[] {
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
    for (let y = from; y < to; y++) lines[y - from] = this.#rowText(y);
    return lines;
  }

  /** Row `y`'s text: from the row window when it holds the row, else from the deep-row cache. */
  #rowText(y: number): string {
    const id = y + this.#trimmed;
    if (this.#freshWindow() && id >= this.#windowFirstId && id < this.#windowEndId) return this.#ring[id % this.#ring.length]!;
    return this.#deepRowText(y);
  }

  /** Brings the row window up to date if a write came since; false without the row caches. */
  #freshWindow(): boolean {
    if (!this.#rows) return false;
    if (this.#windowSeq === this.#writeSeq) return true;
    const trimmed = this.#trimmed;
    const ybase = this.#baseY();
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
      for (let id = Math.max(oldEnd - rows, firstId); id < viewportTop; id++) this.#releaseCells(id % capacity);
    } else {
      // Packed (not a holey `new Array(n)`): frames are slices of it, read in tight loops.
      this.#ring = Array.from({ length: capacity }, () => '');
      if (this.#ringCells.length !== capacity) {
        this.#ringCells = new Array<Buffer | null>(capacity).fill(null);
        this.#ringViews = new Array<RowBytes | null>(capacity).fill(null);
        this.#ringKnown = new Uint8Array(capacity);
      } else {
        for (let k = 0; k < capacity; k++) this.#releaseCells(k);
      }
      for (let id = firstId; id < endId; id++) this.#translateWindowRow(lines, id - trimmed, id % capacity, id >= viewportTop);
    }
    this.#windowFirstId = firstId;
    this.#windowEndId = endId;
    this.#windowSeq = this.#writeSeq;
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
    const known = this.#ringKnown;
    const line = lines.get(y);
    if (!line) {
      this.#releaseCells(k);
      texts[k] = '';
      return;
    }
    const data = line._data;
    const words = CELL_WORDS * line.length;
    if (!data || data.length < words) {
      this.#releaseCells(k);
      texts[k] = xtermRowText(line);
      return;
    }
    const bytes = this.#rowBytes(k, data, words);
    const snap = this.#ringCells[k];
    if (known[k] === 1 && snap!.length === bytes.length && bytes.equals(snap!)) return;
    const text = cellText(line);
    // A combined character's text lives outside the cell words: never reuse such a row.
    if (text === null) {
      this.#releaseCells(k);
      texts[k] = xtermRowText(line);
      return;
    }
    texts[k] = text;
    if (!keepCells) {
      this.#releaseCells(k);
      return;
    }
    // One buffer per slot, overwritten in place: not one per repaint or per row scrolled in.
    if (snap && snap.length === bytes.length) snap.set(bytes);
    else this.#ringCells[k] = this.#takeCells(bytes);
    known[k] = 1;
  }

  /** A copy of `bytes` in a pooled buffer of the same length when there is one. */
  #takeCells(bytes: Buffer): Buffer {
    const pool = this.#cellPool;
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

  /** Forgets slot `k`'s cells, its buffer back to the pool (at most a viewport's worth kept). */
  #releaseCells(k: number): void {
    this.#ringKnown[k] = 0;
    const buffer = this.#ringCells[k];
    if (!buffer) return;
    this.#ringCells[k] = null;
    if (this.#cellPool.length < this.#term.rows) this.#cellPool.push(buffer);
  }

  /** The first `words` cell words of `data` as bytes, the view kept per slot while the row keeps its array. */
  #rowBytes(k: number, data: Uint32Array, words: number): Buffer {
    const known = this.#ringViews[k];
    if (known && known.data === data && known.bytes.length === 4 * words) return known.bytes;
    const bytes = Buffer.from(data.buffer, data.byteOffset, 4 * words);
    this.#ringViews[k] = { data, bytes };
    return bytes;
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
      const text = line ? rowText(line) : '';
      // Only rows above the window are cached here; the window serves the rest.
      if (cache && id < this.#windowFirstId) cache.set(id, text);
      return text;
    }
    return this.#term.buffer.active.getLine(y)?.translateToString(true).trimEnd() ?? '';
  }
}

function trimBlankEnds(lines: string[]): string[] {
  let first = 0;
  while (first < lines.length && lines[first] === '') first++;
  let end = lines.length;
  while (end > first && lines[end - 1] === '') end--;
  return first === 0 && end === lines.length ? lines : lines.slice(first, end);
}
