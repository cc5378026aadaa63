/**
 * The `messages` table: text sent to an agent and how its delivery went. An idempotency key is
 * unique per session, so a retried request (after a timeout, or across a daemon restart) finds
 * the first attempt instead of typing the text a second time.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { withConstraintErrors } from './constraint-errors.js';
import { KeysetPager, type Page, type PageRequest } from './paging.js';

/**
 * Delivery outcome. `typing` is recorded before the first keystroke: a message found in `typing`
 * after a crash may have reached the agent and must not be typed again.
 */
export type MessageOutcome = 'queued' | 'typing' | 'typed' | 'echoed' | 'started' | 'refused' | 'failed';

/** A message to record before it is typed. */
export interface MessageInput {
  sessionId: string;
  /** Caller-chosen key; the same key twice in one session is detected. */
  idempotencyKey?: string | null;
  text: string;
  at: number;
}

/** A stored message. */
export interface MessageRecord {
  id: number;
  sessionId: string;
  idempotencyKey: string | null;
  text: string;
  outcome: MessageOutcome;
  /** Why it was refused or failed. */
  reason: string | null;
  createdAt: number;
  typedAt: number | null;
  startedAt: number | null;
  updatedAt: number;
}

interface MessageRow {
  id: number; session_id: string; idempotency_key: string | null; text: string; outcome: MessageOutcome;
  reason: string | null; created_at: number; typed_at: number | null; started_at: number | null; updated_at: number;
}

/** Typed access to `messages`. */
export class MessagesTable {
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #byKey: Database.Statement;
  readonly #outcome: Database.Statement;
  readonly #pager: KeysetPager<MessageRow>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO messages (session_id, idempotency_key, text, outcome, created_at, updated_at)
       VALUES (@session_id, @key, @text, 'queued', @at, @at) ON CONFLICT (session_id, idempotency_key) DO NOTHING`);
    this.#get = db.prepare('SELECT * FROM messages WHERE id = ?');
    this.#byKey = db.prepare('SELECT * FROM messages WHERE session_id = ? AND idempotency_key = ?');
    this.#outcome = db.prepare(
      `UPDATE messages SET outcome = @outcome, reason = @reason, updated_at = @at,
         typed_at = CASE WHEN @outcome = 'typed' THEN coalesce(typed_at, @at) ELSE typed_at END,
         started_at = CASE WHEN @outcome = 'started' THEN coalesce(started_at, @at) ELSE started_at END
       WHERE id = @id`);
    this.#pager = new KeysetPager(db, { table: 'messages', timeColumn: 'created_at', idColumn: 'id', sessionColumn: 'session_id' });
  }

  /**
   * Records a message as `queued`, unless its idempotency key was used before in this session:
   * then nothing is written and the first message is returned with `isDuplicate: true`
   * (the caller answers with its outcome and types nothing).
   *
   * @throws StoreError `STORE_UNKNOWN_SESSION` when the session is not stored.
   */
  enqueue(input: MessageInput): { message: MessageRecord; isDuplicate: boolean } {
    const key = input.idempotencyKey ?? null;
    const result = withConstraintErrors({ what: 'message', sessionId: input.sessionId }, () => this.#insert.run({
      session_id: input.sessionId, key, text: input.text, at: input.at,
    }));
    if (result.changes === 0) {
      return { message: toMessage(this.#byKey.get(input.sessionId, key) as MessageRow), isDuplicate: true };
    }
    return { message: this.get(Number(result.lastInsertRowid))!, isDuplicate: false };
  }

  /** The message, or null. */
  get(id: number): MessageRecord | null {
    const row = this.#get.get(id) as MessageRow | undefined;
    return row ? toMessage(row) : null;
  }

  /** The message sent with this key in this session, or null. */
  getByKey(sessionId: string, idempotencyKey: string): MessageRecord | null {
    const row = this.#byKey.get(sessionId, idempotencyKey) as MessageRow | undefined;
    return row ? toMessage(row) : null;
  }

  /** Records a new outcome (the first `typed`/`started` time is kept); false when unknown. */
  setOutcome(id: number, outcome: MessageOutcome, at: number, reason: string | null = null): boolean {
    return this.#outcome.run({ id, outcome, at, reason }).changes > 0;
  }

  /** One page of messages ordered by (createdAt, id). */
  page(request: PageRequest = {}): Page<MessageRecord> {
    return this.#pager.page(request, toMessage);
  }
}

function toMessage(row: MessageRow): MessageRecord {
  return {
    id: row.id, sessionId: row.session_id, idempotencyKey: row.idempotency_key, text: row.text, outcome: row.outcome,
    reason: row.reason, createdAt: row.created_at, typedAt: row.typed_at, startedAt: row.started_at, updatedAt: row.updated_at,
  };
}
