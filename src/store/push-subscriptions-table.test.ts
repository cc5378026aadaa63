import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers/temp-store.js';
import { MIGRATIONS } from './migrations.js';
import { openStoreWith } from './open-store.js';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0, 0);
let tmp: ReturnType<typeof makeTempDir>;
beforeEach(() => { tmp = makeTempDir(); });
afterEach(() => { tmp.cleanup(); });

const keys = { p256dh: 'BP', auth: 'AA' };

describe('push subscriptions follow their device token', () => {
  it('revoking a token deletes its subscriptions in the same write, and only its own', () => {
    const store = openStoreWith(tmp.dbPath, { now: () => NOW }, MIGRATIONS);
    try {
      const phone = store.tokens.create({ name: 'phone', scope: 'read' }).record;
      const desk = store.tokens.create({ name: 'desk', scope: 'read' }).record;
      store.pushSubscriptions.upsert({ endpoint: 'https://push.example/phone', keys, tokenId: phone.id, device: 'phone', at: NOW });
      store.pushSubscriptions.upsert({ endpoint: 'https://push.example/desk', keys, tokenId: desk.id, device: 'desk', at: NOW });
      expect(store.tokens.revoke(phone.id)).toBe(true);
      expect(store.pushSubscriptions.list().map((s) => s.device)).toEqual(['desk']);
      expect(store.pushSubscriptions.has('https://push.example/phone')).toBe(false);
      expect(store.pushSubscriptions.has('https://push.example/desk')).toBe(true);
    } finally {
      store.close();
    }
  });

  it('the migration clears the rows revoked devices left behind before it', () => {
    const before = MIGRATIONS.filter((m) => m.version <= 3);
    const old = openStoreWith(tmp.dbPath, { now: () => NOW }, before);
    const phone = old.tokens.create({ name: 'phone', scope: 'read' }).record;
    const desk = old.tokens.create({ name: 'desk', scope: 'read' }).record;
    old.pushSubscriptions.upsert({ endpoint: 'https://push.example/phone', keys, tokenId: phone.id, device: 'phone', at: NOW });
    old.pushSubscriptions.upsert({ endpoint: 'https://push.example/desk', keys, tokenId: desk.id, device: 'desk', at: NOW });
    old.tokens.revoke(phone.id);
    expect(old.pushSubscriptions.list()).toHaveLength(2); // the defect: the revoked phone kept its row
    old.close();
    const upgraded = openStoreWith(tmp.dbPath, { now: () => NOW }, MIGRATIONS);
    try {
      expect(upgraded.pushSubscriptions.list().map((s) => s.device)).toEqual(['desk']);
    } finally {
      upgraded.close();
    }
  });
});
