/**
 * How much scrollback a headless screen needs when the long history lives elsewhere — in the
 * daemon, the PTY host's byte ring holds it (docs/daemon.md), so each session's screen keeps
 * only what the driver reads, instead of the 2,000 rows of a stand-alone `specterm run`.
 *
 * What the driver reads above the viewport: the guard frame's `GUARD_FRAME_SCROLLBACK_LINES`
 * (200: transition guards and modal extraction's scrollback-inclusive retry, spec-format §9.4),
 * and, for a send, the head of the message in the scrollback-inclusive text (a message taller
 * than this is confirmed by its tail only, then submitted after the echo gate's timeout). The
 * budget is the screen's row window (`WINDOW_SCROLLBACK_ROWS`, 256 ≥ 200): with exactly that
 * much scrollback every buffer row is in the window, so the screen never keeps text of rows
 * above it either. Measured in docs/performance.md ("The daemon model").
 *
 * @module
 */
import { WINDOW_SCROLLBACK_ROWS } from './terminal-screen.js';

/** Scrollback rows for a screen whose long history is kept elsewhere (pass as `scrollback`). */
export const SPEC_READ_SCROLLBACK_ROWS = WINDOW_SCROLLBACK_ROWS;
