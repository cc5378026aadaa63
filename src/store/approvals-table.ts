/**
 * The `approvals` table: each modal the daemon tracked as an approval object — when it was first
 * seen, when it left the screen, and who answered it with which button and what came of it.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { withConstraintErrors } from './constraint-errors.js';
import { KeysetPager, type Page, type PageRequest } from './paging.js';

/** A button of the modal, as the driver numbers it. */
export interface ApprovalButton {
  index: number;
  label: string;
}

/** A modal first seen on screen. */
export interface ApprovalInput {
  /** Stable while the same modal is up (the daemon derives it). */
  id: string;
  /** Hash of the modal's content; an answer must quote it. */
  fingerprint: string;
  sessionId: string;
  title: string | null;
  body: string;
  buttons: readonly ApprovalButton[];
  /** `approval`, `picker` or `confirm`. */
  kind: string;
  firstSeen: number;
}

/** How an approval was answered. `answeredBy` is a token name, or `policy:<rule>` for auto-approve. */
export interface ApprovalAnswer {
  answeredBy: string;
  answeredAt: number;
  button: string;
  /** e.g. `pressed`, `cleared`, `stale`, `aborted`. */
  result: string;
}

/** A stored approval. */
export interface ApprovalRecord {
  id: string;
  fingerprint: string;
  sessionId: string;
  title: string | null;
  body: string;
  buttons: ApprovalButton[];
  kind: string;
  firstSeen: number;
  clearedAt: number | null;
  answeredBy: string | null;
  answeredAt: number | null;
  button: string | null;
  result: string | null;
}

interface ApprovalRow {
  seq: number; id: string; fingerprint: string; session_id: string; title: string | null; body: string;
  buttons: string; kind: string; first_seen: number; cleared_at: number | null; answered_by: string | null;
  answered_at: number | null; button: string | null; result: string | null;
}

/** Typed access to `approvals`. */
export class ApprovalsTable {
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #answer: Database.Statement;
  readonly #clear: Database.Statement;
  readonly #pendingAll: Database.Statement;
  readonly #pendingOfSession: Database.Statement;
  readonly #pager: KeysetPager<ApprovalRow>;

  constructor(db: Database.Database) {
    // ON CONFLICT DO NOTHING: seeing the same modal again (same id) keeps the first sighting.
    this.#insert = db.prepare(
      `INSERT INTO approvals (id, fingerprint, session_id, title, body, buttons, kind, first_seen)
       VALUES (@id, @fingerprint, @session_id, @title, @body, @buttons, @kind, @first_seen) ON CONFLICT (id) DO NOTHING`);
    this.#get = db.prepare('SELECT * FROM approvals WHERE id = ?');
    this.#answer = db.prepare(
      `UPDATE approvals SET answered_by = @by, answered_at = @at, button = @button, result = @result
       WHERE id = @id AND answered_at IS NULL`);
    this.#clear = db.prepare('UPDATE approvals SET cleared_at = @at WHERE id = @id AND cleared_at IS NULL');
    const pending = 'cleared_at IS NULL AND answered_at IS NULL';
    this.#pendingAll = db.prepare(`SELECT * FROM approvals WHERE ${pending} ORDER BY first_seen, seq`);
    this.#pendingOfSession = db.prepare(`SELECT * FROM approvals WHERE session_id = ? AND ${pending} ORDER BY first_seen, seq`);
    this.#pager = new KeysetPager(db, { table: 'approvals', timeColumn: 'first_seen', idColumn: 'seq', sessionColumn: 'session_id' });
  }

  /**
   * Records a sighting. The first sighting of an id is stored; later ones change nothing.
   *
   * @returns the stored approval and whether this call created it.
   * @throws StoreError `STORE_UNKNOWN_SESSION` when the session is not stored.
   */
  recordSeen(input: ApprovalInput): { approval: ApprovalRecord; isNew: boolean } {
    const result = withConstraintErrors({ what: `approval ${JSON.stringify(input.id)}`, sessionId: input.sessionId }, () => this.#insert.run({
      id: input.id, fingerprint: input.fingerprint, session_id: input.sessionId, title: input.title, body: input.body,
      buttons: JSON.stringify(input.buttons), kind: input.kind, first_seen: input.firstSeen,
    }));
    return { approval: this.get(input.id)!, isNew: result.changes > 0 };
  }

  /** The approval, or null. */
  get(id: string): ApprovalRecord | null {
    const row = this.#get.get(id) as ApprovalRow | undefined;
    return row ? toApproval(row) : null;
  }

  /** Records the (first) answer; false when unknown or already answered, so two answers never both count. */
  recordAnswer(id: string, answer: ApprovalAnswer): boolean {
    return this.#answer.run({ id, by: answer.answeredBy, at: answer.answeredAt, button: answer.button, result: answer.result }).changes > 0;
  }

  /** Records that the modal left the screen; false when unknown or already cleared. */
  recordCleared(id: string, at: number): boolean {
    return this.#clear.run({ id, at }).changes > 0;
  }

  /** Approvals still on screen and unanswered, oldest first; all sessions unless one is named. */
  listPending(sessionId?: string): ApprovalRecord[] {
    const rows = (sessionId === undefined ? this.#pendingAll.all() : this.#pendingOfSession.all(sessionId)) as ApprovalRow[];
    return rows.map(toApproval);
  }

  /** One page of approvals ordered by (firstSeen, insertion). */
  page(request: PageRequest = {}): Page<ApprovalRecord> {
    return this.#pager.page(request, toApproval);
  }
}

function toApproval(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id, fingerprint: row.fingerprint, sessionId: row.session_id, title: row.title, body: row.body,
    buttons: JSON.parse(row.buttons) as ApprovalButton[], kind: row.kind, firstSeen: row.first_seen,
    clearedAt: row.cleared_at, answeredBy: row.answered_by, answeredAt: row.answered_at, button: row.button, result: row.result,
  };
}
