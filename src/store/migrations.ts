/**
 * The schema as an ordered list of migrations, and the runner that brings a database up to date.
 * The schema version lives in `PRAGMA user_version`; each migration runs in its own transaction
 * together with the version bump, so a failure leaves the file exactly at the previous version.
 *
 * Add a migration by appending to {@link MIGRATIONS}; never edit one that has shipped.
 *
 * @module
 */
import { TASKS_SCHEMA } from './tasks-table.js';
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { PUSH_SUBSCRIPTIONS_FOLLOW_TOKENS, PUSH_SUBSCRIPTIONS_SCHEMA } from './push-subscriptions-table.js';
import { TRANSCRIPTS_SCHEMA } from './transcripts-table.js';

/** One schema step. `up` runs inside a transaction the runner opens. */
export interface Migration {
  /** 1-based, contiguous: migration n takes a database from version n-1 to n. */
  readonly version: number;
  /** What the step does, for error messages. */
  readonly name: string;
  readonly up: (db: Database.Database) => void;
}

// Integer ids use AUTOINCREMENT where a client resumes by id (SSE Last-Event-ID, history paging):
// without it SQLite may hand out an id again once retention has deleted the newest rows.
const INITIAL_SCHEMA = `
CREATE TABLE sessions (
  id         TEXT PRIMARY KEY,
  name       TEXT,
  spec_id    TEXT,
  spec_path  TEXT,
  cwd        TEXT NOT NULL,
  branch     TEXT,
  worktree   TEXT,
  args       TEXT NOT NULL,            -- JSON array of strings
  labels     TEXT NOT NULL,            -- JSON object of string values
  env_keys   TEXT NOT NULL,            -- JSON array of the overridden variable NAMES; values are never stored
  cols       INTEGER,
  rows       INTEGER,
  created_at INTEGER NOT NULL,
  exited_at  INTEGER,
  exit_code  INTEGER,
  signal     TEXT
) STRICT;
CREATE INDEX sessions_by_created ON sessions (created_at, id);

CREATE TABLE state_changes (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  t          INTEGER NOT NULL,
  state      TEXT NOT NULL,
  status     TEXT NOT NULL,
  modal      TEXT                      -- JSON summary of the modal on screen, or NULL
) STRICT;
CREATE INDEX state_changes_by_session ON state_changes (session_id, t, id);
CREATE INDEX state_changes_by_t ON state_changes (t, id);

CREATE TABLE approvals (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT NOT NULL UNIQUE,    -- stable while the same modal is up
  fingerprint TEXT NOT NULL,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  title       TEXT,
  body        TEXT NOT NULL,
  buttons     TEXT NOT NULL,           -- JSON array of {index, label}
  kind        TEXT NOT NULL,
  first_seen  INTEGER NOT NULL,
  cleared_at  INTEGER,
  answered_by TEXT,
  answered_at INTEGER,
  button      TEXT,
  result      TEXT
) STRICT;
CREATE INDEX approvals_by_session ON approvals (session_id, first_seen, seq);
CREATE INDEX approvals_by_first_seen ON approvals (first_seen, seq);
CREATE INDEX approvals_pending ON approvals (first_seen, seq) WHERE cleared_at IS NULL AND answered_at IS NULL;

CREATE TABLE messages (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  idempotency_key TEXT,
  text            TEXT NOT NULL,
  outcome         TEXT NOT NULL,
  reason          TEXT,
  created_at      INTEGER NOT NULL,
  typed_at        INTEGER,
  started_at      INTEGER,
  updated_at      INTEGER NOT NULL,
  UNIQUE (session_id, idempotency_key)
) STRICT;
CREATE INDEX messages_by_session ON messages (session_id, created_at, id);
CREATE INDEX messages_by_created ON messages (created_at, id);

CREATE TABLE notifications (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  t          INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  session_id TEXT,                     -- no foreign key: a notification outlives its session until retention
  title      TEXT NOT NULL,
  body       TEXT NOT NULL,
  data       TEXT                      -- JSON, or NULL
) STRICT;
CREATE INDEX notifications_by_session ON notifications (session_id, t, id);
CREATE INDEX notifications_by_t ON notifications (t, id);

CREATE TABLE audit (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  t          INTEGER NOT NULL,
  who        TEXT NOT NULL,            -- the token's name
  token_id   TEXT,
  action     TEXT NOT NULL,
  session_id TEXT,                     -- no foreign key: the audit trail outlives the session
  detail     TEXT,                     -- JSON, or NULL
  outcome    TEXT NOT NULL,
  reason     TEXT
) STRICT;
CREATE INDEX audit_by_session ON audit (session_id, t, id);
CREATE INDEX audit_by_t ON audit (t, id);

CREATE TABLE tokens (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  scope         TEXT NOT NULL CHECK (scope IN ('read', 'approve', 'input', 'admin')),
  secret_sha256 BLOB NOT NULL UNIQUE CHECK (length(secret_sha256) = 32),
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER,
  revoked_at    INTEGER
) STRICT;
CREATE UNIQUE INDEX tokens_active_name ON tokens (name) WHERE revoked_at IS NULL;
`;

// The daemon's event stream (SSE / WebSocket resume across daemon restarts); the payload is the
// event's JSON without its seq. A session's auto-approve policy (the create request's JSON), its
// env overrides sealed by the daemon (AES-GCM; the key is not in this file) and its last size.
const DURABLE_DAEMON = `
ALTER TABLE sessions ADD COLUMN policy TEXT;
ALTER TABLE sessions ADD COLUMN env_sealed BLOB;

CREATE TABLE events (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  t          INTEGER NOT NULL,
  type       TEXT NOT NULL,
  session_id TEXT,                     -- no foreign key: the stream outlives a removed session until retention
  payload    TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_session ON events (session_id, seq);
CREATE INDEX events_by_t ON events (t, seq);
`;

// When a session was re-adopted from the PTY host after the database lost it (null: created here).
const RECOVERED_SESSIONS = 'ALTER TABLE sessions ADD COLUMN recovered_at INTEGER;';

/** A muted session raises no notifications (issue 27 item 8); kept so a daemon restart keeps it quiet. */
const MUTED_SESSIONS = 'ALTER TABLE sessions ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;';
/** The CLI's own id of the conversation a session runs (its history file; `--resume` takes it). */
const NATIVE_SESSION_IDS = 'ALTER TABLE sessions ADD COLUMN native_session_id TEXT;';

/** Every schema step, in order. The last one's version is the schema this code writes. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', up: (db) => db.exec(INITIAL_SCHEMA) },
  { version: 2, name: 'durable daemon state', up: (db) => db.exec(DURABLE_DAEMON) },
  { version: 3, name: 'push subscriptions', up: (db) => db.exec(PUSH_SUBSCRIPTIONS_SCHEMA) },
  { version: 4, name: 'push subscriptions follow their token', up: (db) => db.exec(PUSH_SUBSCRIPTIONS_FOLLOW_TOKENS) },
  { version: 5, name: 'recovered sessions', up: (db) => db.exec(RECOVERED_SESSIONS) },
  { version: 6, name: 'muted sessions', up: (db) => db.exec(MUTED_SESSIONS) },
  { version: 7, name: 'session transcripts and their search index', up: (db) => db.exec(TRANSCRIPTS_SCHEMA) },
  { version: 8, name: 'native session ids', up: (db) => db.exec(NATIVE_SESSION_IDS) },
  { version: 9, name: 'tasks handed between sessions', up: (db) => db.exec(TASKS_SCHEMA) },
];

/** The schema version of a database after every migration in `migrations` has run. */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
}

/** Reads `PRAGMA user_version`. */
export function readSchemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Runs every migration above the database's version, each in its own transaction.
 *
 * @throws StoreError `STORE_NEWER_SCHEMA` when the database is newer than `migrations` know
 *   (nothing is written); `STORE_MIGRATION_FAILED` when a step throws (that step is rolled back,
 *   earlier steps stay committed). Lock and I/O errors are rethrown as they are.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[], path: string): number {
  assertContiguous(migrations);
  const latest = latestVersion(migrations);
  const current = readSchemaVersion(db);
  if (current > latest) throw newerSchemaError(current, latest, path);
  for (const step of migrations) {
    if (step.version <= current) continue;
    try {
      // `immediate` takes the write lock up front, so two daemons starting at once cannot both
      // run the same step; the loser waits for the busy timeout and then sees the new version.
      db.transaction(() => {
        if (readSchemaVersion(db) >= step.version) return;
        step.up(db);
        db.pragma(`user_version = ${step.version}`);
      }).immediate();
    } catch (err) {
      if (isEnvironmentError(err)) throw err;
      throw new StoreError('STORE_MIGRATION_FAILED',
        `${path}: migration ${step.version} (${step.name}) failed and was rolled back: ${(err as Error).message}. ` +
        'The file is kept as it was; report this as a bug with the moved-aside file.', { path, cause: err });
    }
  }
  return latest;
}

/** The error for a database written by a newer specterm. */
export function newerSchemaError(found: number, known: number, path: string): StoreError {
  return new StoreError('STORE_NEWER_SCHEMA',
    `${path}: schema version ${found} is newer than this specterm knows (${known}); ` +
    'it was written by a newer specterm. Run that version, or keep the moved-aside file for it.', { path });
}

/**
 * Whether `err` says something about the machine (lock held, disk full, I/O) rather than the file:
 * such failures are reported as they are and never make the store move a file aside.
 */
export function isEnvironmentError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|READONLY|INTERRUPT|PERM|AUTH)/.test(code);
}

function assertContiguous(migrations: readonly Migration[]): void {
  migrations.forEach((step, i) => {
    if (step.version !== i + 1) {
      throw new TypeError(`migration list is not contiguous: entry ${i} has version ${step.version}, expected ${i + 1}`);
    }
  });
}
