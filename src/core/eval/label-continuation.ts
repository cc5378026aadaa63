/**
 * Wrapped option labels (spec-format §5.2, `label_continuation`): a label too long for the
 * terminal's width goes on over the rows below its option row, indented under it; a description
 * drawn under an option is indented the same way but drawn differently (Claude Code: grey under a
 * white or accent label). The text parse notes, per option row, the rows that may continue its
 * label; the join then keeps those that start under the label and — with `match_style` — are
 * drawn like the text they continue, read from the screen's cells ({@link FrameCells}).
 *
 * @module
 */

/**
 * The cells under a frame's text, as far as the screen can tell (the terminal layer implements
 * it; rows and text indices are those of the frame's lines). Pure evaluation never needs it: only
 * `label_continuation` reads it, and without it labels are judged by their text alone.
 */
export interface FrameCells {
  /** The terminal column where text index `index` of frame row `row` is drawn (wide characters take two); -1 when unknown. */
  columnAt(row: number, index: number): number;
  /**
   * Whether two characters (frame row and text index each) are drawn alike: the same foreground
   * and background colour and the same bold, dim, italic, underline and inverse; null when unknown.
   */
  sameStyle(rowA: number, indexA: number, rowB: number, indexB: number): boolean | null;
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

/**
 * The label with the rows that continue it joined by single spaces. A row continues the label
 * while it starts at or right of the label's first column and, with `matchStyle`, its first
 * character is drawn like the last character of the row above; the first row that fails ends
 * the label. `rowOffset` turns haystack lines into frame rows. With `matchStyle` and no cells (a
 * screen given as text alone) nothing is joined: a cut label is safer than a description in it.
 */
export function joinWrappedLabel(label: string, wrap: LabelWrap, matchStyle: boolean, cells: FrameCells | undefined, rowOffset: number): string {
  if (wrap.rows.length === 0 || (matchStyle && !cells)) return label;
  const labelColumn = cells ? cells.columnAt(wrap.line + rowOffset, wrap.start) : wrap.start;
  if (labelColumn < 0) return label;
  let joined = label;
  let prevLine = wrap.line;
  let prevEnd = wrap.end;
  for (const row of wrap.rows) {
    const column = cells ? cells.columnAt(row.line + rowOffset, row.start) : row.start;
    if (column < labelColumn) break;
    if (matchStyle && cells!.sameStyle(row.line + rowOffset, row.start, prevLine + rowOffset, prevEnd) !== true) break;
    joined += ` ${row.text}`;
    prevLine = row.line;
    prevEnd = row.end;
  }
  return joined;
}
