/**
 * Errors of the command layer. A {@link CliUsageError} is a user mistake (bad flag, missing
 * argument, unknown spec, unreadable recording): `main` prints its message on stderr and exits
 * with {@link EXIT_USAGE}, never with a stack trace.
 *
 * @module
 */

/** Exit code for bad input (flags, arguments, spec references, recordings). */
export const EXIT_USAGE = 2;
/** Exit code for a failure inside specterm itself (BSD sysexits EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;
/** Exit code when the agent's program could not be started (as a shell reports a missing command). */
export const EXIT_SPAWN_FAILED = 127;

/**
 * Stable codes of {@link CliUsageError}, for callers (scripts, the daemon's CLI client) that
 * branch on what went wrong. Every one exits with {@link EXIT_USAGE}.
 */
export type CliUsageErrorCode =
  /** No command, or a command name specterm does not have. */
  | 'CLI_UNKNOWN_COMMAND'
  /** A flag the command does not declare. */
  | 'CLI_UNKNOWN_FLAG'
  /** A required positional argument (or required flag such as `record -o`) is missing. */
  | 'CLI_MISSING_ARGUMENT'
  /** A flag that takes a value was given without one. */
  | 'CLI_MISSING_VALUE'
  /** More positional arguments than the command takes, or a stray `--`. */
  | 'CLI_UNEXPECTED_ARGUMENT'
  /** A value outside its choices, a non-number, a bad path (`--cwd`, `--binary`), a time past the end. */
  | 'CLI_BAD_VALUE'
  /** A spec reference that is neither a built-in id nor a readable file. */
  | 'CLI_UNKNOWN_SPEC'
  /** A spec file that does not validate. */
  | 'CLI_INVALID_SPEC'
  /** A recording that cannot be read (missing, a directory, no permission). */
  | 'CLI_UNREADABLE_RECORDING'
  /** A recording that is not valid asciicast v2. */
  | 'CLI_INVALID_RECORDING'
  /** The recording to write cannot be created. */
  | 'CLI_RECORDING_UNWRITABLE'
  /** `serve --lan` on a computer with no network address a phone could reach. */
  | 'CLI_NO_LAN_ADDRESS'
  /** Any other usage error (kept for callers written before the codes above). */
  | 'CLI_USAGE';

/** Codes whose message is about the command line itself: `main` adds a pointer to `--help`. */
export const SYNTAX_ERROR_CODES: ReadonlySet<CliUsageErrorCode> = new Set(['CLI_UNKNOWN_FLAG', 'CLI_MISSING_ARGUMENT', 'CLI_MISSING_VALUE', 'CLI_UNEXPECTED_ARGUMENT']);

/** A mistake in what the user asked for; the message says what is wrong and how to fix it. */
export class CliUsageError extends Error {
  /** Stable code for callers that branch on it. */
  readonly code: CliUsageErrorCode;
  /** The sub-command the error belongs to (empty for top-level errors). */
  readonly command: string;

  /**
   * @param command - sub-command name (`''` for the top level).
   * @param message - what is wrong, the offending value and the fix.
   * @param code - what kind of mistake (default `CLI_USAGE`).
   */
  constructor(command: string, message: string, code: CliUsageErrorCode = 'CLI_USAGE') {
    super(message);
    this.name = 'CliUsageError';
    this.command = command;
    this.code = code;
  }
}
