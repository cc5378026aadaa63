/**
 * Opening the database, and the corrupt-file policy: a file that cannot be used (not SQLite,
 * damaged, a directory, a newer schema, a failing migration) is moved aside — never deleted —
 * and a fresh database takes its place, with a {@link StoreNotice} saying where the old one went.
 * Trouble with the machine instead of the file (a lock held too long, a full disk) is thrown as
 * `STORE_OPEN_FAILED` and the file is left alone.
 *
 * @module
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import Database from 'better-sqlite3';
import { StoreError, type StoreErrorCode } from './errors.js';
import { isEnvironmentError, latestVersion, migrate, MIGRATIONS, newerSchemaError, readSchemaVersion, type Migration } from './migrations.js';
import { moveAside } from './move-aside.js';
import { resolveRetention, type RetentionPolicy, type TableRetention } from './retention.js';
import { Store, type StoreNotice } from './store.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** Clock for timestamps the store sets itself (tokens, pruning on open). Default `Date.now`. */
  now?: () => number;
  /** Overrides of {@link DEFAULT_RETENTION}, per table. */
  retention?: Partial<Record<keyof RetentionPolicy, Partial<TableRetention>>>;
  /** How long a write waits for another connection's lock. Default {@link DEFAULT_BUSY_TIMEOUT_MS}. */
  busyTimeoutMs?: number;
}

/** Long enough to ride out another connection's prune or migration, short enough to report a stuck lock. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** Caps the -wal file left after a checkpoint, so a burst of writes does not keep its disk space. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Opens (creating if needed) the database at `path`: WAL mode, foreign keys, busy timeout,
 * migrations, then one prune.
 *
 * @throws StoreError `STORE_OPEN_FAILED` when even a fresh database cannot be opened there, or the
 *   existing one is locked or the disk fails (the file is then left as it was);
 *   `STORE_INVALID_INPUT` for a bad retention option.
 * @example
 * const store = openStore(path.join(stateDir, 'specterm.db'));
 * if (store.notice) log.warn(`${store.notice.reason}; the old file is at ${store.notice.movedAside}`);
 */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  return openStoreWith(path, options, MIGRATIONS);
}

/** @internal {@link openStore} with another migration list (tests of the runner and of failed migrations). */
export function openStoreWith(path: string, options: OpenStoreOptions, migrations: readonly Migration[]): Store {
  const now = options.now ?? Date.now;
  const retention = resolveRetention(options.retention);
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  try {
    fs.mkdirSync(nodePath.dirname(path), { recursive: true, mode: 0o700 });
  } catch (err) {
    throw openFailed(path, err);
  }
  let notice: StoreNotice | null = null;
  let db: Database.Database;
  try {
    db = openChecked(path, migrations, busyTimeoutMs);
  } catch (err) {
    const code = badFileCode(err);
    if (code === null) throw openFailed(path, err);
    try {
      notice = { code, movedAside: moveAside(path, now()), reason: aboutFile(path, err) };
      db = openChecked(path, migrations, busyTimeoutMs);
    } catch (again) {
      throw openFailed(path, again);
    }
  }
  const store = new Store(db, { path, notice, schemaVersion: readSchemaVersion(db), now, retention });
  try {
    store.prune();
  } catch (err) {
    store.close();
    throw openFailed(path, err);
  }
  return store;
}

/** Opens `path` and brings it to the latest schema, or throws without having changed the file. */
function openChecked(path: string, migrations: readonly Migration[], busyTimeoutMs: number): Database.Database {
  const stat = statOrNull(path);
  if (stat && !stat.isFile()) {
    throw new StoreError('STORE_UNREADABLE', `is a ${stat.isDirectory() ? 'directory' : 'special file'}, not a database file`, { path });
  }
  if (!stat) {
    const orphan = ORPHAN_SUFFIXES.find((suffix) => (statOrNull(path + suffix)?.size ?? 0) > 0);
    // The last commits of a lost database file live on only in its -wal (or -journal); a fresh
    // database created beside it would reset it and lose them.
    if (orphan) throw new StoreError('STORE_CORRUPT', `has a ${orphan} file but no database file; the ${orphan} is kept for recovery`, { path });
  }
  if (stat && stat.size > 0) {
    assertSqliteHeader(path);
    inspectReadOnly(path, migrations, busyTimeoutMs);
  }
  if (!stat) {
    // Created here with 0600 so SQLite's -wal and -shm, which copy the main file's mode, are private too.
    fs.closeSync(fs.openSync(path, 'wx', 0o600));
  } else if ((stat.mode & 0o077) !== 0) {
    fs.chmodSync(path, 0o600);
  }
  const db = new Database(path, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives a crash of the process (SIGKILL); only a power cut can
    // lose the last commits, and it never corrupts the file.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    migrate(db, migrations, path);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Companions that hold commits of their own (the -shm is only an index SQLite rebuilds). */
const ORPHAN_SUFFIXES = ['-wal', '-journal'] as const;

/** Every SQLite 3 database file starts with these 16 bytes. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** The database header's size; a shorter non-empty file cannot be a database. */
const HEADER_BYTES = 100;

/**
 * Refuses a file that is not SQLite before SQLite opens it: SQLite would first look for a -wal
 * and rebuild the -shm beside it, changing a companion of the file about to be moved aside.
 */
function assertSqliteHeader(path: string): void {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = fs.openSync(path, 'r');
  let length: number;
  try {
    length = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (length < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw new StoreError('STORE_CORRUPT',
      length < HEADER_BYTES ? `is ${length} bytes long, shorter than a SQLite header (truncated)` : 'is not a SQLite database (no SQLite header)', { path });
  }
}

/**
 * Reads the schema version and runs `quick_check` on a read-only connection before anything writes
 * (switching to WAL rewrites the header), so a file that is then moved aside is byte for byte the
 * file that was found.
 */
function inspectReadOnly(path: string, migrations: readonly Migration[], busyTimeoutMs: number): void {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    const version = readSchemaVersion(db);
    const known = latestVersion(migrations);
    if (version > known) throw newerSchemaError(version, known, path);
    const problems = (db.pragma('quick_check') as Array<{ quick_check: string }>).map((r) => r.quick_check);
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw new StoreError('STORE_CORRUPT', `SQLite's quick_check found damage: ${problems.slice(0, 3).join('; ')}`, { path });
    }
  } finally {
    db.close();
  }
}

/** The notice code when `err` says the file itself is unusable; null for anything else. */
function badFileCode(err: unknown): StoreErrorCode | null {
  if (err instanceof StoreError) {
    return err.code === 'STORE_CORRUPT' || err.code === 'STORE_UNREADABLE' || err.code === 'STORE_NEWER_SCHEMA' ||
      err.code === 'STORE_MIGRATION_FAILED' ? err.code : null;
  }
  if (isEnvironmentError(err)) return null;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))) return 'STORE_CORRUPT';
  if (typeof code === 'string' && code.startsWith('SQLITE_CANTOPEN')) return 'STORE_UNREADABLE';
  return null;
}

function openFailed(path: string, cause: unknown): StoreError {
  return new StoreError('STORE_OPEN_FAILED',
    `cannot open the database: ${aboutFile(path, cause)}. The file was left as it is; ` +
    'check the disk and that no other specterm daemon holds it, or set SPECTERM_STATE_DIR to another directory.', { path, cause });
}

/** The error's message, prefixed with the path unless it already names it. */
function aboutFile(path: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.includes(path) ? message : `${path}: ${message}`;
}

function statOrNull(path: string): fs.Stats | null {
  try {
    return fs.statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
