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
  | 'TERMINAL_INVALID_ARGUMENT';

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

/** Largest geometry we accept: far beyond any real terminal, small enough to never exhaust memory. */
const MAX_DIMENSION = 10_000;

/**
 * Validates a terminal dimension and returns it; throws a {@link TerminalError} naming the field.
 *
 * @param field - name used in the message (e.g. `cols`).
 * @param value - the value to check.
 */
export function assertDimension(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DIMENSION) {
    throw new TerminalError(
      'TERMINAL_INVALID_SIZE',
      `${field} must be an integer between 1 and ${MAX_DIMENSION}, got ${JSON.stringify(value) ?? String(value)}; pass a positive whole number of cells`,
      value,
    );
  }
  return value;
}
