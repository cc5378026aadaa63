/**
 * The open store: one SQLite connection and a typed table object per table. Nothing outside
 * `src/store` writes SQL; the daemon uses these methods.
 *
 * @module
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { withStorageFull } from '../fs/storage-full.js';
import { ApprovalsTable } from './approvals-table.js';
import { StoreError, type StoreErrorCode } from './errors.js';
import { AuditTable, NotificationsTable } from './event-log-tables.js';
import { EventsTable } from './events-table.js';
import { MessagesTable } from './messages-table.js';
import { TranscriptsTable } from './transcripts-table.js';
import { TasksTable } from './tasks-table.js';
import { PushSubscriptionsTable } from './push-subscriptions-table.js';
import { Pruner, type PruneReport, type RetentionPolicy } from './retention.js';
import { SessionsTable } from './sessions-table.js';
import { StateChangesTable } from './state-changes-table.js';
import { guardStorage } from './storage-guard.js';
import { SqliteTokenStore } from './token-store.js';

/** Told once per open when the file at the path could not be used and was moved aside. */
export interface StoreNotice {
  /** Why: `STORE_CORRUPT`, `STORE_UNREADABLE`, `STORE_NEWER_SCHEMA` or `STORE_MIGRATION_FAILED`. */
  readonly code: StoreErrorCode;
  /** Where the old file (and its -wal/-shm) now is; nothing was deleted. */
  readonly movedAside: string;
  /** What was wrong, in words. */
  readonly reason: string;
}

/** The history database of one daemon. */
export class Store {
  /** Path of the database file. */
  readonly path: string;
  /** Set when the previous file was moved aside and this store started fresh. */
  readonly notice: StoreNotice | null;
  /** Schema version (`PRAGMA user_version`). */
  readonly schemaVersion: number;
  readonly sessions: SessionsTable;
  readonly stateChanges: StateChangesTable;
  readonly approvals: ApprovalsTable;
  readonly messages: MessagesTable;
  readonly transcripts: TranscriptsTable;
  readonly tasks: TasksTable;
  readonly notifications: NotificationsTable;
  readonly audit: AuditTable;
  readonly events: EventsTable;
  readonly tokens: SqliteTokenStore;
  readonly pushSubscriptions: PushSubscriptionsTable;
  readonly #db: Database.Database;
  readonly #pruner: Pruner;
  readonly #now: () => number;
  readonly #dir: string;

  /** @internal Use `openStore`. */
  constructor(db: Database.Database, init: { path: string; notice: StoreNotice | null; schemaVersion: number; now: () => number; retention: RetentionPolicy }) {
    this.#db = db;
    this.#now = init.now;
    this.path = init.path;
    this.notice = init.notice;
    this.schemaVersion = init.schemaVersion;
    // A full disk, from any table, is a StorageFullError naming this directory (./storage-guard.ts).
    this.#dir = path.dirname(init.path);
    const guard = <T extends object>(table: T): T => guardStorage(table, this.#dir);
    this.sessions = guard(new SessionsTable(db));
    this.stateChanges = guard(new StateChangesTable(db));
    this.approvals = guard(new ApprovalsTable(db));
    this.messages = guard(new MessagesTable(db));
    this.transcripts = guard(new TranscriptsTable(db));
    this.tasks = guard(new TasksTable(db));
    this.notifications = guard(new NotificationsTable(db));
    this.audit = guard(new AuditTable(db));
    this.events = guard(new EventsTable(db));
    this.tokens = guard(new SqliteTokenStore(db, init.now));
    this.pushSubscriptions = guard(new PushSubscriptionsTable(db));
    this.#pruner = new Pruner(db, init.retention);
  }

  /** Deletes what the retention policy no longer keeps, as of `nowMs` (default: the store's clock). */
  prune(nowMs: number = this.#now()): PruneReport {
    this.#assertOpen();
    return withStorageFull(this.#dir, () => this.#pruner.prune(nowMs));
  }

  /**
   * Runs `work` in one transaction: every write in it lands, or none does (e.g. a state change and
   * its notification). Nested calls join the outer transaction.
   */
  transaction<T>(work: () => T): T {
    this.#assertOpen();
    return withStorageFull(this.#dir, () => this.#db.transaction(work)());
  }

  /** Whether `close()` has run. */
  get isClosed(): boolean {
    return !this.#db.open;
  }

  /** Checkpoints the WAL into the file and closes the connection. Idempotent. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #assertOpen(): void {
    if (!this.#db.open) throw new StoreError('STORE_CLOSED', `${this.path}: the store is closed; open it again with openStore()`);
  }
}
