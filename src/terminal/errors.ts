/**
 * Typed errors of the terminal edge (PTY transport and headless screen).
 * Each error carries a stable `code`, the offending value and a message that names the fix.
 *
 * @module
 */

/** Stable codes for spawn failures, so callers can branch without parsing messages. */
export type SpawnErrorCode =
  /** Generic failure reported by node-pty (fork failed, exec failed after the pre-checks). */
  | 'PTY_SPAWN_FAILED'
  /** The executable was not found (absolute path missing, or not on the child's PATH). */
  | 'PTY_BINARY_NOT_FOUND'
  /** The executable exists but is a directory or lacks the execute permission. */
  | 'PTY_BINARY_NOT_EXECUTABLE'
  /** The working directory does not exist or is not a directory. */
  | 'PTY_CWD_INVALID'
  /** A field of the spawn request has the wrong type or range. */
  | 'PTY_INVALID_REQUEST'
  /** `spawn()` was called twice on one transport. */
  | 'PTY_ALREADY_SPAWNED';

/** Details recorded on a {@link SpawnError}. */
export interface SpawnErrorDetails {
  code: SpawnErrorCode;
  /** The executable as requested. */
  file: string;
  /** The working directory as requested. */
  cwd: string;
  /** The underlying error or message (node-pty's, the file system's). */
  cause?: unknown;
}

/**
 * The child could not be started. Thrown synchronously by `PtyTransport.spawn()`; a failure that
 * node-pty only reports after the fact (exec failing in the forked child) is delivered through
 * `PtyTransportHandle.onSpawnError` instead.
 */
export class SpawnError extends Error {
  /** Stable machine-readable code. */
  readonly code: SpawnErrorCode;
  /** The executable as requested. */
  readonly file: string;
  /** The working directory as requested. */
  readonly cwd: string;

  /**
   * @param message - human message naming the value and the fix.
   * @param details - code, file, cwd and optional cause.
   */
  constructor(message: string, details: SpawnErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SpawnError';
    this.code = details.code;
    this.file = details.file;
    this.cwd = details.cwd;
  }
}

/** Stable codes of {@link TerminalError}. */
export type TerminalErrorCode =
  /** cols/rows/scrollback not a positive integer (or too large). */
  | 'TERMINAL_INVALID_SIZE'
  /** An operation on a transport that has not been spawned. */
  | 'PTY_NOT_SPAWNED'
  /** An argument of the wrong type (e.g. writing a non-string). */
  | 'TERMINAL_INVALID_ARGUMENT'
  /** A PTY write would queue more than 16 MiB: the child is not reading its input. */
  | 'PTY_WRITE_QUEUE_FULL';

/** Misuse of the terminal edge (bad geometry, writing before spawn, wrong argument type). */
export class TerminalError extends Error {
  /** Stable machine-readable code. */
  readonly code: TerminalErrorCode;
  /** The offending value, for logs and tests. */
  readonly value: unknown;

  /**
   * @param code - stable code.
   * @param message - message naming the field, the value and the fix.
   * @param value - the offending value.
   */
  constructor(code: TerminalErrorCode, message: string, value?: unknown) {
    super(message);
    this.name = 'TerminalError';
    this.code = code;
    this.value = value;
  }
}

/**
 * Widest terminal accepted, in columns. A 5K display (5120 px) at a 5-px-wide font is 1024
 * columns, beyond any real terminal window; xterm keeps 12 bytes per cell, so a full screen plus
 * the default 2000 rows of scrollback stays near 30 MB. The old bound (10000 x 10000) let a
 * 76-byte recording allocate 100 million cells (2.4 GB; issue 12, item 7).
 */
export const MAX_COLS = 1000;

/** Tallest terminal accepted, in rows: an 8K display (4320 px) at a 9-px-high font is 480 rows. */
export const MAX_ROWS = 500;

/** A terminal dimension: columns or rows. */
export type Dimension = 'cols' | 'rows';

const LIMITS: Record<Dimension, { max: number; extreme: string }> = {
  cols: { max: MAX_COLS, extreme: 'widest' },
  rows: { max: MAX_ROWS, extreme: 'tallest' },
};

/**
 * Why `value` is not a valid number of columns/rows (1 … {@link MAX_COLS} / {@link MAX_ROWS}),
 * or null when it is. The text starts with `label` and names the value and the range.
 *
 * @param dimension - which limit applies.
 * @param value - the value to check.
 * @param label - how the value is called in the message (default: the dimension).
 */
export function dimensionProblem(dimension: Dimension, value: unknown, label: string = dimension): string | null {
  const { max, extreme } = LIMITS[dimension];
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return null;
  const tooLarge = typeof value === 'number' && value > max;
  return `${label} must be an integer between 1 and ${max}${tooLarge ? ` (the ${extreme} terminal specterm supports)` : ''}, got ${JSON.stringify(value) ?? String(value)}`;
}

/**
 * Validates a terminal dimension and returns it; throws a {@link TerminalError}
 * (`TERMINAL_INVALID_SIZE`) naming the field, the value and the range.
 *
 * @param dimension - `cols` or `rows` (selects the limit and names the field).
 * @param value - the value to check.
 * @param label - how the value is called in the message (default: the dimension).
 */
export function assertDimension(dimension: Dimension, value: unknown, label?: string): number {
  const problem = dimensionProblem(dimension, value, label);
  if (problem !== null) {
    throw new TerminalError('TERMINAL_INVALID_SIZE', `${problem}; pass the terminal's size in cells (at most ${MAX_COLS} x ${MAX_ROWS})`, value);
  }
  return value as number;
}
