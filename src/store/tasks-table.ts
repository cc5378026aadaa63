/**
 * The `tasks` table: work handed from one session (or a person) to another, kept whole (the
 * wire `Task` as JSON) with the columns a list filters by.
 * @module
 */
import type Database from 'better-sqlite3';
import type { Task } from '../protocol/index.js';

export const TASKS_SCHEMA = `
CREATE TABLE tasks (
  id                TEXT PRIMARY KEY,
  parent_session_id TEXT,
  worker_session_id TEXT,
  status            TEXT NOT NULL,
  created_at        INTEGER NOT NULL,
  body              TEXT NOT NULL
);
CREATE INDEX tasks_by_status ON tasks (status, created_at);
`;

export class TasksTable {
  readonly #db: Database.Database;
  #sql: { put: Database.Statement; get: Database.Statement; list: Database.Statement } | null = null;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Prepared on first use: a store opened at an older schema has no such table. */
  get #q() {
    this.#sql ??= {
      put: this.#db.prepare('INSERT INTO tasks (id, parent_session_id, worker_session_id, status, created_at, body) VALUES (@id, @parent, @worker, @status, @created_at, @body) ON CONFLICT (id) DO UPDATE SET worker_session_id = @worker, status = @status, body = @body'),
      get: this.#db.prepare('SELECT body FROM tasks WHERE id = ?'),
      list: this.#db.prepare('SELECT body FROM tasks ORDER BY created_at DESC LIMIT ?'),
    };
    return this.#sql;
  }

  put(task: Task): void {
    this.#q.put.run({ id: task.id, parent: task.parent_session_id, worker: task.worker_session_id, status: task.status, created_at: task.created_at, body: JSON.stringify(task) });
  }

  get(id: string): Task | null {
    const row = this.#q.get.get(id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as Task) : null;
  }

  list(limit = 500): Task[] {
    return (this.#q.list.all(limit) as Array<{ body: string }>).map((r) => JSON.parse(r.body) as Task);
  }
}
