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
 * - `mirror_margin`: the wrapper's line ends as far in from the right edge as the option block
 *   starts from the left (an Ink box with `paddingX`, or a border and padding on both sides):
 *   Claude Code's /login wraps `Team,` although it would have ended in column 59 of 60.
 *
 * Inside a box (Gemini CLI's dialogs) every row starts and ends with the border `│`: a row's
 * text is read between the borders, so a wrapped row counts from the first character after
 * the left border and the row above ends at its last character before the right one. A row whose
 * text starts with box drawing (a box's edge, a box nested in it) is never a wrapped row.
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
  /**
   * Whether the character at text index `index` of frame row `row` is drawn so a person cannot
   * see it: concealed (SGR 8) or in its own background colour; null when unknown. Read by an
   * approval's `subject` (extract-subject.ts); optional, so cells that lack it cannot vouch for a subject.
   */
  drawnInvisibly?(row: number, index: number): boolean | null;
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
  /** Whether a blank sits right before the label on its row (a wrapper may hang the label's rows from it). */
  blankBefore: boolean;
  /** Text index of the option row's first character inside a box's border (the block's inset, for `mirror_margin`). */
  rowStart: number;
  /** Text indices on the option row where a word of the label starts (a wrapped row may hang under one, e.g. after a `[ ]` box). */
  wordStarts: number[];
  rows: WrapRow[];
}

/** A vertical box border: `│` (Ink's round and single boxes), `┃` (bold), `║` (double). */
const BORDER = /[│┃║]/;

/** Box drawing (U+2500–U+257F): a row whose text starts with one is a box's edge or a box nested in it, never wrapped text. */
export const BOX_DRAWING = /^[\u2500-\u257f]/;

/**
 * Text indices of a row's first and last character inside a box's borders: a leading border
 * (after blanks, followed by a blank) and a trailing one (after a blank) are not text. -1, -1
 * for a row with no text; `indented` says whether the text starts right of column 0 or of the border.
 */
export function innerSpan(text: string): { start: number; end: number; indented: boolean } {
  let from = 0;
  const lead = text.search(/\S/);
  if (lead < 0) return { start: -1, end: -1, indented: false };
  if (BORDER.test(text[lead]!) && (text[lead + 1] === ' ' || lead + 1 === text.length)) from = lead + 1;
  let to = text.trimEnd().length - 1;
  if (to > from && BORDER.test(text[to]!) && text[to - 1] === ' ') to -= 1;
  const rest = text.slice(from, to + 1);
  const start = rest.search(/\S/);
  if (start < 0) return { start: -1, end: -1, indented: false };
  return { start: from + start, end: from + rest.trimEnd().length - 1, indented: from > 0 || start > 0 };
}

/**
 * The rows after `lines[from - 1]` that may continue a label: the run of indented, non-blank rows
 * `isOption` rejects (indented inside a box's border where the row has one; a row holding only
 * borders is blank).
 */
export function wrapCandidates(lines: readonly string[], from: number, isOption: (line: string) => boolean): WrapRow[] {
  const rows: WrapRow[] = [];
  for (let i = from; i < lines.length; i += 1) {
    const text = lines[i]!;
    const { start, end, indented } = innerSpan(text);
    if (start < 0 || !indented || BOX_DRAWING.test(text.slice(start)) || isOption(text)) break;
    rows.push({ line: i, start, end, text: text.slice(start, end + 1) });
  }
  return rows;
}

/** What decides that a row continues the label above it (`label_continuation`'s options). */
export interface JoinEvidence {
  matchStyle: boolean;
  wordWrap: boolean;
  /** Columns the wrapper leaves free at the right edge (`mirror_margin`: the option block's inset; else 0). */
  rightMargin?: number;
}

/** Where a label sits on its option row: text indices of its first and last character, of the row's last non-blank one, and of the label's words. */
export function labelWrapAt(lineText: string, line: number, start: number, length: number, rows: WrapRow[]): LabelWrap {
  const end = start + length - 1;
  const wordStarts: number[] = [];
  for (let i = start; i <= end; i += 1) if (lineText[i] !== ' ' && (i === start || lineText[i - 1] === ' ')) wordStarts.push(i);
  const inner = innerSpan(lineText);
  return { line, start, end, blankBefore: start > 0 && lineText[start - 1] === ' ', rowStart: inner.start, rowEnd: Math.max(inner.end, end), wordStarts, rows };
}

/**
 * The label with the rows that continue it joined by single spaces. A row continues the label
 * while it starts at or right of the label's first column (with word_wrap, of the blank before it)
 * and passes the evidence asked for (see the module comment); the first row that fails ends the
 * label. `rowOffset` turns haystack lines into frame rows. Without cells (a screen given as text
 * alone) evidence cannot be read and nothing is joined: a cut label is safer than a description in it.
 */
export function joinWrappedLabel(label: string, wrap: LabelWrap, evidence: JoinEvidence, cells: FrameCells | undefined, rowOffset: number): string {
  const { matchStyle, wordWrap } = evidence;
  if (wrap.rows.length === 0 || ((matchStyle || wordWrap) && !cells)) return label;
  const at = (line: number, index: number): number => (cells ? cells.columnAt(line + rowOffset, index) : index);
  const labelColumn = at(wrap.line, wrap.start);
  if (labelColumn < 0) return label;
  // Gemini CLI draws a label with a leading blank ("1.  Vitest …") and wraps it from that blank,
  // one column left of the label; with word_wrap that column counts as the label's too.
  const hangColumn = wordWrap && wrap.blankBefore ? labelColumn - 1 : labelColumn;
  const width = wordWrap ? cells!.width() - (evidence.rightMargin ?? 0) : -1;
  if (wordWrap && width <= 0) return label;
  // A wrapped label's rows all start at one column: the label's own or that of one of its words.
  let wrapColumn = -1;
  const wrapColumns = wordWrap ? new Set([hangColumn, ...wrap.wordStarts.map((i) => at(wrap.line, i))]) : undefined;
  let joined = label;
  let prevLine = wrap.line;
  let prevEnd = wrap.end;
  let prevRowEnd = wrap.rowEnd;
  for (const row of wrap.rows) {
    const column = at(row.line, row.start);
    if (column < hangColumn) break;
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

/**
 * `mirror_margin`: the columns the option block is inset from the left edge (its rows' least
 * first column inside a box's border, a border counting as inset) — what a wrapper with
 * symmetric padding leaves free at the right. 0 when the cells are unknown.
 */
export function blockInset(wraps: readonly (LabelWrap | null)[], cells: FrameCells | undefined, rowOffset: number): number {
  let inset = Infinity;
  for (const w of wraps) {
    if (!w || w.rowStart < 0 || !cells) continue;
    const column = cells.columnAt(w.line + rowOffset, w.rowStart);
    if (column >= 0) inset = Math.min(inset, column);
  }
  return Number.isFinite(inset) ? inset : 0;
}
