/**
 * The guard frame: what transition guards see (spec-format §9.4).
 *
 * The viewport plus a bounded slice of scrollback, padded to a constant height, so a tall
 * modal whose top scrolled away is still "present" and row indices stay stable between
 * frames (a `cursor_above` window compares the same content frame to frame).
 */
import type { Cursor } from '../eval/types.js';

/** Scrollback lines a guard frame carries above the viewport (the reference's 200). */
export const GUARD_FRAME_SCROLLBACK_LINES = 200;

export interface GuardFrame {
  lines: string[];
  /** Cursor rebased into frame coordinates. */
  cursor: Cursor;
  /** First frame row that belongs to the live viewport (0 when the frame is the viewport). */
  viewportStartRow: number;
}

/**
 * Builds the guard frame from the viewport lines and the scrollback-inclusive lines.
 * When scrollback adds nothing, the frame is the viewport and the cursor is unchanged.
 * Otherwise the frame is `GUARD_FRAME_SCROLLBACK_LINES + viewport` lines high: blank padding,
 * then the last `viewport + available` lines of the scrollback-inclusive text; the cursor row
 * moves down by `GUARD_FRAME_SCROLLBACK_LINES`.
 */
export function buildGuardFrame(viewport: readonly string[], withScrollback: readonly string[], cursor: Cursor): GuardFrame {
  const extra = withScrollback.length - viewport.length;
  if (extra <= 0) return { lines: viewport.slice(), cursor, viewportStartRow: 0 };
  const available = Math.min(extra, GUARD_FRAME_SCROLLBACK_LINES);
  const pad = GUARD_FRAME_SCROLLBACK_LINES - available;
  const tail = withScrollback.slice(withScrollback.length - (viewport.length + available));
  const lines = new Array<string>(pad).fill('').concat(tail);
  return {
    lines,
    cursor: { row: cursor.row + GUARD_FRAME_SCROLLBACK_LINES, col: cursor.col },
    viewportStartRow: GUARD_FRAME_SCROLLBACK_LINES,
  };
}
