import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test/helpers/temp-store.js';
import { openStore, type OpenStoreOptions } from './open-store.js';
import { DEFAULT_RETENTION } from './retention.js';
import type { Store } from './store.js';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 11, 1);

let tmp: ReturnType<typeof makeTempDir>;
let opened: Store[];
beforeEach(() => {
  tmp = makeTempDir();
  opened = [];
});
afterEach(() => {
  for (const store of opened) store.close();
  tmp.cleanup();
});

function open(options: OpenStoreOptions = {}): Store {
  const store = openStore(tmp.dbPath, { now: () => T0, ...options });
  opened.push(store);
  return store;
}

describe('retention', () => {
  it('drops rows older than the table\'s max age', () => {
    const store = open();
    store.sessions.insert({ id: 's', cwd: '/', createdAt: T0 });
    const maxAge = DEFAULT_RETENTION.stateChanges.maxAgeMs!;
    store.stateChanges.insert({ sessionId: 's', t: T0 - maxAge - 1, state: 'old', status: 'idle' });
    store.stateChanges.insert({ sessionId: 's', t: T0 - maxAge, state: 'edge', status: 'idle' });
    store.stateChanges.insert({ sessionId: 's', t: T0, state: 'new', status: 'idle' });
    expect(store.prune(T0).stateChanges).toBe(1);
    expect(store.stateChanges.page().items.map((c) => c.state)).toEqual(['edge', 'new']);
  });

  it('keeps only the newest max rows of a table', () => {
    const store = open({ retention: { audit: { maxRows: 3 }, notifications: { maxAgeMs: null, maxRows: 2 } } });
    for (let i = 0; i < 5; i += 1) {
      store.audit.insert({ t: T0 + i, who: 'admin', action: `a${i}`, outcome: 'ok' });
      store.notifications.insert({ t: T0 - 1000 * DAY, kind: 'error', sessionId: null, title: `n${i}`, body: '' });
    }
    expect(store.prune(T0)).toMatchObject({ audit: 2, notifications: 3 });
    expect(store.audit.page().items.map((a) => a.action)).toEqual(['a2', 'a3', 'a4']);
    // No age limit: only the row cap applies, and it keeps the newest by id among equal times.
    expect(store.notifications.page().items.map((n) => n.title)).toEqual(['n3', 'n4']);
  });

  it('never prunes a running session; an old exited one goes with its history', () => {
    const store = open();
    const longAgo = T0 - 400 * DAY;
    store.sessions.insert({ id: 'running', cwd: '/', createdAt: longAgo });
    store.sessions.insert({ id: 'exited', cwd: '/', createdAt: longAgo });
    store.sessions.insert({ id: 'recent-exit', cwd: '/', createdAt: longAgo });
    store.sessions.markExited('exited', { at: longAgo, exitCode: 0, signal: null });
    store.sessions.markExited('recent-exit', { at: T0 - DAY, exitCode: 1, signal: null });
    store.messages.enqueue({ sessionId: 'exited', text: 'x', at: T0 });
    const report = store.prune(T0);
    expect(report.exitedSessions).toBe(1);
    expect(store.sessions.list().map((s) => s.id)).toEqual(['recent-exit', 'running']);
    expect(store.messages.page().items).toEqual([]);
  });

  it('drops revoked tokens after their max age and never a live token', () => {
    let clock = T0 - 200 * DAY;
    const store = open({ now: () => clock });
    const live = store.tokens.create({ name: 'live', scope: 'read' });
    const gone = store.tokens.create({ name: 'gone', scope: 'read' });
    store.tokens.revoke(gone.record.id);
    clock = T0;
    expect(store.prune().revokedTokens).toBe(1);
    expect(store.tokens.list().map((t) => t.name)).toEqual(['live']);
    expect(store.tokens.verify(live.token)?.name).toBe('live');
  });

  it('prunes on open', () => {
    const first = open({ now: () => T0 - 365 * DAY });
    first.sessions.insert({ id: 's', cwd: '/', createdAt: T0 - 365 * DAY });
    first.stateChanges.insert({ sessionId: 's', t: T0 - 365 * DAY, state: 'ancient', status: 'idle' });
    first.close();
    const second = open();
    expect(second.stateChanges.page().items).toEqual([]);
  });

  it('refuses a bad limit naming the table, the field and the value', () => {
    expect(() => open({ retention: { messages: { maxRows: -5 } } })).toThrow(/retention\.messages\.maxRows is -5/);
    expect(() => open({ retention: { audit: { maxAgeMs: 1.5 } } })).toThrow(expect.objectContaining({ code: 'STORE_INVALID_INPUT' }));
    expect(() => open({ retention: { bogus: {} } as never })).toThrow(/retention\.bogus is not a table/);
  });
});
