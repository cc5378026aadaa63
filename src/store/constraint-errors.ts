/**
 * Turns SQLite's constraint failures into {@link StoreError}s that say which row clashed.
 *
 * @module
 */
import { StoreError } from './errors.js';

/** What the caller was writing, for the message. */
export interface WriteContext {
  /** e.g. `session "s1"`. */
  readonly what: string;
  /** The session the row belongs to, when it has one. */
  readonly sessionId?: string;
}

/**
 * Runs `write`; a duplicate key becomes `STORE_DUPLICATE`, a missing session `STORE_UNKNOWN_SESSION`.
 * Other errors pass through.
 */
export function withConstraintErrors<T>(context: WriteContext, write: () => T): T {
  try {
    return write();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new StoreError('STORE_DUPLICATE', `${context.what} already exists; use a new id or read the existing row`, { cause: err });
    }
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new StoreError('STORE_UNKNOWN_SESSION',
        `${context.what}: session ${JSON.stringify(context.sessionId)} is not in the store; insert the session first`, { cause: err });
    }
    throw err;
  }
}

/** JSON text of `value`, or null for null/undefined. */
export function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Parses JSON text stored by this layer (trusted), or null. */
export function parseOrNull<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}
