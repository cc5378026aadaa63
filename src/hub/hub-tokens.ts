/**
 * The hub's token store: its own SQLite tokens (created, paired, revoked as on any daemon), each
 * also a fleet token (its hash into the ledger, so every node takes it with its scope), and the
 * secret a caller signed in with, kept in memory by token id while the hub runs: the hub forwards
 * a call to a node with the caller's own token, and the operations layer hands handlers only
 * the principal. The hub's admin token is the fleet's admin (a fleet record named `hub-admin`).
 * @module
 */
import type { TokenRecord, TokenStore } from '../server/auth.js';
import { SpectermError } from '../protocol/index.js';
import type { FleetTokenLedger } from '../nats/fleet-tokens-ledger.js';
import { secretHash } from '../nats/fleet-tokens.js';
import type { Principal } from '../ops/principal.js';

/** The fleet record id of the hub's admin token. */
export const HUB_ADMIN_TOKEN_ID = 'hub-admin';

export class HubTokens implements TokenStore {
  readonly #inner: TokenStore;
  readonly #ledger: FleetTokenLedger;
  readonly #now: () => number;
  readonly #secrets = new Map<string, string>();

  constructor(options: { inner: TokenStore; ledger: FleetTokenLedger; adminToken: string; now: () => number }) {
    this.#inner = options.inner;
    this.#ledger = options.ledger;
    this.#now = options.now;
    this.#secrets.set('admin', options.adminToken);
    options.ledger.record(HUB_ADMIN_TOKEN_ID, { sha256: secretHash(options.adminToken), scope: 'admin', name: 'hub-admin', revoked_at: null });
  }

  create(input: { name: string; scope: TokenRecord['scope'] }): { token: string; record: TokenRecord } {
    const made = this.#inner.create(input);
    this.#secrets.set(made.record.id, made.token);
    this.#ledger.record(made.record.id, { sha256: secretHash(made.token), scope: made.record.scope, name: made.record.name, revoked_at: null });
    return made;
  }

  verify(secret: string): TokenRecord | null {
    const record = this.#inner.verify(secret);
    if (record) this.#secrets.set(record.id, secret);
    return record;
  }

  list(): TokenRecord[] {
    return this.#inner.list();
  }

  revoke(id: string): boolean {
    const revoked = this.#inner.revoke(id);
    if (revoked) {
      this.#secrets.delete(id);
      this.#ledger.revoke(id, this.#now());
    }
    return revoked;
  }

  /**
   * The secret `principal` signed in with, once the bucket has its record (a token made an
   * instant ago is on every node before a call goes out with it).
   */
  async secretOf(principal: Principal): Promise<string> {
    const secret = this.#secrets.get(principal.tokenId);
    if (secret === undefined) {
      throw new SpectermError({ code: 'AUTH_INVALID', detail: 'the hub no longer holds this sign-in (it restarted or the token was revoked); sign in again with your token' });
    }
    await this.#ledger.settled(principal.tokenId === 'admin' ? HUB_ADMIN_TOKEN_ID : principal.tokenId);
    return secret;
  }
}
