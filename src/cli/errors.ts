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

/** A mistake in what the user asked for; the message says what is wrong and how to fix it. */
export class CliUsageError extends Error {
  /** Stable code for callers that branch on it. */
  readonly code = 'CLI_USAGE' as const;
  /** The sub-command the error belongs to (empty for top-level errors). */
  readonly command: string;

  /**
   * @param command - sub-command name (`''` for the top level).
   * @param message - what is wrong, the offending value and the fix.
   */
  constructor(command: string, message: string) {
    super(message);
    this.name = 'CliUsageError';
    this.command = command;
  }
}
