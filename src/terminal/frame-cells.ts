/**
 * The cells under a frame of the headless screen: where a character of a frame row is drawn and
 * how (colours and attributes). The evaluation core reads text; `label_continuation` also needs to
 * tell a wrapped label's next row from a description drawn under it — by the column it starts at,
 * whether its first word would have fitted on the row above within the screen's width, and its
 * colour (spec-format §5.2) — and reads that here through the core's {@link FrameCells}.
 *
 * @module
 */
import type { Terminal as XtermTerminal, IBufferCell, IBufferLine } from '@xterm/headless';
import type { FrameCells } from '../core/eval/label-continuation.js';

/** What the cells need of the screen: its change counter, so a frame read after a later write answers "unknown". */
export interface WriteCounter {
  readonly writeSeq: number;
}

/**
 * A frame's cells: frame row `r` is buffer row `top + r` of the active buffer as it stood at
 * write `seq`. After any later write (or resize) every answer is "unknown" (-1 / null).
 */
export class BufferFrameCells implements FrameCells {
  readonly #term: XtermTerminal;
  readonly #screen: WriteCounter;
  readonly #seq: number;
  readonly #top: number;
  #a: IBufferCell | undefined;
  #b: IBufferCell | undefined;

  constructor(term: XtermTerminal, screen: WriteCounter, top: number) {
    this.#term = term;
    this.#screen = screen;
    this.#seq = screen.writeSeq;
    this.#top = top;
  }

  columnAt(row: number, index: number): number {
    return this.#cellOf(row, index)?.x ?? -1;
  }

  endColumn(row: number, index: number): number {
    const at = this.#cellOf(row, index);
    return at ? at.x + at.width : -1;
  }

  width(): number {
    return this.#screen.writeSeq === this.#seq ? this.#term.cols : -1;
  }

  sameStyle(rowA: number, indexA: number, rowB: number, indexB: number): boolean | null {
    if (!this.#loadPair(rowA, indexA, rowB, indexB)) return null;
    const a = this.#a!;
    const b = this.#b!;
    return a.getFgColorMode() === b.getFgColorMode() && a.getFgColor() === b.getFgColor()
      && a.getBgColorMode() === b.getBgColorMode() && a.getBgColor() === b.getBgColor()
      && a.isBold() === b.isBold() && a.isDim() === b.isDim() && a.isItalic() === b.isItalic()
      && a.isUnderline() === b.isUnderline() && a.isInverse() === b.isInverse();
  }

  boldAlike(rowA: number, indexA: number, rowB: number, indexB: number): boolean | null {
    if (!this.#loadPair(rowA, indexA, rowB, indexB)) return null;
    const a = this.#a!;
    const b = this.#b!;
    return a.isBold() !== 0 && b.isBold() !== 0 && a.getBgColorMode() === b.getBgColorMode() && a.getBgColor() === b.getBgColor();
  }

  drawnInvisibly(row: number, index: number): boolean | null {
    const col = this.columnAt(row, index);
    const cell = col < 0 ? undefined : this.#line(row)?.getCell(col, this.#a);
    if (!cell) return null;
    this.#a = cell;
    if (cell.isInvisible() !== 0) return true;
    // Default on default is the terminal's own pair, which differs; an explicit colour equal to
    // the background (inverse swaps both, so it stays equal) hides the text.
    if (cell.isFgDefault() || cell.isBgDefault()) return false;
    return cell.getFgColorMode() === cell.getBgColorMode() && cell.getFgColor() === cell.getBgColor();
  }

  /** Loads the cells under the two text positions into the reused `#a` / `#b`; false when either is unknown. */
  #loadPair(rowA: number, indexA: number, rowB: number, indexB: number): boolean {
    const colA = this.columnAt(rowA, indexA);
    const colB = this.columnAt(rowB, indexB);
    if (colA < 0 || colB < 0) return false;
    const a = this.#line(rowA)?.getCell(colA, this.#a);
    if (a) this.#a = a;
    const b = this.#line(rowB)?.getCell(colB, this.#b);
    if (b) this.#b = b;
    return !!a && !!b;
  }

  /** The cell under text index `index` of frame row `row`: its column and width (a wide character takes two); undefined when unknown. */
  #cellOf(row: number, index: number): { x: number; width: number } | undefined {
    const line = this.#line(row);
    if (!line || !Number.isInteger(index) || index < 0) return undefined;
    // The row's text is built as xterm's translateToString builds it: each cell's characters (a
    // blank cell is one space), a wide character once for both its cells.
    let pos = 0;
    // Cells past the terminal's right edge (an alternate-screen row kept at its old width) are on no screen.
    const end = Math.min(line.length, this.#term.cols);
    for (let x = 0; x < end;) {
      const cell = (this.#a = line.getCell(x, this.#a));
      if (!cell) return undefined;
      const chars = cell.getChars() || ' ';
      const width = cell.getWidth() || 1;
      if (index < pos + chars.length) return { x, width };
      pos += chars.length;
      x += width;
    }
    return undefined;
  }

  /** The buffer line under frame row `row`, or undefined when unknown (a later write, outside the buffer). */
  #line(row: number): IBufferLine | undefined {
    if (this.#screen.writeSeq !== this.#seq || !Number.isInteger(row)) return undefined;
    const y = this.#top + row;
    return y < 0 ? undefined : this.#term.buffer.active.getLine(y);
  }
}
