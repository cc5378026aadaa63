/**
 * Follows one session in OpenCode's SQLite database (and Kilo Code's, the same schema): its
 * `event` table is an append-only log per session (`aggregate_id`, `seq`), so each poll asks only
 * for the events after the last `seq` read, {@link BATCH} rows at a time, through the
 * `(aggregate_id, seq)` index: a database of any size costs what the new events cost, never a
 * re-read. The database is opened read-only (OpenCode writes it in WAL mode; a reader never blocks
 * it) and kept open between polls. Trouble is a warning, as for a history file: the database not
 * there yet is normal, a busy database is tried again next poll, a replaced one is read again from
 * the start, an event whose JSON is corrupt is skipped and counted.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { TranscriptWarningCode } from '../protocol/transcripts.js';
import { checkHistoryPath, errorProblem, type FollowerWarning, type HistoryProblem } from './follower.js';

/** Events read per query: bounds the memory of one poll whatever the log's size. */
const BATCH = 500;

export interface OpenCodeDbFollowerOptions {
  path: string;
  homeDir: string;
  /** The OpenCode session (`ses_…`) whose events are read. */
  sessionId: string | null;
}

/** One row of the event log as the parser gets it. */
export interface OpenCodeEvent { seq: number; type: string; data: unknown }

export class OpenCodeDbFollower {
  readonly #path: string;
  readonly #home: string;
  readonly #sessionId: string | null;
  #db: Database.Database | null = null;
  #ino: number | null = null;
  #seq = -1;
  #lastProblem: string | null = null;

  constructor(opts: OpenCodeDbFollowerOptions) {
    this.#path = opts.path;
    this.#home = opts.homeDir;
    this.#sessionId = opts.sessionId;
  }

  /** The last event read (its `seq`; -1 before the first). */
  get offset(): number {
    return this.#seq;
  }

  /** Reads the session's events after the last one read; `onEvent` gets each in order. */
  poll(onEvent: (event: OpenCodeEvent) => void, warn: FollowerWarning): void {
    if (!this.#sessionId) {
      this.#report({ code: 'HISTORY_READ_FAILED', detail: `${this.#path}: no OpenCode session id is known for this session yet, so there is nothing to read`, key: 'no-session' }, warn);
      return;
    }
    const problem = checkHistoryPath(this.#path, this.#home, this.#ino !== null);
    if (problem) {
      this.#close();
      this.#report(problem, warn);
      return;
    }
    try {
      const ino = statSync(this.#path).ino;
      if (this.#ino !== null && ino !== this.#ino) {
        warn('HISTORY_FILE_ROTATED', `${this.#path} is a new database`);
        this.#close();
        this.#seq = -1;
      }
      this.#ino = ino;
      this.#db ??= new Database(this.#path, { readonly: true, fileMustExist: true });
      const query = this.#db.prepare<[string, number, number], { seq: number; type: string; data: string }>('SELECT seq, type, data FROM event WHERE aggregate_id = ? AND seq > ? ORDER BY seq LIMIT ?');
      for (;;) {
        const rows = query.all(this.#sessionId, this.#seq, BATCH);
        for (const row of rows) {
          this.#seq = row.seq;
          let data: unknown;
          try {
            data = JSON.parse(row.data);
          } catch {
            warn('HISTORY_CORRUPT_LINE', `event ${row.seq} of ${this.#sessionId} in ${this.#path}`);
            continue;
          }
          onEvent({ seq: row.seq, type: row.type, data });
        }
        if (rows.length < BATCH) break;
      }
      this.#lastProblem = null;
    } catch (err) {
      this.#close();
      this.#report(dbProblem(err, this.#path), warn);
    }
  }

  /** The session is over: the database is let go. */
  finish(): void {
    this.#close();
  }

  #close(): void {
    try {
      this.#db?.close();
    } catch {}
    this.#db = null;
  }

  #report(problem: HistoryProblem, warn: FollowerWarning): void {
    // A busy database or one not written yet is the normal course of a session: tried again next poll.
    if (problem.key !== this.#lastProblem && problem.key !== 'absent' && problem.key !== 'busy') warn(problem.code, problem.detail);
    this.#lastProblem = problem.key;
  }
}

function dbProblem(err: unknown, path: string): HistoryProblem {
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = (err as Error)?.message ?? String(err);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return { code: 'HISTORY_READ_FAILED', detail: `${path} is busy`, key: 'busy' };
  if (/no such table: event/.test(message)) {
    return { code: 'HISTORY_READ_FAILED' satisfies TranscriptWarningCode, detail: `${path} has no event log (an OpenCode older than 1.x keeps history in JSON files, which specterm does not read)`, key: 'no-table' };
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return { code: 'HISTORY_READ_FAILED', detail: `${path} is not a readable SQLite database (${code})`, key: `db:${code}` };
  return errorProblem(err, path, true);
}

/**
 * The id of the newest top-level session OpenCode created in `dbPath` for `cwd` at or after
 * `since` (epoch ms), or null (none yet, or the database cannot be read): how a session specterm
 * started learns its OpenCode id, since OpenCode takes no id for a new session (`--session`
 * continues one). Subagent sessions (with a parent) are not it.
 */
export function findNewestOpenCodeSession(dbPath: string, cwd: string, since: number): string | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const row = db.prepare<[string, number], { id: string }>('SELECT id FROM session WHERE directory = ? AND time_created >= ? AND parent_id IS NULL ORDER BY time_created DESC, id DESC LIMIT 1').get(cwd, since);
    return row?.id ?? null;
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
