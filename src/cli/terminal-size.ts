/**
 * The size `run` / `record` give the agent: the user's terminal as it reports itself, or a sane
 * default when it reports nothing usable (a pty made by `script` without a size says 0×0).
 *
 * @module
 */

/** Width used when the terminal's is unknown or unusable (the classic VT100 size). */
export const FALLBACK_COLS = 80;
/** Height used when the terminal's is unknown or unusable. */
export const FALLBACK_ROWS = 24;
/** The status bar takes one row, so the child needs at least one more. */
const MIN_ROWS = 2;

/** What the output stream says about itself (`process.stdout`'s shape). */
export interface ReportedSize {
  isTTY: boolean;
  columns?: number;
  rows?: number;
}

/** The chosen size, and a line for the user when a fallback replaced what the terminal said. */
export interface ChosenSize {
  cols: number;
  rows: number;
  note: string | null;
}

/**
 * Picks the session size: on a terminal its reported size, each unusable dimension replaced by
 * the fallback (with a note saying so); elsewhere `COLUMNS` / `LINES` when they are positive
 * whole numbers, else 80×24 (no note: nobody is looking at a screen).
 *
 * @example
 * chooseTerminalSize({ isTTY: true, columns: 0, rows: 0 }, {}); // { cols: 80, rows: 24, note: '…0×0…' }
 */
export function chooseTerminalSize(reported: ReportedSize, env: Record<string, string | undefined>): ChosenSize {
  if (!reported.isTTY) {
    return { cols: positiveInt(env.COLUMNS, 1) ?? FALLBACK_COLS, rows: positiveInt(env.LINES, 1) ?? FALLBACK_ROWS, note: null };
  }
  const cols = positiveInt(reported.columns, 1);
  const rows = positiveInt(reported.rows, MIN_ROWS);
  const chosen = { cols: cols ?? FALLBACK_COLS, rows: rows ?? FALLBACK_ROWS };
  if (cols !== null && rows !== null) return { ...chosen, note: null };
  const said = `${reported.columns ?? 'unknown'}×${reported.rows ?? 'unknown'}`;
  return {
    ...chosen,
    note: `the terminal reports its size as ${said}; using ${chosen.cols}×${chosen.rows} — set the real size with \`stty cols N rows M\` (or give \`script\` a size) for the agent to fill the window`,
  };
}

function positiveInt(value: number | string | undefined, min: number): number | null {
  if (value === undefined) return null;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= min ? n : null;
}
