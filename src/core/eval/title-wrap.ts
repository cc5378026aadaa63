/**
 * Wrapped titles (spec-format §5.1, `join_wrapped`): a question too long for its dialog goes on
 * over two or more rows, and a title regex anchored on the question's end (`…?` above the
 * options) captures only its last row. Gemini CLI's MCP confirmation at 60 columns reads
 * `"lab-tools"?` where the screen shows `Allow execution of MCP tool "deploy_preview" from
 * server "lab-tools"?`. The rows above the matched row are prepended while a word-wrapper made
 * them: each starts at the matched row's text column (inside a box's border where the row has
 * one) and the first word of the row below it would not have fitted at its end — had it fitted,
 * the wrapper would have put it there, so the row is a line of its own (Gemini's
 * `(press Ctrl+O to expand MCP tool details)` above the question). A row whose text starts with
 * box drawing (the edge of the command's box nested above a shell question) ends the title.
 *
 * The width a row may fill: inside a box, up to the right border less the padding the row has
 * on the left (Ink pads a box alike on both sides); outside one, the screen's width less the
 * row's indent. Columns come from the screen's cells ({@link FrameCells}); without them (a
 * screen given as text alone) nothing is joined: a cut title rather than a wrong one.
 *
 * @module
 */
import { BOX_DRAWING, innerSpan, type FrameCells } from './label-continuation.js';

/** A row's text span in cells: first column, end column (just right of its last character) and the last column it may fill (exclusive). */
interface RowSpan {
  text: string;
  column: number;
  end: number;
  limit: number;
  /** End column of its first word. */
  firstWordEnd: number;
}

function rowSpan(lines: readonly string[], line: number, cells: FrameCells, rowOffset: number): RowSpan | null {
  const raw = lines[line];
  if (raw === undefined) return null;
  const { start, end } = innerSpan(raw);
  if (start < 0 || BOX_DRAWING.test(raw.slice(start))) return null;
  const row = line + rowOffset;
  const column = cells.columnAt(row, start);
  const endColumn = cells.endColumn(row, end);
  const text = raw.slice(start, end + 1);
  const space = text.indexOf(' ');
  const firstWordEnd = cells.endColumn(row, start + (space < 0 ? text.length : space) - 1);
  if (column < 0 || endColumn < 0 || firstWordEnd < 0) return null;
  const lead = raw.search(/\S/);
  const rightBorder = raw.trimEnd().length - 1;
  const boxed = lead < start && rightBorder > end && /[│┃║]/.test(raw[rightBorder]!);
  let limit: number;
  if (boxed) {
    const leftBorder = cells.columnAt(row, lead);
    const rightColumn = cells.columnAt(row, rightBorder);
    if (leftBorder < 0 || rightColumn < 0) return null;
    limit = rightColumn - (column - leftBorder - 1);
  } else {
    const width = cells.width();
    if (width <= 0) return null;
    limit = width - column;
  }
  return { text, column, end: endColumn, limit, firstWordEnd };
}

/**
 * `title` with the rows a word-wrapper broke off above it joined in front (single spaces).
 * `line` is the haystack line holding the title's first character; `rowOffset` turns haystack
 * lines into frame rows.
 */
export function joinWrappedTitle(title: string, lines: readonly string[], line: number, cells: FrameCells | undefined, rowOffset: number): string {
  if (!cells) return title;
  let below = rowSpan(lines, line, cells, rowOffset);
  if (!below) return title;
  let joined = title;
  for (let i = line - 1; i >= 0; i -= 1) {
    const row = rowSpan(lines, i, cells, rowOffset);
    if (!row || row.column !== below.column) break;
    // The first word of the row below, one space after this row's end: would it have fitted?
    if (row.end + 1 + (below.firstWordEnd - below.column) <= row.limit) break;
    joined = `${row.text} ${joined}`;
    below = row;
  }
  return joined;
}
