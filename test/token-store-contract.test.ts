/**
 * The SQLite token store and the HTTP edge declare the token-store shape separately (the store may
 * not import the server). This file makes the compiler hold them equal, and checks the one
 * behaviour the server relies on: a revoked token no longer verifies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TokenStore as ServerTokenStore } from '../src/server/auth.js';
import { openStore, type Store, type TokenStore as StoreTokenStore } from '../src/store/index.js';
import { makeTempDir } from './helpers/temp-store.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shapesAgree: Same<ServerTokenStore, StoreTokenStore> = true;

describe('token store contract', () => {
  let store: Store | null = null;
  let cleanup = (): void => {};
  afterEach(() => { store?.close(); store = null; cleanup(); });

  it('the store is a server TokenStore: a created token verifies until revoked', () => {
    expect(shapesAgree).toBe(true);
    const tmp = makeTempDir();
    cleanup = tmp.cleanup;
    store = openStore(tmp.dbPath);
    const tokens: ServerTokenStore = store.tokens;
    const { token, record } = tokens.create({ name: 'phone', scope: 'approve' });
    expect(tokens.verify(token)?.id).toBe(record.id);
    expect(tokens.revoke(record.id)).toBe(true);
    expect(tokens.verify(token)).toBeNull();
  });
});
