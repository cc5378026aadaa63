/**
 * Bounded retention: per table a maximum age and a maximum row count, applied by `prune(now)`
 * (on open, then whenever the daemon calls it). Running sessions and live tokens are never
 * pruned; removing an exited session also removes its state changes, approvals and messages.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';

/** Limits of one table; null means no limit of that kind. */
export interface TableRetention {
  readonly maxAgeMs: number | null;
  readonly maxRows: number | null;
}

/** Limits per table. */
export interface RetentionPolicy {
  readonly stateChanges: TableRetention;
  readonly approvals: TableRetention;
  readonly messages: TableRetention;
  readonly notifications: TableRetention;
  readonly audit: TableRetention;
  /** The daemon's event stream (what SSE / WebSocket clients resume from). */
  readonly events: TableRetention;
  /** Sessions that have exited (age counted from the exit). */
  readonly exitedSessions: TableRetention;
  /** Revoked tokens (age counted from the revocation). */
  readonly revokedTokens: TableRetention;
}

/** Rows deleted per table by one prune (cascaded children are not counted). */
export type PruneReport = Record<keyof RetentionPolicy, number>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Defaults. The row caps bound the file to tens of MB (a state change row is ~100 bytes with its
 * indexes; 100 busy sessions write a few per minute each); the audit trail is kept longest
 * because it answers "who typed that".
 */
export const DEFAULT_RETENTION: RetentionPolicy = {
  stateChanges: { maxAgeMs: 30 * DAY_MS, maxRows: 200_000 },
  approvals: { maxAgeMs: 90 * DAY_MS, maxRows: 50_000 },
  messages: { maxAgeMs: 90 * DAY_MS, maxRows: 50_000 },
  notifications: { maxAgeMs: 30 * DAY_MS, maxRows: 50_000 },
  audit: { maxAgeMs: 180 * DAY_MS, maxRows: 200_000 },
  // A client away for longer re-reads the session list; 100k events is a busy week of 100 sessions.
  events: { maxAgeMs: 7 * DAY_MS, maxRows: 100_000 },
  exitedSessions: { maxAgeMs: 30 * DAY_MS, maxRows: 1_000 },
  revokedTokens: { maxAgeMs: 90 * DAY_MS, maxRows: 1_000 },
};

/** How each policy entry maps onto its table (trusted constants, interpolated into SQL). */
const TABLES: Record<keyof RetentionPolicy, { table: string; time: string; id: string; only: string }> = {
  // Sessions first: their cascade removes children before the per-table caps count them.
  exitedSessions: { table: 'sessions', time: 'exited_at', id: 'rowid', only: 'exited_at IS NOT NULL' },
  stateChanges: { table: 'state_changes', time: 't', id: 'id', only: '1' },
  approvals: { table: 'approvals', time: 'first_seen', id: 'seq', only: '1' },
  messages: { table: 'messages', time: 'created_at', id: 'id', only: '1' },
  notifications: { table: 'notifications', time: 't', id: 'id', only: '1' },
  audit: { table: 'audit', time: 't', id: 'id', only: '1' },
  events: { table: 'events', time: 't', id: 'seq', only: '1' },
  revokedTokens: { table: 'tokens', time: 'revoked_at', id: 'rowid', only: 'revoked_at IS NOT NULL' },
};

/**
 * Merges `overrides` over {@link DEFAULT_RETENTION}, checking each limit.
 *
 * @throws StoreError `STORE_INVALID_INPUT` naming the table, the field and the value.
 */
export function resolveRetention(overrides: Partial<Record<keyof RetentionPolicy, Partial<TableRetention>>> = {}): RetentionPolicy {
  const policy = {} as Record<keyof RetentionPolicy, TableRetention>;
  for (const key of Object.keys(TABLES) as Array<keyof RetentionPolicy>) {
    const merged = { ...DEFAULT_RETENTION[key], ...overrides[key] };
    for (const field of ['maxAgeMs', 'maxRows'] as const) {
      const value = merged[field];
      if (value !== null && !(Number.isSafeInteger(value) && value >= 0)) {
        throw new StoreError('STORE_INVALID_INPUT',
          `retention.${key}.${field} is ${JSON.stringify(value)}; use a whole number >= 0, or null for no limit`);
      }
    }
    policy[key] = merged;
  }
  for (const key of Object.keys(overrides)) {
    if (!(key in TABLES)) {
      throw new StoreError('STORE_INVALID_INPUT', `retention.${key} is not a table; use one of ${Object.keys(TABLES).join(', ')}`);
    }
  }
  return policy;
}

/** Deletes what `policy` no longer keeps, in one transaction. */
export class Pruner {
  readonly #db: Database.Database;
  readonly #policy: RetentionPolicy;
  readonly #steps: Array<{ key: keyof RetentionPolicy; byAge: Database.Statement | null; byRows: Database.Statement | null }>;

  constructor(db: Database.Database, policy: RetentionPolicy) {
    this.#db = db;
    this.#policy = policy;
    this.#steps = (Object.keys(TABLES) as Array<keyof RetentionPolicy>).map((key) => {
      const { table, time, id, only } = TABLES[key];
      const { maxAgeMs, maxRows } = policy[key];
      return {
        key,
        byAge: maxAgeMs === null ? null : db.prepare(`DELETE FROM ${table} WHERE ${only} AND ${time} < @cutoff`),
        byRows: maxRows === null ? null : db.prepare(
          `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${only} ` +
          `ORDER BY ${time} DESC, ${id} DESC LIMIT -1 OFFSET @keep)`),
      };
    });
  }

  /** Applies the policy as of `nowMs`. */
  prune(nowMs: number): PruneReport {
    const report = {} as PruneReport;
    this.#db.transaction(() => {
      for (const { key, byAge, byRows } of this.#steps) {
        const { maxAgeMs, maxRows } = this.#policy[key];
        let deleted = 0;
        if (byAge && maxAgeMs !== null) deleted += byAge.run({ cutoff: nowMs - maxAgeMs }).changes;
        if (byRows && maxRows !== null) deleted += byRows.run({ keep: maxRows }).changes;
        report[key] = deleted;
      }
    }).immediate();
    return report;
  }
}
