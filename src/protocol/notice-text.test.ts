import { describe, expect, it } from 'vitest';
import { noticeText } from './notice-text.js';

describe('notice words', () => {
  const base = { seq: 1, at: 5, session_id: 's_1' };
  it('words the notification events and ignores the others', () => {
    expect(noticeText({ ...base, type: 'turn.finished', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, duration_ms: 12_400 })).toBe('turn finished in 12 s');
    const background = { count: 1, what: '1 background shell', items: [{ id: 'shell', count: 1 }] };
    expect(noticeText({ ...base, type: 'turn.finished', state: { id: 'idle', label: 'Idle', title: null, status: 'idle', background }, duration_ms: 300_000 })).toBe('turn finished in 300 s, 1 background shell still running');
    expect(noticeText({ ...base, type: 'session.exited', code: 3, signal: null })).toBe('exited with code 3');
    expect(noticeText({ ...base, type: 'session.exited', code: null, signal: 'SIGKILL' })).toBe('exited on SIGKILL');
    expect(noticeText({ ...base, type: 'session.exited', code: null, signal: 'SIGHUP', killed_by: { name: 'phone', token_id: 't_1', at: 1 } })).toBe('killed by phone');
    expect(noticeText({ ...base, type: 'approval.answered', approval_id: 'a', button: 'Yes', by: 'phone' })).toBe('answered "Yes" (phone)');
    expect(noticeText({ ...base, type: 'session.removed' })).toBeNull();
  });
});
