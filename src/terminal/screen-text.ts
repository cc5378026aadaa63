/**
 * The snapshot rules over the row window: the trimmed viewport and the whole text
 * (spec-format §9.1), the tail of the scrollback and the guard frame (§9.4). Plain functions of
 * the rows; the headless screen caches their results per change.
 *
 * @module
 */
import type { GuardFrame } from '../core/screen/guard-frame.js';
import type { RowWindow } from './row-window.js';

/** Viewport rows translated once per change, plus how many leading blank rows were dropped. */
export interface ViewportRows {
  lines: string[];
  leadingBlankRows: number;
}

/**
 * The live bottom `height` rows: exactly `height` rows on the alternate screen, blank ends
 * dropped on the normal screen.
 */
export function readViewportRows(rows: RowWindow, height: number): ViewportRows {
  // baseY (not viewportY) is the top of the live bottom screen, whatever the scroll position.
  const baseY = rows.baseY();
  const raw = rows.translateRows(baseY, baseY + height);
  if (rows.activeType() === 'alternate') return { lines: raw, leadingBlankRows: 0 };
  let first = 0;
  while (first < raw.length && raw[first] === '') first++;
  let end = raw.length;
  while (end > first && raw[end - 1] === '') end--;
  return { lines: first === 0 && end === raw.length ? raw : raw.slice(first, end), leadingBlankRows: first };
}

/** Every buffer row (`length` of them), blank ends dropped. */
export function readAllRows(rows: RowWindow, length: number): string[] {
  return trimBlankEnds(rows.translateRows(0, length));
}

/** The last `maxLines` lines of {@link readAllRows}, translating only those rows. */
export function readTailRows(rows: RowWindow, maxLines: number): string[] {
  const tail = tailRange(rows, maxLines);
  return tail ? rows.translateRows(tail.first, tail.last + 1) : [];
}

/**
 * The guard frame over `viewport` (the trimmed viewport, whose row 0 is buffer row `viewportTop`)
 * with `n` scrollback lines, and the buffer row of its frame row 0 (negative under its blank
 * padding): exactly `buildGuardFrame(viewport, tail(viewport.length + n), cursor)`.
 */
export function readGuardFrame(
  rows: RowWindow, viewport: string[], cursor: GuardFrame['cursor'], viewportTop: number, n: number,
): { frame: GuardFrame; top: number } {
  const asViewport = { frame: { lines: viewport, cursor, viewportStartRow: 0 }, top: viewportTop };
  // The alternate screen has no scrollback: the tail is the viewport, which adds nothing.
  if (rows.activeType() === 'alternate') return asViewport;
  const vlen = viewport.length;
  const tail = tailRange(rows, vlen + n);
  if (!tail) return asViewport;
  const { first, last } = tail;
  const extra = last - first + 1 - vlen;
  if (extra <= 0) return asViewport;
  // buildGuardFrame: `n - extra` blank rows, then the whole tail (it holds vlen + extra ≤ vlen + n rows).
  const pad = n - extra;
  const translated = rows.translateRows(first, last + 1);
  const lines = pad === 0 ? translated : new Array<string>(pad).fill('').concat(translated);
  return { frame: { lines, cursor: { row: cursor.row + n, col: cursor.col }, viewportStartRow: n }, top: first - pad };
}

/**
 * The buffer rows of the last `maxLines` lines of the whole text: trailing blank rows are
 * skipped, then up to `maxLines` rows taken up to the last non-blank one; their leading blank
 * rows are dropped only when nothing is written above them (the full text's leading trim —
 * usually the row right above is non-blank and the scan stops at once). Null when empty.
 */
function tailRange(rows: RowWindow, maxLines: number): { first: number; last: number } | null {
  let last = rows.lineCount() - 1;
  while (last >= 0 && rows.rowText(last) === '') last--;
  if (last < 0 || maxLines === 0) return null;
  const start = Math.max(0, last - maxLines + 1);
  let first = start;
  let above = start - 1;
  while (above >= 0 && rows.rowText(above) === '') above--;
  if (above < 0) while (first <= last && rows.rowText(first) === '') first++;
  return first <= last ? { first, last } : null;
}

function trimBlankEnds(lines: string[]): string[] {
  let first = 0;
  while (first < lines.length && lines[first] === '') first++;
  let end = lines.length;
  while (end > first && lines[end - 1] === '') end--;
  return first === 0 && end === lines.length ? lines : lines.slice(first, end);
}
