import { describe, expect, it, vi } from 'vitest';
import type { SessionDetail } from '../protocol/sessions.js';

// state.ts reads the location and listens to popstate at load, as in a page.
vi.stubGlobal('location', { pathname: '/' });
vi.stubGlobal('addEventListener', () => {});
const { lastNotification, newestEventSeq, noteEvent, noteEventSeq, noteListedNotices, routeOf } = await import('./state.js');

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
  const listed = (id: string, notice?: { seq: number; at: number; text: string }) => ({ id, ...(notice ? { last_notice: { ...notice, type: 'turn.finished' } } : {}) }) as unknown as SessionDetail;
  it('takes a listed notice unless the page heard a newer one', () => {
    noteEvent({ seq: 9, at: 900, session_id: 's_live', type: 'session.error', code: 'X', message: 'boom' });
    noteListedNotices([listed('s_a', { seq: 3, at: 300, text: 'turn finished in 2 s' }), listed('s_live', { seq: 4, at: 400, text: 'turn finished in 1 s' }), listed('s_none')]);
    expect(lastNotification.value.get('s_a')).toEqual({ at: 300, text: 'turn finished in 2 s' });
    expect(lastNotification.value.get('s_live')).toEqual({ at: 900, text: 'error: boom' });
    expect(lastNotification.value.has('s_none')).toBe(false);
    const before = lastNotification.value;
    noteListedNotices([listed('s_a', { seq: 3, at: 300, text: 'turn finished in 2 s' })]);
    expect(lastNotification.value).toBe(before); // nothing new: no new map, no re-render
  });
});

describe('where event subscriptions start', () => {
  it('after the newest event seq the page had, never going back', () => {
    expect(newestEventSeq()).toBeUndefined(); // no list read yet: the daemon's kept history
    noteEventSeq(40);
    noteEventSeq(12); // an older list read does not move it back
    noteEventSeq(undefined); // a list without event_seq (an older daemon) neither
    expect(newestEventSeq()).toBe(40);
    noteEventSeq(41);
    expect(newestEventSeq()).toBe(41);
  });
});
