/**
 * Typed errors of the recording layer (asciicast parsing and writing).
 *
 * @module
 */

/** Stable codes of {@link RecordingError}. */
export type RecordingErrorCode =
  /** The text is not a valid asciicast v2 file (see the message for the line and the fix). */
  | 'RECORDING_INVALID'
  /** The recording file could not be opened or written. */
  | 'RECORDING_IO_FAILED';

/** A recording could not be read or written. Messages name the source, the line and the fix. */
export class RecordingError extends Error {
  /** Stable machine-readable code. */
  readonly code: RecordingErrorCode;
  /** 1-based line number of the offending line, when the error is about one line. */
  readonly line: number | undefined;
  /** File name or label of the recording, when known. */
  readonly source: string | undefined;

  /**
   * @param code - stable code.
   * @param message - message naming the line, the value and the fix.
   * @param details - line, source and cause.
   */
  constructor(code: RecordingErrorCode, message: string, details: { line?: number; source?: string; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'RecordingError';
    this.code = code;
    this.line = details.line;
    this.source = details.source;
  }
}
