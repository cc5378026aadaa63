/**
 * Wrapped option labels (spec-format §5.2, `label_continuation`): a label too long for the
 * terminal's width goes on over the rows below its option row, indented under it; a description
 * drawn under an option is indented the same way. The text parse notes, per option row, the rows
 * that may continue its label; the join then keeps those that start under the label and pass the
 * rule's evidence, read from the screen's cells ({@link FrameCells}):
 * - `word_wrap`: the evidence every word-wrapper leaves, colour or not. A wrapped row starts at
 *   the column the label's text starts at (a row in another column — a description column beside
 *   the labels — is not the label), and its first word did not fit at the end of the row above
 *   within the screen's width (had it fitted, the wrapper would have put it there: the row is a
 *   description). Claude Code run with `CI` or `NO_COLOR` draws labels and descriptions alike,
 *   so this is the only evidence there is.
 * - `match_style`: the row is drawn like the text it continues (Claude Code's grey description
 *   under a white or accent label), where the CLI draws colour at all.
 *
 * @module
 */

/**
 * The cells under a frame's text, as far as the screen can tell (the terminal layer implements
 * it; rows and text indices are those of the frame's lines). Pure evaluation never needs it: only
 * `label_continuation` and `skip_headings` (heading-rows.ts) read it; without it labels are judged by their text alone.
 */
export interface FrameCells {
  /** The terminal column where text index `index` of frame row `row` is drawn (wide characters take two); -1 when unknown. */
  columnAt(row: number, index: number): number;
  /**
   * Whether two characters (frame row and text index each) are drawn alike: the same foreground
   * and background colour and the same bold, dim, italic, underline and inverse; null when unknown.
   */
  sameStyle(rowA: number, indexA: number, rowB: number, indexB: number): boolean | null;
  /**
   * Whether two characters are both drawn bold on the same background (the foreground may
   * differ); null when unknown. Read by `skip_headings` (heading-rows.ts); optional, so cells
   * that lack it tell no heading apart.
   */
  boldAlike?(rowA: number, indexA: number, rowB: number, indexB: number): boolean | null;
  /** The column just right of the character at text index `index` of frame row `row` (its column plus its width); -1 when unknown. */
  endColumn(row: number, index: number): number;
  /** The screen's width in columns (where a word-wrapper breaks its lines); -1 when unknown. */
  width(): number;
}

/** A row below an option row that may continue its label (non-blank, indented, not an option row). */
export interface WrapRow {
  /** Line of the haystack. */
  line: number;
  /** Text index of its first and last non-blank character. */
  start: number;
  end: number;
  /** Its text, trimmed. */
  text: string;
}

/** Where an option's label sits on its row, and the rows that may continue it. */
export interface LabelWrap {
  line: number;
  /** Text index of the label's first and last character on its option row. */
  start: number;
  end: number;
  /** Text index of the option row's last non-blank character (a description beside the label ends there). */
  rowEnd: number;
  /** Text indices on the option row where a word of the label starts (a wrapped row may hang under one, e.g. after a `[ ]` box). */
  wordStarts: number[];
  rows: WrapRow[];
}

/** The rows after `lines[from - 1]` that may continue a label: the run of indented, non-blank rows `isOption` rejects. */
export function wrapCandidates(lines: readonly string[], from: number, isOption: (line: string) => boolean): WrapRow[] {
  const rows: WrapRow[] = [];
  for (let i = from; i < lines.length; i += 1) {
    const text = lines[i]!;
    const start = text.search(/\S/);
    if (start <= 0 || isOption(text)) break;
    const trimmed = text.trim();
    rows.push({ line: i, start, end: start + trimmed.length - 1, text: trimmed });
  }
  return rows;
}

/** What decides that a row continues the label above it (`label_continuation`'s options). */
export interface JoinEvidence {
  matchStyle: boolean;
  wordWrap: boolean;
}

/** Where a label sits on its option row: text indices of its first and last character, of the row's last non-blank one, and of the label's words. */
export function labelWrapAt(lineText: string, line: number, start: number, length: number, rows: WrapRow[]): LabelWrap {
  const end = start + length - 1;
  const wordStarts: number[] = [];
  for (let i = start; i <= end; i += 1) if (lineText[i] !== ' ' && (i === start || lineText[i - 1] === ' ')) wordStarts.push(i);
  return { line, start, end, rowEnd: lineText.trimEnd().length - 1, wordStarts, rows };
}

/**
 * The label with the rows that continue it joined by single spaces. A row continues the label
 * while it starts at or right of the label's first column and passes the evidence asked for
 * (see the module comment); the first row that fails ends the label. `rowOffset` turns haystack
 * lines into frame rows. Without cells (a screen given as text alone) evidence cannot be read and
 * nothing is joined: a cut label is safer than a description in it.
 */
export function joinWrappedLabel(label: string, wrap: LabelWrap, evidence: JoinEvidence, cells: FrameCells | undefined, rowOffset: number): string {
  const { matchStyle, wordWrap } = evidence;
  if (wrap.rows.length === 0 || ((matchStyle || wordWrap) && !cells)) return label;
  const at = (line: number, index: number): number => (cells ? cells.columnAt(line + rowOffset, index) : index);
  const labelColumn = at(wrap.line, wrap.start);
  if (labelColumn < 0) return label;
  const width = wordWrap ? cells!.width() : -1;
  if (wordWrap && width <= 0) return label;
  // A wrapped label's rows all start at one column: the label's own or that of one of its words.
  let wrapColumn = -1;
  const wrapColumns = wordWrap ? new Set(wrap.wordStarts.map((i) => at(wrap.line, i))) : undefined;
  let joined = label;
  let prevLine = wrap.line;
  let prevEnd = wrap.end;
  let prevRowEnd = wrap.rowEnd;
  for (const row of wrap.rows) {
    const column = at(row.line, row.start);
    if (column < labelColumn) break;
    if (wordWrap) {
      if (wrapColumn >= 0 ? column !== wrapColumn : !wrapColumns!.has(column)) break;
      if (firstWordFits(cells!, row, column, prevLine + rowOffset, prevRowEnd, rowOffset, width)) break;
      wrapColumn = column;
    }
    if (matchStyle && cells!.sameStyle(row.line + rowOffset, row.start, prevLine + rowOffset, prevEnd) !== true) break;
    joined += ` ${row.text}`;
    prevLine = row.line;
    prevEnd = row.end;
    prevRowEnd = row.end;
  }
  return joined;
}

/**
 * Whether the first word of `row` would have fitted after the last character of the row above
 * (frame row `prevRow`, text index `prevEnd`) with one space between, within `width` columns.
 * Unknown cells count as "fitted": the row is then not joined.
 */
function firstWordFits(cells: FrameCells, row: WrapRow, column: number, prevRow: number, prevEnd: number, rowOffset: number, width: number): boolean {
  const space = row.text.indexOf(' ');
  const wordEnd = cells.endColumn(row.line + rowOffset, row.start + (space < 0 ? row.text.length : space) - 1);
  const after = cells.endColumn(prevRow, prevEnd);
  if (wordEnd < 0 || after < 0) return true;
  return after + 1 + (wordEnd - column) <= width;
}
