/**
 * A headless terminal's screen as the escape sequences that redraw it in a fresh terminal of the
 * same size: every row of the scrollback and the screen (characters, colours, attributes, which
 * rows continue the one above), the alternate screen when it is showing, the cursor, the current
 * pen and the input modes. The terminal stream's snapshots and `GET …/screen?format=ansi` use it.
 *
 * Why not @xterm/addon-serialize 0.14.0: a viewer joining at a random moment saw a different
 * screen. It leaves a `-` on an emptied row whose next row continues it (`CSI 0 C` moves one
 * column), drops a continued row that holds nothing (it trusts text that is not there to make
 * the wrap), and puts the cursor back one column off after a character in the last column.
 *
 * How rows are drawn: left to right, empty cells skipped (or erased with their background), rows
 * separated by CR LF in the default pen (a line that scrolls in takes the pen's background). A
 * row that continues the one above is made by printing past the end of that row, as the program
 * did: a placeholder in the last column when that cell is empty, another in column 0 of the new
 * row, both erased again with their own background.
 *
 * Not carried (as before): the saved cursor (DECSC / `?1049h`), charsets, the scroll region, tab
 * stops, underline styles and colours (drawn as a plain underline), hyperlinks; nor the mark on the
 * buffer's first row that it continues a row above it (gone: `CSI S` deletes the top row).
 * @module
 */
import type { IBuffer, IBufferCell, IBufferLine, Terminal } from '@xterm/headless';

export interface SerializeScreenOptions {
  /** Scrollback rows to include above the screen (all of them when omitted). */
  scrollback?: number;
}

/** The pen: what a cell's attributes and an xterm pen (`_curAttrData`) have in common. */
type Pen = Pick<IBufferCell, 'isBold' | 'isDim' | 'isItalic' | 'isUnderline' | 'isBlink' | 'isInverse' | 'isInvisible' | 'isStrikethrough' | 'isOverline' | 'getFgColorMode' | 'getFgColor' | 'getBgColorMode' | 'getBgColor' | 'isFgRGB' | 'isFgPalette' | 'isBgRGB' | 'isBgPalette'>;

const CSI = '\x1b[';
const DEFAULT_PEN = `${CSI}0m`;

function colour(pen: Pen, ground: 'fg' | 'bg'): string[] {
  const rgb = ground === 'fg' ? pen.isFgRGB() : pen.isBgRGB();
  const palette = ground === 'fg' ? pen.isFgPalette() : pen.isBgPalette();
  const value = ground === 'fg' ? pen.getFgColor() : pen.getBgColor();
  const base = ground === 'fg' ? 30 : 40;
  if (rgb) return [String(base + 8), '2', String((value >> 16) & 0xff), String((value >> 8) & 0xff), String(value & 0xff)];
  if (!palette) return [];
  if (value < 8) return [String(base + value)];
  if (value < 16) return [String(base + 60 + value - 8)];
  return [String(base + 8), '5', String(value)];
}

/** The SGR that sets exactly this pen from any other. */
function penSgr(pen: Pen): string {
  const params = ['0'];
  if (pen.isBold()) params.push('1');
  if (pen.isDim()) params.push('2');
  if (pen.isItalic()) params.push('3');
  if (pen.isUnderline()) params.push('4');
  if (pen.isBlink()) params.push('5');
  if (pen.isInverse()) params.push('7');
  if (pen.isInvisible()) params.push('8');
  if (pen.isStrikethrough()) params.push('9');
  if (pen.isOverline()) params.push('53');
  params.push(...colour(pen, 'fg'), ...colour(pen, 'bg'));
  return `${CSI}${params.join(';')}m`;
}

/** A cell with no character (not the second half of a wide one). */
const isEmpty = (cell: IBufferCell | undefined): boolean => !cell || (cell.getCode() === 0 && cell.getWidth() !== 0);

/** The attribute flags of a pen as bits, for telling two pens apart cheaply. */
function flagBits(pen: Pen): number {
  return (pen.isBold() ? 1 : 0) | (pen.isDim() ? 2 : 0) | (pen.isItalic() ? 4 : 0) | (pen.isUnderline() ? 8 : 0) | (pen.isBlink() ? 16 : 0)
    | (pen.isInverse() ? 32 : 0) | (pen.isInvisible() ? 64 : 0) | (pen.isStrikethrough() ? 128 : 0) | (pen.isOverline() ? 256 : 0);
}

/**
 * `penSgr` for cell after cell, rebuilt only when a cell's pen differs from the one before (most
 * neighbours share theirs). A colour is its mode (multiples of 2^24) plus its value, one number.
 */
class PenReader {
  #fg = NaN;
  #bg = NaN;
  #sgr = DEFAULT_PEN;

  of(cell: IBufferCell): string {
    const fg = (cell.getFgColorMode() + cell.getFgColor()) * 512 + flagBits(cell);
    const bg = cell.getBgColorMode() + cell.getBgColor();
    if (fg !== this.#fg || bg !== this.#bg) {
      this.#fg = fg;
      this.#bg = bg;
      this.#sgr = penSgr(cell);
    }
    return this.#sgr;
  }
}

const hasBackground = (cell: IBufferCell | undefined): boolean => !!cell && (cell.isBgRGB() || cell.isBgPalette());

/** Writes one buffer's rows, tracking the cursor column and the pen as the viewer will have them. */
class RowWriter {
  out = '';
  #pen = DEFAULT_PEN;
  /** The viewer's cursor column; `cols` means waiting to wrap. */
  #x = 0;
  readonly #cols: number;
  readonly #buffer: IBuffer;
  readonly #cell: IBufferCell;
  readonly #pens = new PenReader();

  constructor(buffer: IBuffer, cols: number) {
    this.#buffer = buffer;
    this.#cols = cols;
    this.#cell = buffer.getNullCell();
  }

  pen(sgr: string): void {
    if (sgr !== this.#pen) this.out += sgr;
    this.#pen = sgr;
  }

  rows(start: number, end: number): void {
    for (let y = start; y <= end; y++) {
      const continued = y > start && this.#buffer.getLine(y)?.isWrapped === true;
      if (y > start && !continued) this.#newLine();
      if (continued) this.#continueRow(y);
      this.#row(y, continued);
    }
  }

  /** The cursor to column `x` of the row it is on. */
  column(x: number): void {
    if (x === this.#x) return;
    this.out += x > this.#x && this.#x < this.#cols ? `${CSI}${x - this.#x}C` : `${CSI}${x + 1}G`;
    this.#x = x;
  }

  #newLine(): void {
    this.pen(DEFAULT_PEN);
    this.out += '\r\n';
    this.#x = 0;
  }

  /** Makes row `y` continue row `y - 1` by printing past its end (see the module comment). */
  #continueRow(y: number): void {
    const last = this.#buffer.getLine(y - 1)?.getCell(this.#cols - 1);
    const placeholderAbove = this.#x < this.#cols;
    this.pen(DEFAULT_PEN);
    if (placeholderAbove) {
      this.column(this.#cols - 1);
      this.out += ' ';
    }
    // Wraps (the row is marked as continued) and leaves a placeholder in column 0, erased below.
    this.out += ` ${CSI}D`;
    this.#x = 0;
    if (placeholderAbove) {
      if (last) this.pen(penSgr(last));
      this.out += `${CSI}A${CSI}${this.#cols}G${CSI}X${CSI}B${CSI}G`;
    }
  }

  #row(y: number, placeholderAtStart: boolean): void {
    const line = this.#buffer.getLine(y);
    if (!line) return;
    // One cell object, reloaded for each column: a snapshot reads every cell of the scrollback.
    const cell = this.#cell;
    let x = 0;
    while (x < this.#cols && line.getCell(x, cell)) {
      if (cell.getWidth() === 0) { x += 1; continue; }
      if (!isEmpty(cell)) {
        this.column(x);
        this.pen(this.#pens.of(cell));
        this.out += cell.getChars();
        x += cell.getWidth();
        this.#x = x;
        continue;
      }
      // A run of empty cells with one background: skipped, or erased when it has a background
      // (or covers the placeholder in column 0).
      const run = x;
      const background = this.#pens.of(cell);
      const coloured = hasBackground(cell);
      x += 1;
      while (x < this.#cols && line.getCell(x, cell) && isEmpty(cell) && this.#pens.of(cell) === background) x += 1;
      if (coloured || (placeholderAtStart && run === 0)) {
        this.column(run);
        this.pen(background);
        this.out += `${CSI}${x - run}X`;
      }
    }
  }
}

/** Where the cursor waits to wrap: the cell it waits behind, or null when it does not wait. */
function waitingCell(buffer: IBuffer, cols: number): { x: number; cell: IBufferCell | undefined; line: IBufferLine | undefined } | null {
  if (buffer.cursorX < cols) return null;
  const line = buffer.getLine(buffer.baseY + buffer.cursorY);
  const x = line?.getCell(cols - 1)?.getWidth() === 0 ? cols - 2 : cols - 1;
  return { x, cell: line?.getCell(x), line };
}

/** Whether every cell of `line` is empty in `cell`'s pen (asked only when the waiting cell is empty). */
function blankIn(line: IBufferLine | undefined, cell: IBufferCell | undefined, cols: number): boolean {
  const pen = cell ? penSgr(cell) : DEFAULT_PEN;
  for (let i = 0; i < cols; i++) {
    const other = line?.getCell(i);
    if (!isEmpty(other) || (other ? penSgr(other) : DEFAULT_PEN) !== pen) return false;
  }
  return true;
}

/**
 * True when {@link serializeScreen} redraws `term` exactly. The one state it cannot: the cursor
 * waiting to wrap behind an emptied last cell on a row that holds something else (a scroll moved
 * such a row under it). No sequence empties that cell and leaves the cursor waiting without
 * erasing the whole row, so the redraw puts a blank in it: the same look, but a character where
 * the screen has none. The terminal stream waits for the next output instead.
 */
export function redrawsExactly(term: Terminal): boolean {
  const waiting = waitingCell(term.buffer.active, term.cols);
  return !waiting || !isEmpty(waiting.cell) || blankIn(waiting.line, waiting.cell, term.cols);
}

/**
 * The cursor where `buffer` has it. Waiting to wrap (a character just filled the last column)
 * is reproduced by printing that character again; when the cell was emptied since, by printing
 * a blank, then erasing the row (EL 1 leaves the cursor waiting) when the row is blank in that
 * pen (see {@link redrawsExactly} for the other case). `keepWaiting` false: the position alone,
 * for the normal screen under the alternate one (`?1049l` puts the cursor in the last column).
 */
function placeCursor(writer: RowWriter, buffer: IBuffer, cols: number, keepWaiting: boolean): void {
  const { cursorX, cursorY } = buffer;
  writer.out += `${CSI}${cursorY + 1};${Math.min(cursorX, cols - 1) + 1}H`;
  const waiting = keepWaiting ? waitingCell(buffer, cols) : null;
  if (!waiting?.cell) return;
  const { x, cell, line } = waiting;
  writer.out += `${CSI}${x + 1}G`;
  writer.pen(penSgr(cell));
  if (!isEmpty(cell)) {
    writer.out += cell.getChars();
    return;
  }
  writer.out += ' ';
  if (blankIn(line, cell, cols)) writer.out += `${CSI}1K`;
}

function serializeBuffer(buffer: IBuffer, term: Terminal, scrollback: number | undefined): RowWriter {
  const writer = new RowWriter(buffer, term.cols);
  const start = scrollback === undefined ? 0 : Math.max(0, buffer.length - term.rows - scrollback);
  writer.rows(start, buffer.length - 1);
  return writer;
}

function modes(term: Terminal): string {
  const m = term.modes;
  let out = '';
  if (m.applicationCursorKeysMode) out += `${CSI}?1h`;
  if (m.applicationKeypadMode) out += `${CSI}?66h`;
  if (m.bracketedPasteMode) out += `${CSI}?2004h`;
  if (m.reverseWraparoundMode) out += `${CSI}?45h`;
  if (m.sendFocusMode) out += `${CSI}?1004h`;
  if (!m.wraparoundMode) out += `${CSI}?7l`;
  const mouse = { none: '', x10: '9', vt200: '1000', drag: '1002', any: '1003' }[m.mouseTrackingMode];
  if (mouse) out += `${CSI}?${mouse}h`;
  // Last: in insert mode every character written above would have pushed the row right.
  if (m.insertMode) out += `${CSI}4h`;
  return out;
}

/** The pen programs write with now (xterm 6.0.0 keeps it private); null when it cannot be read. */
function currentPen(term: Terminal): Pen | null {
  const pen = (term as unknown as { _core?: { _inputHandler?: { _curAttrData?: Partial<Pen> } } })._core?._inputHandler?._curAttrData;
  return pen && typeof pen.isBold === 'function' && typeof pen.getFgColorMode === 'function' ? pen as Pen : null;
}

/** `term`'s screen as the bytes that redraw it in a fresh terminal of the same size (see the module comment). */
export function serializeScreen(term: Terminal, options: SerializeScreenOptions = {}): string {
  const normal = serializeBuffer(term.buffer.normal, term, options.scrollback);
  let out: RowWriter = normal;
  if (term.buffer.active.type === 'alternate') {
    // `?1049h` saves the cursor it leaves: the normal screen's, as the program left it.
    placeCursor(normal, term.buffer.normal, term.cols, false);
    normal.pen(DEFAULT_PEN);
    const alternate = serializeBuffer(term.buffer.alternate, term, 0);
    alternate.out = `${normal.out}${CSI}?1049h${CSI}H${alternate.out}`;
    out = alternate;
  }
  if (term.modes.originMode) out.out += `${CSI}?6h`;
  placeCursor(out, term.buffer.active, term.cols, true);
  const pen = currentPen(term);
  out.pen(pen ? penSgr(pen) : DEFAULT_PEN);
  return out.out + modes(term);
}
