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

import { Buffer } from 'node:buffer';

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
  translateToString(trimRight: boolean, startCol?: number, endCol?: number): string;
}

/**
 * The row being built, reused (translation is synchronous): one byte a character while every
 * code unit fits in Latin-1 (nearly every row: a one-byte string), two from the first that does
 * not. The string is sliced straight out of these bytes: `String.fromCharCode.apply` over a view
 * first copies the units into an argument list of 8 bytes each — at 100 streaming sessions the
 * row window's largest allocation (3.6 MB/s, docs/performance.md).
 */
let latin1 = Buffer.alloc(512);
let utf16 = Buffer.alloc(1024);
const utf16Units = () => new Uint16Array(utf16.buffer, utf16.byteOffset, utf16.length >> 1);
let units = utf16Units();

/** JavaScript's `trimEnd` whitespace among UTF-16 code units (ECMA-262 WhiteSpace and LineTerminator). */
function isTrimmedSpace(u: number): boolean {
  if (u <= 0x20) return u === 0x20 || (u >= 0x09 && u <= 0x0d);
  if (u < 0xa0) return false;
  return u === 0xa0 || u === 0x1680 || (u >= 0x2000 && u <= 0x200a) || u === 0x2028 || u === 0x2029
    || u === 0x202f || u === 0x205f || u === 0x3000 || u === 0xfeff;
}

/**
 * `line.translateToString(true, 0, cols).trimEnd()`, built from the cell words when they are
 * readable. `cols`: the terminal's width — xterm keeps an alternate-screen row at its old width
 * when the terminal narrows, and the cells past the right edge are on no screen.
 */
export function rowText(line: CellLine, cols = line.length): string {
  return cellText(line, cols) ?? xtermRowText(line, cols);
}

/** The row's text as xterm builds it: for a row whose cells do not tell it ({@link cellText} gave null). */
export function xtermRowText(line: CellLine, cols = line.length): string {
  return line.translateToString(true, 0, Math.min(cols, line.length)).trimEnd();
}

/**
 * The row's text as {@link rowText} gives it, from the cell words alone — or null when they do
 * not tell it: unreadable words, or a combined character (its text lives outside the cells). A
 * caller that keeps rows by their cells learns from the null that this row cannot be kept so.
 */
export function cellText(line: CellLine, width = line.length): string | null {
  const data = line._data;
  const cols = Math.min(width, line.length);
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
  if (latin1.length < end) {
    latin1 = Buffer.alloc(2 * end);
    utf16 = Buffer.alloc(4 * end);
    units = utf16Units();
  }
  let wide = false; // writing two bytes a unit into `units`, not one into `latin1`
  let n = 0;
  let kept = 0; // units up to the last that trimEnd keeps
  for (let c = 0; c < end; ) {
    const w = data[c * CELL_WORDS]!;
    // A combined character's text lives outside the cell words.
    if (w & IS_COMBINED_MASK) return null;
    const cp = w & CODEPOINT_MASK;
    c += w >> WIDTH_SHIFT || 1;
    if (cp === 0 || cp === 0x20) {
      // An empty cell reads as a space, as in xterm.
      if (wide) units[n++] = 0x20;
      else latin1[n++] = 0x20;
      continue;
    }
    if (!wide && cp > 0xff) {
      for (let i = 0; i < n; i++) units[i] = latin1[i]!;
      wide = true;
    }
    if (cp > 0xffff) {
      const v = cp - 0x10000;
      units[n++] = 0xd800 + (v >> 10);
      units[n++] = 0xdc00 + (v & 0x3ff);
    } else if (wide) {
      units[n++] = cp;
    } else {
      latin1[n++] = cp;
    }
    if (!isTrimmedSpace(cp)) kept = n;
  }
  return wide ? utf16.toString('utf16le', 0, 2 * kept) : latin1.toString('latin1', 0, kept);
}
