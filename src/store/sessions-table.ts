/**
 * The `sessions` table: what a session was created with, its last size and how it ended.
 * Environment overrides are recorded by name, and their values only sealed by the daemon
 * (`envSealed`); they never reach the database in clear.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { jsonOrNull, parseOrNull, withConstraintErrors } from './constraint-errors.js';

/** A new session. There is deliberately no `env` field: pass the override names in `envKeys`. */
export interface SessionInput {
  id: string;
  name?: string | null;
  specId?: string | null;
  specPath?: string | null;
  cwd: string;
  branch?: string | null;
  worktree?: string | null;
  args?: readonly string[];
  labels?: Readonly<Record<string, string>>;
  /** Names of the environment variables overridden for the child (never their values). */
  envKeys?: readonly string[];
  cols?: number | null;
  rows?: number | null;
  /** The session's auto-approve policy as the client wrote it (JSON), or null. */
  policy?: unknown;
  /** The env overrides sealed by the daemon (never the values in clear), or null. */
  envSealed?: Buffer | null;
  createdAt: number;
}

/** A stored session. `exitedAt` is null while it runs. */
export interface SessionRecord {
  id: string;
  name: string | null;
  specId: string | null;
  specPath: string | null;
  cwd: string;
  branch: string | null;
  worktree: string | null;
  args: string[];
  labels: Record<string, string>;
  envKeys: string[];
  cols: number | null;
  rows: number | null;
  policy: unknown;
  envSealed: Buffer | null;
  createdAt: number;
  /** When the session was re-adopted from the PTY host (the database had lost it); null when created here. */
  recoveredAt: number | null;
  /** True: the session raises no notifications (its approvals are still listed). */
  muted: boolean;
  /** The CLI's own conversation id (from the spec's native_history), once known. */
  nativeSessionId: string | null;
  exitedAt: number | null;
  exitCode: number | null;
  signal: string | null;
}

/** How a session ended. */
export interface SessionExit {
  at: number;
  exitCode: number | null;
  signal: string | null;
}

interface SessionRow {
  id: string; name: string | null; spec_id: string | null; spec_path: string | null; cwd: string;
  branch: string | null; worktree: string | null; args: string; labels: string; env_keys: string;
  cols: number | null; rows: number | null; policy: string | null; env_sealed: Buffer | null; created_at: number; recovered_at?: number | null; muted?: number; native_session_id?: string | null; exited_at: number | null;
  exit_code: number | null; signal: string | null;
}

/** Typed access to `sessions`. */
export class SessionsTable {
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #list: Database.Statement;
  readonly #exit: Database.Statement;
  readonly #restart: Database.Statement;
  readonly #remove: Database.Statement;
  readonly #size: Database.Statement;
  readonly #db: Database.Database;
  #recovered: Database.Statement | undefined;
  #muted: Database.Statement | undefined;
  #nativeId: Database.Statement | undefined;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO sessions (id, name, spec_id, spec_path, cwd, branch, worktree, args, labels, env_keys, cols, rows, policy, env_sealed, created_at)
       VALUES (@id, @name, @spec_id, @spec_path, @cwd, @branch, @worktree, @args, @labels, @env_keys, @cols, @rows, @policy, @env_sealed, @created_at)`);
    this.#get = db.prepare('SELECT * FROM sessions WHERE id = ?');
    this.#list = db.prepare('SELECT * FROM sessions ORDER BY created_at, id');
    this.#exit = db.prepare('UPDATE sessions SET exited_at = @at, exit_code = @exit_code, signal = @signal WHERE id = @id');
    this.#restart = db.prepare('UPDATE sessions SET exited_at = NULL, exit_code = NULL, signal = NULL WHERE id = ?');
    this.#remove = db.prepare('DELETE FROM sessions WHERE id = ?');
    this.#size = db.prepare('UPDATE sessions SET cols = @cols, rows = @rows WHERE id = @id');
  }

  /**
   * Stores a new session.
   *
   * @throws StoreError `STORE_DUPLICATE` when the id is taken.
   */
  insert(input: SessionInput): SessionRecord {
    // Fields are picked one by one: whatever else the caller's object holds (an env map) is not stored.
    withConstraintErrors({ what: `session ${JSON.stringify(input.id)}` }, () => this.#insert.run({
      id: input.id,
      name: input.name ?? null,
      spec_id: input.specId ?? null,
      spec_path: input.specPath ?? null,
      cwd: input.cwd,
      branch: input.branch ?? null,
      worktree: input.worktree ?? null,
      args: JSON.stringify(input.args ?? []),
      labels: JSON.stringify(input.labels ?? {}),
      env_keys: JSON.stringify(input.envKeys ?? []),
      cols: input.cols ?? null,
      rows: input.rows ?? null,
      policy: jsonOrNull(input.policy),
      env_sealed: input.envSealed ?? null,
      created_at: input.createdAt,
    }));
    return this.get(input.id)!;
  }

  /** The session, or null when unknown. */
  get(id: string): SessionRecord | null {
    const row = this.#get.get(id) as SessionRow | undefined;
    return row ? toSession(row) : null;
  }

  /** Every stored session, oldest first (the session limit keeps this short). */
  list(): SessionRecord[] {
    return (this.#list.all() as SessionRow[]).map(toSession);
  }

  /** Records the exit; false when the session is unknown. */
  markExited(id: string, exit: SessionExit): boolean {
    return this.#exit.run({ id, at: exit.at, exit_code: exit.exitCode, signal: exit.signal }).changes > 0;
  }

  /** Clears the exit of a restarted session; false when unknown. */
  markRestarted(id: string): boolean {
    return this.#restart.run(id).changes > 0;
  }

  /** Records the terminal size the session was last resized to; false when unknown. */
  setSize(id: string, cols: number, rows: number): boolean {
    return this.#size.run({ id, cols, rows }).changes > 0;
  }

  /**
   * Marks the session as re-adopted from the PTY host (the database had lost it); false when
   * unknown. Prepared on first use: the other statements also run on a store opened at an older
   * schema (migration tests), which has no `recovered_at` column.
   */
  markRecovered(id: string, at: number): boolean {
    this.#recovered ??= this.#db.prepare('UPDATE sessions SET recovered_at = @at WHERE id = @id');
    return this.#recovered.run({ id, at }).changes > 0;
  }

  /** Mutes (or unmutes) the session's notifications; false when unknown. Prepared on first use, as {@link markRecovered}. */
  /** Records the CLI's own conversation id of a session (prepared on first use: older schemas lack the column). */
  setNativeSessionId(id: string, nativeId: string): boolean {
    this.#nativeId ??= this.#db.prepare('UPDATE sessions SET native_session_id = @nativeId WHERE id = @id');
    return this.#nativeId.run({ id, nativeId }).changes > 0;
  }

  setMuted(id: string, muted: boolean): boolean {
    this.#muted ??= this.#db.prepare('UPDATE sessions SET muted = @muted WHERE id = @id');
    return this.#muted.run({ id, muted: muted ? 1 : 0 }).changes > 0;
  }

  /** Deletes the session and its state changes, approvals and messages; false when unknown. */
  remove(id: string): boolean {
    return this.#remove.run(id).changes > 0;
  }
}

function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    name: row.name,
    specId: row.spec_id,
    specPath: row.spec_path,
    cwd: row.cwd,
    branch: row.branch,
    worktree: row.worktree,
    args: JSON.parse(row.args) as string[],
    labels: JSON.parse(row.labels) as Record<string, string>,
    envKeys: JSON.parse(row.env_keys) as string[],
    cols: row.cols,
    rows: row.rows,
    policy: parseOrNull(row.policy),
    envSealed: row.env_sealed,
    createdAt: row.created_at,
    recoveredAt: row.recovered_at ?? null,
    muted: row.muted === 1,
    nativeSessionId: row.native_session_id ?? null,
    exitedAt: row.exited_at,
    exitCode: row.exit_code,
    signal: row.signal,
  };
}
