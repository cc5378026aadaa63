/**
 * Scoped, revocable API tokens. The secret (256 random bits, base64url) is handed out once by
 * `create`; the database keeps only its SHA-256, so a copy of the file grants nothing.
 * `verify` finds the row by that hash and confirms it with `crypto.timingSafeEqual`.
 *
 * @module
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { isStorageFull } from '../fs/storage-full.js';
import { withConstraintErrors } from './constraint-errors.js';

import { SCOPES, type Scope } from '../protocol/scopes.js';

export type { Scope };

/** A token as listed; never holds the secret or its hash. */
export interface TokenRecord {
  id: string;
  name: string;
  scope: Scope;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/**
 * The token store the HTTP edge authenticates against. `src/server/auth.ts` declares the same
 * shape (the store may not import the server); `test/token-store-contract.test.ts` keeps them equal.
 */
export interface TokenStore {
  /** Creates a token; `token` (the secret, 256-bit random, base64url) is returned once and only its SHA-256 is stored. */
  create(input: { name: string; scope: Scope }): { token: string; record: TokenRecord };
  /** Constant-time lookup by SHA-256 of the secret; null when unknown or revoked. Updates lastUsedAt. */
  verify(secret: string): TokenRecord | null;
  list(): TokenRecord[];
  revoke(id: string): boolean;
}

/** 32 random bytes: guessing one is out of reach for any rate of tries. */
const SECRET_BYTES = 32;
/** base64url of 32 bytes without padding. */
const SECRET_LENGTH = 43;
/** Names show up in the audit log and in listings, so they stay short and printable. */
const VALID_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

interface TokenRow {
  id: string; name: string; scope: Scope; secret_sha256: Buffer;
  created_at: number; last_used_at: number | null; revoked_at: number | null;
}

/** {@link TokenStore} over the `tokens` table. */
export class SqliteTokenStore implements TokenStore {
  readonly #now: () => number;
  readonly #insert: Database.Statement;
  readonly #byHash: Database.Statement;
  readonly #touch: Database.Statement;
  readonly #list: Database.Statement;
  readonly #get: Database.Statement;
  readonly #revoke: Database.Statement;

  constructor(db: Database.Database, now: () => number) {
    this.#now = now;
    this.#insert = db.prepare(
      'INSERT INTO tokens (id, name, scope, secret_sha256, created_at) VALUES (@id, @name, @scope, @hash, @created_at)');
    this.#byHash = db.prepare('SELECT * FROM tokens WHERE secret_sha256 = ?');
    this.#touch = db.prepare('UPDATE tokens SET last_used_at = @at WHERE id = @id');
    this.#list = db.prepare('SELECT * FROM tokens ORDER BY created_at, id');
    this.#get = db.prepare('SELECT * FROM tokens WHERE id = ?');
    this.#revoke = db.prepare('UPDATE tokens SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL');
  }

  /**
   * @throws StoreError `STORE_INVALID_INPUT` for a bad name or scope; `STORE_DUPLICATE` when a
   *   live token already has the name (revoke it first, or pick another name).
   */
  create(input: { name: string; scope: Scope }): { token: string; record: TokenRecord } {
    if (typeof input.name !== 'string' || !VALID_NAME.test(input.name)) {
      throw new StoreError('STORE_INVALID_INPUT',
        `token name ${JSON.stringify(input.name)} is not 1-64 letters, digits, ".", "_" or "-" starting with a letter or digit (e.g. "phone")`);
    }
    if (!SCOPES.includes(input.scope)) {
      throw new StoreError('STORE_INVALID_INPUT', `token scope ${JSON.stringify(input.scope)} is not one of ${SCOPES.join(', ')}`);
    }
    const token = crypto.randomBytes(SECRET_BYTES).toString('base64url');
    const id = `tok_${crypto.randomBytes(9).toString('base64url')}`;
    withConstraintErrors({ what: `a live token named ${JSON.stringify(input.name)}` }, () => this.#insert.run({
      id, name: input.name, scope: input.scope, hash: sha256(token), created_at: this.#now(),
    }));
    return { token, record: this.#record(id)! };
  }

  verify(secret: string): TokenRecord | null {
    if (typeof secret !== 'string' || secret.length !== SECRET_LENGTH) return null;
    const hash = sha256(secret);
    const row = this.#byHash.get(hash) as TokenRow | undefined;
    // The index lookup already matched the hash; the constant-time compare is the check that
    // decides, so no code path answers "yes" on anything but a full, timing-safe match.
    if (!row || row.secret_sha256.length !== hash.length || !crypto.timingSafeEqual(row.secret_sha256, hash)) return null;
    if (row.revoked_at !== null) return null;
    const at = this.#now();
    try {
      this.#touch.run({ id: row.id, at });
    } catch (error) {
      // On a full disk the token still opens reads: the last-used time is a hint, the check is above.
      if (isStorageFull(error)) return toRecord(row);
      throw error;
    }
    return { ...toRecord(row), lastUsedAt: at };
  }

  list(): TokenRecord[] {
    return (this.#list.all() as TokenRow[]).map(toRecord);
  }

  /** Revokes a live token; false when the id is unknown or already revoked. */
  revoke(id: string): boolean {
    return this.#revoke.run({ id, at: this.#now() }).changes > 0;
  }

  #record(id: string): TokenRecord | null {
    const row = this.#get.get(id) as TokenRow | undefined;
    return row ? toRecord(row) : null;
  }
}

function sha256(secret: string): Buffer {
  return crypto.createHash('sha256').update(secret, 'utf8').digest();
}

function toRecord(row: TokenRow): TokenRecord {
  return { id: row.id, name: row.name, scope: row.scope, createdAt: row.created_at, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at };
}
