/**
 * The store layer: durable history in SQLite (sessions, state changes, approvals, messages,
 * notifications, audit, tokens). The only entry point into `src/store` from outside.
 *
 * @module
 */
export { openStore, DEFAULT_BUSY_TIMEOUT_MS, type OpenStoreOptions } from './open-store.js';
export { Store, type StoreNotice } from './store.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export { DEFAULT_RETENTION, type PruneReport, type RetentionPolicy, type TableRetention } from './retention.js';
export { decodeCursor, encodeCursor, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page, type PageCursor, type PageRequest } from './paging.js';
export type { SessionExit, SessionInput, SessionRecord, SessionsTable } from './sessions-table.js';
export type { ModalSummary, StateChangeInput, StateChangeRecord, StateChangesTable } from './state-changes-table.js';
export type { ApprovalAnswer, ApprovalButton, ApprovalInput, ApprovalRecord, ApprovalsTable } from './approvals-table.js';
export type { MessageInput, MessageOutcome, MessageRecord, MessagesTable } from './messages-table.js';
export type { TranscriptsTable } from './transcripts-table.js';
export type {
  AuditInput, AuditRecord, AuditTable, NotificationInput, NotificationKind, NotificationRecord, NotificationsTable,
} from './event-log-tables.js';
export type { EventsTable, UnnumberedEvent } from './events-table.js';
export type { PushSubscriptionRecord, PushSubscriptionsTable } from './push-subscriptions-table.js';
export { SqliteTokenStore, type Scope, type TokenRecord, type TokenStore } from './token-store.js';
