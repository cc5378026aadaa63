/**
 * Typed errors of the store layer (the SQLite history database).
 *
 * @module
 */

/** Stable codes of {@link StoreError} and of a {@link StoreNotice}. */
export type StoreErrorCode =
  /** The file is not a SQLite database, or SQLite found it damaged (garbage bytes, truncation). */
  | 'STORE_CORRUPT'
  /** The path cannot be opened as a database file at all (e.g. it is a directory). */
  | 'STORE_UNREADABLE'
  /** The database was written by a newer specterm (its schema version is above the one this code knows). */
  | 'STORE_NEWER_SCHEMA'
  /** A migration failed; it was rolled back and the file left as it was. */
  | 'STORE_MIGRATION_FAILED'
  /** Even a fresh database could not be created at the path (see the cause). */
  | 'STORE_OPEN_FAILED'
  /** A row with this id or key already exists. */
  | 'STORE_DUPLICATE'
  /** The row refers to a session the store does not know. */
  | 'STORE_UNKNOWN_SESSION'
  /** A value handed to the store is out of its domain (a bad cursor, scope, name or limit). */
  | 'STORE_INVALID_INPUT'
  /** The store was used after `close()`. */
  | 'STORE_CLOSED';

/** A store operation failed. Messages name the path or field, the value and the fix. */
export class StoreError extends Error {
  /** Stable machine-readable code. */
  readonly code: StoreErrorCode;
  /** The database file, when the error is about one. */
  readonly path: string | undefined;

  /**
   * @param code - stable code.
   * @param message - message naming the field or file, the value and the fix.
   * @param details - the database path and the wrapped cause.
   */
  constructor(code: StoreErrorCode, message: string, details: { path?: string; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'StoreError';
    this.code = code;
    this.path = details.path;
  }
}
