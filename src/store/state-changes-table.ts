/**
 * The `state_changes` table: every state a session entered, for `GET …/history` and `logs`.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { jsonOrNull, parseOrNull, withConstraintErrors } from './constraint-errors.js';
import { EventTable } from './event-table.js';

/** What was on screen as a modal when the state was entered. */
export interface ModalSummary {
  /** The approval's id when the modal is tracked as one. */
  approvalId: string | null;
  kind: string | null;
  title: string | null;
}

/** A state change to record. */
export interface StateChangeInput {
  sessionId: string;
  t: number;
  /** The spec's state id. */
  state: string;
  /** The state's status (`idle`, `generating`, `approval`, … or the daemon's `starting`/`exited`). */
  status: string;
  modal?: ModalSummary | null;
}

/** A stored state change; `id` grows with every insert and is never reused. */
export interface StateChangeRecord extends Required<StateChangeInput> {
  id: number;
}

interface StateChangeRow { id: number; session_id: string; t: number; state: string; status: string; modal: string | null }

/** Typed access to `state_changes`. */
export class StateChangesTable extends EventTable<StateChangeRow, StateChangeRecord> {
  readonly #insert: Database.Statement;

  constructor(db: Database.Database) {
    super(db, 'state_changes', toStateChange);
    this.#insert = db.prepare(
      'INSERT INTO state_changes (session_id, t, state, status, modal) VALUES (@session_id, @t, @state, @status, @modal)');
  }

  /**
   * Appends a state change.
   *
   * @throws StoreError `STORE_UNKNOWN_SESSION` when the session is not stored.
   */
  insert(input: StateChangeInput): StateChangeRecord {
    const modal = input.modal ?? null;
    const result = withConstraintErrors({ what: `state change at ${input.t}`, sessionId: input.sessionId }, () => this.#insert.run({
      session_id: input.sessionId, t: input.t, state: input.state, status: input.status, modal: jsonOrNull(modal),
    }));
    return { id: Number(result.lastInsertRowid), sessionId: input.sessionId, t: input.t, state: input.state, status: input.status, modal };
  }
}

function toStateChange(row: StateChangeRow): StateChangeRecord {
  return { id: row.id, sessionId: row.session_id, t: row.t, state: row.state, status: row.status, modal: parseOrNull<ModalSummary>(row.modal) };
}
