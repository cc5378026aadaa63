/**
 * Labels told apart by how they are drawn (spec-format §5.2, `label_style` and `label_column`).
 *
 * OpenCode and Kilo Code draw a list option as its name, one blank, then a muted description on
 * the same row (`OpenCode Go Low cost subscription for everyone`, an MCP server's `connected`), and
 * some dialogs pad the names to the longest so the descriptions form a column. As text the blank
 * between name and description is an ordinary word gap; the cells tell them apart:
 * - `label_style`: a label ends before the first word drawn otherwise than its first letter (a
 *   gutter glyph in front — `✓`, `!` — is drawn in its own colour and does not count). The
 *   highlighted row is drawn in one style throughout, so its own cells cannot tell; when every other
 *   row that has a description starts it in the same column (names padded to the longest: a
 *   description column), the highlighted row's description starts there too.
 * - `label_column: "title"`: options start in the title's column; text elsewhere on a row of the
 *   list (the screen behind the dialog showing through at the right) is no option.
 * Where the cells are unknown (a screen given as text alone) labels and rows stay as the text
 * reads.
 *
 * @module
 */
import type { FrameCells } from './label-continuation.js';
import type { TextPos } from './heading-rows.js';

/** Where a label's own drawing is read: its first letter or digit. */
const LETTER = /[\p{L}\p{N}]/u;

/** How many other rows must agree on a description column before the highlighted row is cut at it. */
const MIN_COLUMN_WITNESSES = 2;

/** A label, where its first character sits in the haystack (null when not recorded) and the text of its row. */
export interface PlacedLabel {
  label: string;
  at: TextPos | null;
  row: string;
}

/** Where the label's first letter or digit is, or -1: where its own drawing is read. */
function letterAt(label: string): number {
  return label.search(LETTER);
}

/**
 * Where the row's description starts (a text index into the row), or -1: the first word after a
 * blank, right of the label's first letter, drawn otherwise than that letter — inside the label
 * (one blank after the name) or past it (a padded column). -1 when the cells cannot tell.
 */
function descriptionAt(r: PlacedLabel, cells: FrameCells, rowOffset: number): number {
  const ref = letterAt(r.label);
  if (ref < 0 || !r.at) return -1;
  const row = r.at.line + rowOffset;
  const from = r.at.index + ref;
  for (let i = from + 1; i < r.row.length; i += 1) {
    if (r.row[i - 1] !== ' ' || r.row[i] === ' ') continue;
    if (cells.sameStyle(row, from, row, i) === false) return i;
  }
  return -1;
}

/**
 * The labels without the descriptions drawn beside them (`label_style`), in order. A row drawn in
 * one style throughout, and otherwise than the names of the rows whose descriptions the cells
 * show (the highlighted one), is cut at the description column when at least
 * {@link MIN_COLUMN_WITNESSES} of those rows start theirs in that same column and none elsewhere,
 * and it has a word starting there after a blank.
 */
export function labelsWithoutDescriptions(rows: readonly PlacedLabel[], cells: FrameCells, rowOffset: number): string[] {
  const starts = rows.map((r) => descriptionAt(r, cells, rowOffset));
  const columns = new Set<number>();
  let witness: TextPos | null = null;
  let witnesses = 0;
  rows.forEach((r, i) => {
    if (starts[i]! < 0 || !r.at) return;
    columns.add(cells.columnAt(r.at.line + rowOffset, starts[i]!));
    witness ??= { line: r.at.line, index: r.at.index + letterAt(r.label) };
    witnesses += 1;
  });
  const column = columns.size === 1 && witnesses >= MIN_COLUMN_WITNESSES ? [...columns][0]! : -1;
  return rows.map((r, i) => {
    if (!r.at) return r.label;
    let cut = starts[i]! - r.at.index;
    if (starts[i]! < 0 && column >= 0 && witness && drawnOtherwise(r, witness, cells, rowOffset)) cut = cutAtColumn(r.label, r.at, cells, rowOffset, column);
    return cut > 0 && cut < r.label.length ? r.label.slice(0, cut).trimEnd() : r.label;
  });
}

/** Whether the row's first letter is drawn otherwise than the witness's name (the highlight, not a plain row without a description). */
function drawnOtherwise(r: PlacedLabel, witness: TextPos, cells: FrameCells, rowOffset: number): boolean {
  const ref = letterAt(r.label);
  return ref >= 0 && cells.sameStyle(r.at!.line + rowOffset, r.at!.index + ref, witness.line + rowOffset, witness.index) === false;
}

/** The text index in `label` of a word starting in terminal column `column` after a blank, or -1. */
function cutAtColumn(label: string, at: TextPos, cells: FrameCells, rowOffset: number, column: number): number {
  const row = at.line + rowOffset;
  for (let i = 1; i < label.length; i += 1) {
    if (label[i - 1] === ' ' && label[i] !== ' ' && cells.columnAt(row, at.index + i) === column) return i;
  }
  return -1;
}

/**
 * Whether the label starting at `at` is drawn in the terminal column of the title character `ref`
 * (`label_column: "title"`). True when either column is unknown: the row stays, as text reads it.
 */
export function startsInTitleColumn(cells: FrameCells, rowOffset: number, ref: TextPos, at: TextPos): boolean {
  const want = cells.columnAt(ref.line + rowOffset, ref.index);
  const got = cells.columnAt(at.line + rowOffset, at.index);
  return want < 0 || got < 0 || want === got;
}
