/**
 * A write refused because the disk (or the user's quota) is full, named once for every layer:
 * the store turns SQLite's `SQLITE_FULL` into it, file writers their `ENOSPC`/`EDQUOT`, and the
 * server's one error mapper answers it `507 STORAGE_FULL` with the directory to free space in
 * (issue 24, item 7). It lives here, below the store and the server, so both can name it without
 * importing each other.
 *
 * @module
 */
import path from 'node:path';

/** SQLite's and the kernel's words for "no space left". */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** A write that found no space left in `dir` (SQLite rolls such a write back whole). */
export class StorageFullError extends Error {
  readonly code = 'STORAGE_FULL';
  /** The directory whose file system is full: where a person frees space. */
  readonly dir: string;

  constructor(dir: string, cause: unknown) {
    super(`no space left on the disk that holds ${dir}, so it was not written; free some space there (or raise the quota) — the daemon writes again by itself once there is room, and what it stored before is kept`, { cause });
    this.name = 'StorageFullError';
    this.dir = dir;
  }
}

/** Whether `error` says the disk or quota is full (SQLite's `SQLITE_FULL`, `ENOSPC`, `EDQUOT`). */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FULL_CODES.has(code);
}

/**
 * `error` as a {@link StorageFullError}, or undefined when it is not about a full disk. A file
 * write's own `ENOSPC`/`EDQUOT` (anywhere in the `cause` chain, e.g. wrapped by a recorder) names
 * the directory of the file it was writing.
 */
export function asStorageFull(error: unknown): StorageFullError | undefined {
  let at: unknown = error;
  for (let depth = 0; depth < 4 && at instanceof Error; depth++, at = at.cause) {
    if (at instanceof StorageFullError) return at;
    const file = (at as { path?: unknown }).path;
    if (isStorageFull(at) && typeof file === 'string') return new StorageFullError(path.dirname(file), at);
  }
  return undefined;
}

/** Runs `write`; a full disk becomes a {@link StorageFullError} naming `dir`, other errors pass through. */
export function withStorageFull<T>(dir: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw isStorageFull(error) && !(error instanceof StorageFullError) ? new StorageFullError(dir, error) : error;
  }
}
