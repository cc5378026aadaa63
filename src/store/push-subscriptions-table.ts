/**
 * The `push_subscriptions` table: the browsers the daemon wakes with Web Push. One row per
 * endpoint (a browser subscribing again replaces its keys); the device token that subscribed is
 * kept so revoking the device drops its subscriptions (a trigger, migration 4); a push service's 404/410 deletes the row.
 *
 * @module
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';

/** Migration 3 (additive): the table and nothing else. */
export const PUSH_SUBSCRIPTIONS_SCHEMA = `
CREATE TABLE push_subscriptions (
  id         TEXT PRIMARY KEY,
  endpoint   TEXT NOT NULL UNIQUE,     -- the push service URL: a capability, never logged
  p256dh     TEXT NOT NULL,
  auth       TEXT NOT NULL,
  token_id   TEXT NOT NULL,
  device     TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
`;

/**
 * Migration 4: a revoked device stops being pushed to. The trigger sits in the database, not in
 * one code path, so every way of revoking (the admin API, sign-out, `specterm token revoke`
 * against the file) drops the device's subscriptions in the same transaction; the DELETE clears
 * the rows revoked devices left behind before this migration.
 */
export const PUSH_SUBSCRIPTIONS_FOLLOW_TOKENS = `
CREATE INDEX push_subscriptions_by_token ON push_subscriptions (token_id);
CREATE TRIGGER push_subscriptions_drop_on_revoke AFTER UPDATE OF revoked_at ON tokens
  WHEN NEW.revoked_at IS NOT NULL
  BEGIN DELETE FROM push_subscriptions WHERE token_id = NEW.id; END;
DELETE FROM push_subscriptions WHERE token_id IN (SELECT id FROM tokens WHERE revoked_at IS NOT NULL);
`;

export interface PushSubscriptionRecord {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  tokenId: string;
  device: string;
  createdAt: number;
}

interface Row { id: string; endpoint: string; p256dh: string; auth: string; token_id: string; device: string; created_at: number }

export class PushSubscriptionsTable {
  readonly #db: Database.Database;
  #statements: { upsert: Database.Statement; byEndpoint: Database.Statement; all: Database.Statement; remove: Database.Statement } | null = null;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Prepared on first use: a store opened at an older schema (the migration tests) has no such table. */
  get #sql() {
    this.#statements ??= {
      upsert: this.#db.prepare(
        `INSERT INTO push_subscriptions (id, endpoint, p256dh, auth, token_id, device, created_at)
         VALUES (@id, @endpoint, @p256dh, @auth, @token_id, @device, @created_at)
         ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
           token_id = excluded.token_id, device = excluded.device`),
      byEndpoint: this.#db.prepare('SELECT * FROM push_subscriptions WHERE endpoint = ?'),
      all: this.#db.prepare('SELECT * FROM push_subscriptions ORDER BY created_at, id'),
      remove: this.#db.prepare('DELETE FROM push_subscriptions WHERE endpoint = ?'),
    };
    return this.#statements;
  }

  /** Stores the subscription of `endpoint` (replacing its keys and owner when it exists). */
  upsert(input: Omit<PushSubscriptionRecord, 'id' | 'createdAt'> & { at: number }): PushSubscriptionRecord {
    this.#sql.upsert.run({
      id: `push_${crypto.randomBytes(9).toString('base64url')}`, endpoint: input.endpoint, p256dh: input.keys.p256dh,
      auth: input.keys.auth, token_id: input.tokenId, device: input.device, created_at: input.at,
    });
    return toRecord(this.#sql.byEndpoint.get(input.endpoint) as Row);
  }

  list(): PushSubscriptionRecord[] {
    return (this.#sql.all.all() as Row[]).map(toRecord);
  }

  /** Whether `endpoint` is still subscribed. */
  has(endpoint: string): boolean {
    return this.#sql.byEndpoint.get(endpoint) !== undefined;
  }

  /** Removes the subscription of `endpoint`; false when there was none. */
  remove(endpoint: string): boolean {
    return this.#sql.remove.run(endpoint).changes > 0;
  }
}

function toRecord(row: Row): PushSubscriptionRecord {
  return { id: row.id, endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth }, tokenId: row.token_id, device: row.device, createdAt: row.created_at };
}
