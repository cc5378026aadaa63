import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseBytes, makeTempDir } from '../../test/helpers/temp-store.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

const T0 = Date.UTC(2026, 11, 1);

let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(() => {
  tmp = makeTempDir();
  store = openStore(tmp.dbPath, { now: () => T0 });
  store.sessions.insert({ id: 's1', cwd: '/work', createdAt: T0 });
});
afterEach(() => {
  store.close();
  tmp.cleanup();
});

describe('SessionsTable', () => {
  it('stores what a session was created with and how it exited', () => {
    const created = store.sessions.insert({
      id: 's2', name: 'fix bug', specId: 'claude-code', specPath: null, cwd: '/repo', branch: 'fix/1', worktree: '/repo/.wt/fix-1',
      args: ['--model', 'x'], labels: { team: 'core' }, envKeys: ['ANTHROPIC_API_KEY'], cols: 120, rows: 40, createdAt: T0 + 1,
    });
    expect(created).toMatchObject({ id: 's2', branch: 'fix/1', args: ['--model', 'x'], labels: { team: 'core' }, envKeys: ['ANTHROPIC_API_KEY'], exitedAt: null });
    expect(store.sessions.markExited('s2', { at: T0 + 9, exitCode: null, signal: 'SIGKILL' })).toBe(true);
    expect(store.sessions.get('s2')).toMatchObject({ exitedAt: T0 + 9, exitCode: null, signal: 'SIGKILL' });
    expect(store.sessions.markRestarted('s2')).toBe(true);
    expect(store.sessions.get('s2')).toMatchObject({ exitedAt: null, signal: null });
    expect(store.sessions.list().map((s) => s.id)).toEqual(['s1', 's2']);
    expect(store.sessions.markExited('nope', { at: 1, exitCode: 0, signal: null })).toBe(false);
  });

  it('never writes environment values, even when the caller passes them', () => {
    const secret = 'sk-live-5f3c9a1b7e';
    store.sessions.insert({ id: 's2', cwd: '/repo', createdAt: T0, envKeys: ['API_KEY'], env: { API_KEY: secret } } as never);
    expect(databaseBytes(tmp.dbPath).includes(Buffer.from(secret))).toBe(false);
    expect(databaseBytes(tmp.dbPath).includes(Buffer.from('API_KEY'))).toBe(true);
  });

  it('refuses a duplicate id', () => {
    expect(() => store.sessions.insert({ id: 's1', cwd: '/x', createdAt: T0 })).toThrow(expect.objectContaining({ code: 'STORE_DUPLICATE' }));
  });

  it('removes a session together with its state changes, approvals and messages, but keeps its audit trail', () => {
    store.stateChanges.insert({ sessionId: 's1', t: T0, state: 'idle', status: 'idle' });
    store.approvals.recordSeen({ id: 'a1', fingerprint: 'f', sessionId: 's1', title: null, body: 'Run?', buttons: [], kind: 'approval', firstSeen: T0 });
    store.messages.enqueue({ sessionId: 's1', text: 'hi', at: T0 });
    store.audit.insert({ t: T0, who: 'admin', action: 'messages.send', sessionId: 's1', outcome: 'ok' });
    expect(store.sessions.remove('s1')).toBe(true);
    expect(store.stateChanges.page().items).toEqual([]);
    expect(store.approvals.get('a1')).toBeNull();
    expect(store.messages.page().items).toEqual([]);
    expect(store.audit.page().items).toHaveLength(1);
    expect(store.sessions.remove('s1')).toBe(false);
  });
});

describe('MessagesTable', () => {
  it('detects the same idempotency key twice in a session and keeps the first message', () => {
    const first = store.messages.enqueue({ sessionId: 's1', idempotencyKey: 'k-1', text: 'run the tests', at: T0 });
    expect(first.isDuplicate).toBe(false);
    store.messages.setOutcome(first.message.id, 'typed', T0 + 10);
    const again = store.messages.enqueue({ sessionId: 's1', idempotencyKey: 'k-1', text: 'run the tests', at: T0 + 50 });
    expect(again.isDuplicate).toBe(true);
    expect(again.message).toMatchObject({ id: first.message.id, outcome: 'typed', typedAt: T0 + 10, createdAt: T0 });
    expect(store.messages.page().items).toHaveLength(1);
  });

  it('detects the key after a daemon restart', () => {
    store.messages.enqueue({ sessionId: 's1', idempotencyKey: 'k-restart', text: 'hello', at: T0 });
    store.close();
    store = openStore(tmp.dbPath, { now: () => T0 });
    expect(store.messages.enqueue({ sessionId: 's1', idempotencyKey: 'k-restart', text: 'hello', at: T0 + 1 }).isDuplicate).toBe(true);
  });

  it('scopes keys to their session and never deduplicates messages without a key', () => {
    store.sessions.insert({ id: 's2', cwd: '/work', createdAt: T0 });
    expect(store.messages.enqueue({ sessionId: 's1', idempotencyKey: 'same', text: 'a', at: T0 }).isDuplicate).toBe(false);
    expect(store.messages.enqueue({ sessionId: 's2', idempotencyKey: 'same', text: 'a', at: T0 }).isDuplicate).toBe(false);
    expect(store.messages.enqueue({ sessionId: 's1', text: 'b', at: T0 }).isDuplicate).toBe(false);
    expect(store.messages.enqueue({ sessionId: 's1', idempotencyKey: null, text: 'b', at: T0 }).isDuplicate).toBe(false);
    expect(store.messages.page().items).toHaveLength(4);
    expect(store.messages.getByKey('s2', 'same')?.sessionId).toBe('s2');
  });

  it('records the outcome, keeping the first typed and started times', () => {
    const { message } = store.messages.enqueue({ sessionId: 's1', text: 'go', at: T0 });
    store.messages.setOutcome(message.id, 'typing', T0 + 1);
    store.messages.setOutcome(message.id, 'typed', T0 + 2);
    store.messages.setOutcome(message.id, 'echoed', T0 + 3);
    store.messages.setOutcome(message.id, 'started', T0 + 4);
    store.messages.setOutcome(message.id, 'started', T0 + 9);
    expect(store.messages.get(message.id)).toMatchObject({ outcome: 'started', typedAt: T0 + 2, startedAt: T0 + 4, updatedAt: T0 + 9 });
    const refused = store.messages.enqueue({ sessionId: 's1', text: 'no', at: T0 }).message;
    store.messages.setOutcome(refused.id, 'refused', T0 + 1, 'agent is waiting for approval');
    expect(store.messages.get(refused.id)).toMatchObject({ outcome: 'refused', reason: 'agent is waiting for approval', typedAt: null });
  });

  it('refuses a message for an unknown session', () => {
    expect(() => store.messages.enqueue({ sessionId: 'ghost', text: 'x', at: T0 }))
      .toThrow(expect.objectContaining({ code: 'STORE_UNKNOWN_SESSION', message: expect.stringContaining('"ghost"') }));
  });
});

describe('ApprovalsTable', () => {
  const modal = { id: 'ap-1', fingerprint: 'sha-1', sessionId: 's1', title: 'Bash', body: 'npm test', buttons: [{ index: 0, label: 'Yes' }, { index: 1, label: 'No' }], kind: 'approval' };

  it('keeps the first sighting of a modal that stays up', () => {
    expect(store.approvals.recordSeen({ ...modal, firstSeen: T0 }).isNew).toBe(true);
    const again = store.approvals.recordSeen({ ...modal, firstSeen: T0 + 500 });
    expect(again.isNew).toBe(false);
    expect(again.approval).toMatchObject({ firstSeen: T0, buttons: modal.buttons, answeredAt: null });
  });

  it('records only the first answer and lists only pending approvals', () => {
    store.approvals.recordSeen({ ...modal, firstSeen: T0 });
    store.approvals.recordSeen({ ...modal, id: 'ap-2', firstSeen: T0 + 1 });
    store.approvals.recordSeen({ ...modal, id: 'ap-3', firstSeen: T0 + 2 });
    expect(store.approvals.recordAnswer('ap-1', { answeredBy: 'phone', answeredAt: T0 + 5, button: 'Yes', result: 'pressed' })).toBe(true);
    expect(store.approvals.recordAnswer('ap-1', { answeredBy: 'laptop', answeredAt: T0 + 6, button: 'No', result: 'pressed' })).toBe(false);
    expect(store.approvals.recordCleared('ap-2', T0 + 7)).toBe(true);
    expect(store.approvals.get('ap-1')).toMatchObject({ answeredBy: 'phone', button: 'Yes', result: 'pressed', answeredAt: T0 + 5 });
    expect(store.approvals.listPending().map((a) => a.id)).toEqual(['ap-3']);
    expect(store.approvals.listPending('s1').map((a) => a.id)).toEqual(['ap-3']);
    expect(store.approvals.listPending('other')).toEqual([]);
    expect(store.approvals.page({ order: 'desc', limit: 2 }).items.map((a) => a.id)).toEqual(['ap-3', 'ap-2']);
  });
});

describe('NotificationsTable, AuditTable and StateChangesTable', () => {
  it('append typed entries with growing ids, get them by id and page them', () => {
    const n1 = store.notifications.insert({ t: T0, kind: 'approval_needed', sessionId: 's1', title: 'Bash', body: 'npm test', data: { approvalId: 'ap-1' } });
    const n2 = store.notifications.insert({ t: T0, kind: 'exited', sessionId: null, title: 'done', body: '' });
    expect(n2.id).toBeGreaterThan(n1.id);
    expect(store.notifications.page().items).toEqual([n1, { ...n2, data: null }]);
    const a = store.audit.insert({ t: T0, who: 'phone', tokenId: 'tok_1', action: 'approvals.answer', sessionId: 's1', detail: { button: 'Yes' }, outcome: 'ok' });
    expect(store.audit.page({ sessionId: 's1' }).items).toEqual([a]);
    expect(a).toMatchObject({ who: 'phone', detail: { button: 'Yes' }, reason: null });
    expect(store.notifications.get(n1.id)).toEqual(n1);
    expect(store.audit.get(a.id)).toEqual(a);
    expect(store.audit.get(a.id + 1000)).toBeNull();
    const change = store.stateChanges.insert({ sessionId: 's1', t: T0, state: 'waiting', status: 'approval', modal: { approvalId: 'ap-1', kind: 'approval', title: 'Bash' } });
    expect(store.stateChanges.get(change.id)).toEqual(change);
  });
});
