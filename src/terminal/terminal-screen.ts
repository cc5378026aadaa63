/**
 * The exact picture of the child's screen: an `@xterm/headless` emulator fed synchronously,
 * with the snapshot rules of spec-format §9.1 (viewport and scrollback text, cursor, title, modes).
 * The rows are read through the row window (row-window.ts) and the rules applied in
 * screen-text.ts; this facade owns the emulator and caches each answer per change.
 *
 * @module
 */

import xtermHeadless from '@xterm/headless';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import { TerminalError, assertDimension } from './errors.js';
import { ListenerSet, warnListenerError, type ListenerErrorSink } from './listener-set.js';
import { readTerminalModes, type TerminalModes } from './terminal-modes.js';
import { OscTracker } from './osc-tracker.js';
import type { Disposable } from './transport.js';
import { GUARD_FRAME_SCROLLBACK_LINES, type GuardFrame } from '../core/screen/guard-frame.js';
import type { FrameCells } from '../core/eval/label-continuation.js';
import { BufferFrameCells } from './frame-cells.js';
import { getInternals, getSyncWriteBuffer, isParserAtGround, type InternalBuffer, type SyncWriteBuffer, type XtermInternals } from './xterm-internals.js';
import { RowWindow } from './row-window.js';
import { readAllRows, readGuardFrame, readTailRows, readViewportRows, type ViewportRows } from './screen-text.js';

export { WINDOW_SCROLLBACK_ROWS } from './row-window.js';

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

/** Viewport rows of write `seq`. */
interface ViewportCache extends ViewportRows {
  seq: number;
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
  readonly #internals: XtermInternals | null;
  /** Every row read goes through here: the row window and the deep-row cache. */
  readonly #rowWindow: RowWindow;

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
    this.#rowWindow = new RowWindow(this.#term, this.#internals);
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
    return isParserAtGround(this.#term);
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
    const idsBefore = this.#rowWindow.beginWrite();
    this.#writer.writeSync(data);
    this.#writeSeq++;
    this.#rowWindow.afterWrite(idsBefore);
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
    this.#rowWindow.afterResize();
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
    return this.#rowWindow.activeType() === 'alternate';
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
    const lines = readAllRows(this.#rowWindow, buffer.length);
    this.#scrollback = { seq: this.#writeSeq, lines };
    return lines;
  }

  /**
   * The id of `viewportLines()[0]` — its buffer row plus the rows scrollback overflow trimmed off
   * the top, so an id names the same row however far it scrolls — or null on the alternate
   * screen, whose rows have no history. For reading what was added between two moments.
   */
  viewportTopId(): number | null {
    if (this.isAltScreen()) return null;
    return this.#rowWindow.baseY() + this.#rowWindow.trimmedRows() + this.leadingBlankRows();
  }

  /** Rows with ids `[fromId, toId)` of the normal buffer; `cut` when some were trimmed away already. */
  rowsById(fromId: number, toId: number): { lines: string[]; cut: boolean } {
    const trimmed = this.#rowWindow.trimmedRows();
    const from = Math.max(0, fromId - trimmed);
    const to = Math.min(this.#rowWindow.lineCount(), Math.max(from, toId - trimmed));
    return { lines: this.#rowWindow.translateRows(from, to), cut: fromId < trimmed };
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
    const lines = readTailRows(this.#rowWindow, maxLines);
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
   * each character of a frame row is drawn and how, for `label_continuation` and `skip_headings` (spec-format §5.2).
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
    const viewport = this.viewportLines() as string[];
    const entry = { seq: this.#writeSeq, ...readGuardFrame(this.#rowWindow, viewport, this.cursor(), this.#viewportTop(), GUARD_FRAME_SCROLLBACK_LINES) };
    this.#guard = entry;
    return entry;
  }

  /** The buffer row of `viewportLines()[0]`. */
  #viewportTop(): number {
    return this.#rowWindow.baseY() + this.leadingBlankRows();
  }

  /** Releases the emulator. Idempotent; later writes and resizes are ignored. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#responses.clear();
    this.#rowWindow.dispose();
    this.osc.dispose();
    this.#term.dispose();
  }

  #readViewport(): ViewportCache {
    const cached = this.#viewport;
    if (cached && cached.seq === this.#writeSeq) return cached;
    const result: ViewportCache = { seq: this.#writeSeq, ...readViewportRows(this.#rowWindow, this.#term.rows) };
    this.#viewport = result;
    return result;
  }
}
