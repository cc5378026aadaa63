import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseBytes, makeTempDir } from '../../test/helpers/temp-store.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
let clock: number;
beforeEach(() => {
  tmp = makeTempDir();
  clock = Date.UTC(2026, 11, 1);
  store = openStore(tmp.dbPath, { now: () => clock });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

describe('SqliteTokenStore', () => {
  it('hands out a 256-bit base64url secret once and verifies it', () => {
    const { token, record } = store.tokens.create({ name: 'phone', scope: 'approve' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(record).toEqual({ id: record.id, name: 'phone', scope: 'approve', createdAt: clock, lastUsedAt: null, revokedAt: null });
    clock += 1000;
    expect(store.tokens.verify(token)).toEqual({ ...record, lastUsedAt: clock });
    expect(store.tokens.list()).toEqual([{ ...record, lastUsedAt: clock }]);
  });

  it('gives two tokens different secrets and ids', () => {
    const a = store.tokens.create({ name: 'a', scope: 'read' });
    const b = store.tokens.create({ name: 'b', scope: 'read' });
    expect(a.token).not.toBe(b.token);
    expect(a.record.id).not.toBe(b.record.id);
    expect(store.tokens.verify(b.token)?.name).toBe('b');
  });

  it('answers null for a wrong, altered, empty or non-string secret', () => {
    const { token } = store.tokens.create({ name: 'ci', scope: 'input' });
    const altered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    for (const wrong of [altered, crypto.randomBytes(32).toString('base64url'), '', token + 'x', token.slice(1), 'x'.repeat(10_000)]) {
      expect(store.tokens.verify(wrong)).toBeNull();
    }
    expect(store.tokens.verify(undefined as unknown as string)).toBeNull();
    expect(store.tokens.list()[0]!.lastUsedAt).toBeNull();
  });

  it('answers null once the token is revoked, and revoking twice or an unknown id returns false', () => {
    const { token, record } = store.tokens.create({ name: 'laptop', scope: 'admin' });
    clock += 5;
    expect(store.tokens.revoke(record.id)).toBe(true);
    expect(store.tokens.verify(token)).toBeNull();
    expect(store.tokens.revoke(record.id)).toBe(false);
    expect(store.tokens.revoke('tok_unknown')).toBe(false);
    expect(store.tokens.list()[0]!.revokedAt).toBe(clock);
  });

  it('stores only the SHA-256 of the secret, never the secret', () => {
    const { token } = store.tokens.create({ name: 'phone', scope: 'read' });
    store.tokens.verify(token);
    const bytes = databaseBytes(tmp.dbPath);
    const hash = crypto.createHash('sha256').update(token).digest();
    expect(bytes.includes(hash)).toBe(true);
    expect(bytes.includes(Buffer.from(token))).toBe(false);
    store.close();
    const afterCheckpoint = databaseBytes(tmp.dbPath);
    expect(afterCheckpoint.includes(hash)).toBe(true);
    expect(afterCheckpoint.includes(Buffer.from(token))).toBe(false);
  });

  it('keeps tokens valid across a reopen', () => {
    const { token } = store.tokens.create({ name: 'phone', scope: 'read' });
    store.close();
    store = openStore(tmp.dbPath, { now: () => clock });
    expect(store.tokens.verify(token)?.name).toBe('phone');
  });

  it('refuses a second live token with the same name, and allows the name again after a revoke', () => {
    const first = store.tokens.create({ name: 'phone', scope: 'read' });
    expect(() => store.tokens.create({ name: 'phone', scope: 'admin' })).toThrow(expect.objectContaining({ code: 'STORE_DUPLICATE' }));
    store.tokens.revoke(first.record.id);
    expect(store.tokens.create({ name: 'phone', scope: 'admin' }).record.scope).toBe('admin');
  });

  it('refuses a bad name or scope naming the value', () => {
    for (const name of ['', ' phone', 'a/b', 'x'.repeat(65), 'line\nbreak']) {
      expect(() => store.tokens.create({ name, scope: 'read' })).toThrow(expect.objectContaining({ code: 'STORE_INVALID_INPUT' }));
    }
    expect(() => store.tokens.create({ name: 'ok', scope: 'root' as never })).toThrow(/scope "root" is not one of read, approve, input, admin/);
    expect(store.tokens.list()).toEqual([]);
  });
});
