import { describe, expect, it, vi } from 'vitest';

// state.ts reads the location and listens to popstate at load, as in a page.
vi.stubGlobal('location', { pathname: '/' });
vi.stubGlobal('addEventListener', () => {});
const { notificationText, routeOf } = await import('./state.js');

describe('routes', () => {
  it('maps paths to views, the session tab defaulting to the terminal', () => {
    expect(routeOf('/')).toEqual({ view: 'overview' });
    expect(routeOf('/inbox')).toEqual({ view: 'inbox' });
    expect(routeOf('/sessions/s_1')).toEqual({ view: 'session', id: 's_1', tab: 'terminal' });
    expect(routeOf('/sessions/s_1/history')).toEqual({ view: 'session', id: 's_1', tab: 'history' });
    expect(routeOf('/sessions/s_1/debug')).toEqual({ view: 'session', id: 's_1', tab: 'debug' });
    expect(routeOf('/recordings')).toEqual({ view: 'recordings', name: null });
    expect(routeOf('/recordings/run-1')).toEqual({ view: 'recordings', name: 'run-1' });
    expect(routeOf('/recordings/../x')).toEqual({ view: 'overview' });
    expect(routeOf('/sessions/../etc')).toEqual({ view: 'overview' });
  });

  it('opens a session on its transcript on a phone, on its terminal elsewhere', () => {
    const widths: string[] = [];
    for (const [query, tab] of [['(max-width: 600px)', 'transcript'], ['(min-width: 601px)', 'terminal']] as const) {
      vi.stubGlobal('matchMedia', (q: string) => { widths.push(q); return { matches: q === query }; });
      expect(routeOf('/sessions/s_1')).toEqual({ view: 'session', id: 's_1', tab });
      expect(routeOf('/sessions/s_1/terminal')).toEqual({ view: 'session', id: 's_1', tab: 'terminal' });
    }
    vi.unstubAllGlobals();
    vi.stubGlobal('location', { pathname: '/' });
    vi.stubGlobal('addEventListener', () => {});
    expect(widths).toContain('(max-width: 600px)');
  });
});

describe('last notifications', () => {
  const base = { seq: 1, at: 5, session_id: 's_1' };
  it('words the notification events and ignores the others', () => {
    expect(notificationText({ ...base, type: 'turn.finished', state: { id: 'idle', label: 'Idle', title: null, status: 'idle' }, duration_ms: 12_400 })).toBe('turn finished in 12 s');
    const background = { count: 1, what: '1 background shell', items: [{ id: 'shell', count: 1 }] };
    expect(notificationText({ ...base, type: 'turn.finished', state: { id: 'idle', label: 'Idle', title: null, status: 'idle', background }, duration_ms: 300_000 })).toBe('turn finished in 300 s, 1 background shell still running');
    expect(notificationText({ ...base, type: 'session.exited', code: 3, signal: null })).toBe('exited with code 3');
    expect(notificationText({ ...base, type: 'session.exited', code: null, signal: 'SIGKILL' })).toBe('exited on SIGKILL');
    expect(notificationText({ ...base, type: 'session.exited', code: null, signal: 'SIGHUP', killed_by: { name: 'phone', token_id: 't_1', at: 1 } })).toBe('killed by phone');
    expect(notificationText({ ...base, type: 'approval.answered', approval_id: 'a', button: 'Yes', by: 'phone' })).toBe('answered "Yes" (phone)');
    expect(notificationText({ ...base, type: 'session.removed' })).toBeNull();
  });
});
