/**
 * A buffer row's text straight from xterm's cell words: exactly
 * `line.translateToString(true).trimEnd()`, in one flat string.
 *
 * xterm builds the string cell by cell with `+=`, which costs about twice as much and leaves a
 * rope of one-character pieces that the first regex run has to flatten again. Rows are
 * translated on every evaluation that follows a repaint, so this is on the hot path. The cell
 * layout is that of @xterm/headless 6.0.0 (pinned); `row-text.test.ts` checks the equality on
 * random content, wide and combined characters included.
 *
 * @module
 */

/** xterm 6.0.0 content word: bits 0–20 code point, bit 21 "combined string", bits 22–23 width. */
const CODEPOINT_MASK = 0x1fffff;
const IS_COMBINED_MASK = 0x200000;
const HAS_CONTENT_MASK = 0x3fffff;
const WIDTH_SHIFT = 22;
/** Words per cell in `BufferLine._data` (content, foreground, background). */
export const CELL_WORDS = 3;

/** The parts of xterm's internal BufferLine a row's text is made of. */
export interface CellLine {
  readonly length: number;
  readonly _data?: Uint32Array;
  translateToString(trimRight: boolean): string;
}

/** Code units of the row being built (reused: translation is synchronous). */
let units = new Uint16Array(512);
/** `units.subarray(0, n)` by n, made once per length (a view per row was measurable garbage). */
let views: Uint16Array[] = [];

function unitsView(n: number): Uint16Array {
  return (views[n] ??= units.subarray(0, n));
}

/** `line.translateToString(true).trimEnd()`, built from the cell words when they are readable. */
export function rowText(line: CellLine): string {
  return cellText(line) ?? xtermRowText(line);
}

/** The row's text as xterm builds it: for a row whose cells do not tell it ({@link cellText} gave null). */
export function xtermRowText(line: CellLine): string {
  return line.translateToString(true).trimEnd();
}

/**
 * The row's text as {@link rowText} gives it, from the cell words alone — or null when they do
 * not tell it: unreadable words, or a combined character (its text lives outside the cells). A
 * caller that keeps rows by their cells learns from the null that this row cannot be kept so.
 */
export function cellText(line: CellLine): string | null {
  const data = line._data;
  const cols = line.length;
  if (!data || typeof cols !== 'number' || data.length < cols * CELL_WORDS) return null;
  // translateToString(true) stops at the last cell with content (plus its width).
  let end = 0;
  for (let c = cols - 1; c >= 0; c -= 1) {
    const w = data[c * CELL_WORDS]!;
    if (w & HAS_CONTENT_MASK) {
      end = Math.min(cols, c + (w >> WIDTH_SHIFT));
      break;
    }
  }
  if (end === 0) return '';
  if (units.length < 2 * end) {
    units = new Uint16Array(2 * end);
    views = [];
  }
  let n = 0;
  for (let c = 0; c < end; ) {
    const w = data[c * CELL_WORDS]!;
    // A combined character's text lives outside the cell words.
    if (w & IS_COMBINED_MASK) return null;
    const cp = w & CODEPOINT_MASK;
    if (cp === 0) {
      units[n++] = 0x20; // an empty cell reads as a space, as in xterm
    } else if (cp > 0xffff) {
      const v = cp - 0x10000;
      units[n++] = 0xd800 + (v >> 10);
      units[n++] = 0xdc00 + (v & 0x3ff);
    } else {
      units[n++] = cp;
    }
    c += w >> WIDTH_SHIFT || 1;
  }
  return String.fromCharCode.apply(null, unitsView(n) as unknown as number[]).trimEnd();
}
