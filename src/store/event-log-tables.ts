/**
 * The two append-only logs: `notifications` (typed events sent to subscribers, desktop and
 * webhooks; their ids resume an SSE stream) and `audit` (every command that types into an agent or
 * answers it: who, what, when, outcome). Neither refers to sessions by foreign key, so both
 * outlive a removed session until retention drops them.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { jsonOrNull, parseOrNull } from './constraint-errors.js';
import { EventTable } from './event-table.js';

/** The notification kinds of issue 15 item 9. */
export type NotificationKind = 'approval_needed' | 'turn_finished' | 'exited' | 'error' | 'spec_error';

/** A notification to record. */
export interface NotificationInput {
  t: number;
  kind: NotificationKind;
  sessionId: string | null;
  title: string;
  body: string;
  /** Extra typed payload (e.g. the approval id), stored as JSON. */
  data?: unknown;
}

/** A stored notification; `id` grows and is never reused (an SSE event id). */
export interface NotificationRecord {
  id: number;
  t: number;
  kind: NotificationKind;
  sessionId: string | null;
  title: string;
  body: string;
  data: unknown;
}

/** An audit entry to record. Never put secrets or typed text's secrets in `detail`. */
export interface AuditInput {
  t: number;
  /** The token's name. */
  who: string;
  tokenId?: string | null;
  /** e.g. `messages.send`, `keys`, `approvals.answer`, `policy.answer`. */
  action: string;
  sessionId?: string | null;
  detail?: unknown;
  /** e.g. `ok`, `refused`, `failed`. */
  outcome: string;
  reason?: string | null;
}

/** A stored audit entry. */
export interface AuditRecord {
  id: number;
  t: number;
  who: string;
  tokenId: string | null;
  action: string;
  sessionId: string | null;
  detail: unknown;
  outcome: string;
  reason: string | null;
}

interface NotificationRow { id: number; t: number; kind: NotificationKind; session_id: string | null; title: string; body: string; data: string | null }
interface AuditRow {
  id: number; t: number; who: string; token_id: string | null; action: string; session_id: string | null;
  detail: string | null; outcome: string; reason: string | null;
}

/** Typed access to `notifications`. */
export class NotificationsTable extends EventTable<NotificationRow, NotificationRecord> {
  readonly #insert: Database.Statement;

  constructor(db: Database.Database) {
    super(db, 'notifications', toNotification);
    this.#insert = db.prepare(
      'INSERT INTO notifications (t, kind, session_id, title, body, data) VALUES (@t, @kind, @session_id, @title, @body, @data)');
  }

  /** Appends a notification. */
  insert(input: NotificationInput): NotificationRecord {
    const data = input.data ?? null;
    const result = this.#insert.run({
      t: input.t, kind: input.kind, session_id: input.sessionId, title: input.title, body: input.body, data: jsonOrNull(data),
    });
    return { id: Number(result.lastInsertRowid), t: input.t, kind: input.kind, sessionId: input.sessionId, title: input.title, body: input.body, data };
  }
}

/** Typed access to `audit`. */
export class AuditTable extends EventTable<AuditRow, AuditRecord> {
  readonly #insert: Database.Statement;

  constructor(db: Database.Database) {
    super(db, 'audit', toAudit);
    this.#insert = db.prepare(
      `INSERT INTO audit (t, who, token_id, action, session_id, detail, outcome, reason)
       VALUES (@t, @who, @token_id, @action, @session_id, @detail, @outcome, @reason)`);
  }

  /** Appends an audit entry. */
  insert(input: AuditInput): AuditRecord {
    const record = {
      t: input.t, who: input.who, tokenId: input.tokenId ?? null, action: input.action, sessionId: input.sessionId ?? null,
      detail: input.detail ?? null, outcome: input.outcome, reason: input.reason ?? null,
    };
    const result = this.#insert.run({
      t: record.t, who: record.who, token_id: record.tokenId, action: record.action, session_id: record.sessionId,
      detail: jsonOrNull(record.detail), outcome: record.outcome, reason: record.reason,
    });
    return { id: Number(result.lastInsertRowid), ...record };
  }
}

function toNotification(row: NotificationRow): NotificationRecord {
  return { id: row.id, t: row.t, kind: row.kind, sessionId: row.session_id, title: row.title, body: row.body, data: parseOrNull(row.data) };
}

function toAudit(row: AuditRow): AuditRecord {
  return {
    id: row.id, t: row.t, who: row.who, tokenId: row.token_id, action: row.action, sessionId: row.session_id,
    detail: parseOrNull(row.detail), outcome: row.outcome, reason: row.reason,
  };
}
